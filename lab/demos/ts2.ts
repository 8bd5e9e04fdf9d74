// The ts2 peers in one process, every pairing over the lab's own linked pair (a v1-style
// transport that records each frame): v2 client <-> v2 server, v2 client -> ts1 server, ts1 client
// -> v2 server, in the eras where each applies. Prints negotiated versions, results, peak
// callbacks at once, server-to-client requests on the wire, and the 2026-07-28 rounds.
// Run: npx tsx lab/demos/ts2.ts [--wire]
import fanOut from "../../scenarios/fan-out.js";
import fixedFixture from "../../scenarios/fixed-fixture.js";
import nested from "../../scenarios/nested.js";
import { ACCEPT_VALID as acceptValid } from "../plan/scenario.js";
import { printRun, ts1ClientRun, ts1Scenario, ts2ClientRun, type RunRecord } from "./runs.js";
import { fanOutPlan, fixedPlan, nestedPlan } from "./plans.js";

const showWire = process.argv.includes("--wire");
const problems: string[] = [];

function show(run: RunRecord, wire = showWire): RunRecord {
  printRun(run, { wire });
  return run;
}

/** On 2026-07-28 nothing may travel server -> client as a request. */
function requireNoServerRequests(run: RunRecord): void {
  const sent = Object.values(run.summary.serverToClientRequests).reduce((a, b) => a + b, 0);
  console.log(`  => 2026-07-28 check: ${sent} server-to-client requests (must be 0)`);
  if (sent !== 0) problems.push(`${run.label}: ${sent} server-to-client requests on 2026-07-28`);
  if (run.protocolVersion !== "2026-07-28") problems.push(`${run.label}: negotiated ${String(run.protocolVersion)}, not 2026-07-28`);
}

function requireVersion(run: RunRecord, version: string): void {
  if (run.protocolVersion !== version) problems.push(`${run.label}: negotiated ${String(run.protocolVersion)}, expected ${version}`);
}

console.log("# 2025-11-25: the server pushes elicitation/create; the client's callback answers it");

for (const plan of [nestedPlan("calculate"), fixedPlan("calculate"), fanOutPlan("calculate"), nestedPlan("calculate_input")]) {
  requireVersion(show(await ts2ClientRun(plan, "ts2", "legacy")), "2025-11-25");
}
for (const plan of [nestedPlan("calculate"), fixedPlan("calculate"), fanOutPlan("calculate")]) {
  requireVersion(show(await ts2ClientRun(plan, "ts1", "legacy")), "2025-11-25");
}
// auto against a 2025-era server: the in-place server/discover probe is refused, then initialize.
requireVersion(show(await ts2ClientRun(nestedPlan("calculate"), "ts1", "auto"), true), "2025-11-25");
for (const scenario of [nested, fixedFixture, fanOut, ts1Scenario("calculate_input (legacy shim)", "calculate_input", acceptValid)]) {
  requireVersion(show(await ts1ClientRun(scenario)), "2025-11-25");
}

console.log("\n# 2026-07-28: the tool call returns input_required; the client answers locally and retries");

for (const negotiation of ["auto", "2026-07-28"] as const) {
  for (const plan of [nestedPlan("calculate_input"), fixedPlan("calculate_input"), fanOutPlan("calculate_input")]) {
    const run = show(await ts2ClientRun(plan, "ts2", negotiation), showWire || (negotiation === "auto" && plan.scenario.startsWith("fixed")));
    requireNoServerRequests(run);
  }
}

console.log("\n# A client pinned to 2026-07-28 against the ts1 server (no server/discover there)");
const pinned = show(await ts2ClientRun(fixedPlan("calculate"), "ts1", "2026-07-28"), true);
if (pinned.protocolVersion !== undefined) problems.push(`${pinned.label}: connected (${pinned.protocolVersion}), expected a failed negotiation`);

console.log(problems.length === 0 ? "\nall checks held" : `\nPROBLEMS:\n${problems.map((p) => `  ${p}`).join("\n")}`);
if (problems.length > 0) process.exitCode = 1;
