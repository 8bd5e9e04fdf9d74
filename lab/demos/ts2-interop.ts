// Interop facts about the ts2 peers, each from a real in-process run (nothing mocked):
// the era gate on a pinned client against ts1, elicitInput under a 2026-07-28 client, a tool that
// never stops asking (endless_input), a malformed input-required result (malformed_input), and
// liveness per era. Each session's `recovery` call shows whether the session is still usable.
// Run: npx tsx lab/demos/ts2-interop.ts
import { ACCEPT_VALID as acceptValid } from "../plan/scenario.js";
import { printRun, ts1ClientRun, ts1Scenario, ts2ClientRun, type RunRecord } from "./runs.js";
import { fixedPlan, nestedPlan, singleCallPlan } from "./plans.js";
import type { SessionPlan } from "../plan/behaviour.js";

const showWire = process.argv.includes("--wire");
const facts: string[] = [];

function fact(run: RunRecord, what: string): void {
  printRun(run, { wire: showWire });
  const first = JSON.stringify(run.summary.results.first ?? run.errors[0] ?? null);
  const recovery = run.summary.results.recovery;
  const usable = recovery === undefined ? "no recovery call" : `recovery ${JSON.stringify(recovery)}`;
  facts.push(`${what}\n    ${run.label} [${run.protocolVersion ?? "no session"}]\n    first: ${first.slice(0, 220)}\n    ${usable.slice(0, 120)}`);
}

const withRecovery = (scenario: string, tool: string, args: Record<string, unknown>, recoveryTool: string): SessionPlan => {
  const plan = singleCallPlan(scenario, tool, args);
  return { ...plan, calls: [plan.calls[0]!, { ...plan.calls[1]!, tool: recoveryTool }] };
};

console.log("# era gate");
fact(await ts2ClientRun(fixedPlan("calculate"), "ts1", "2026-07-28"), "pinned 2026-07-28 client vs ts1 server");

fact(await ts2ClientRun(fixedPlan("calculate_input"), "ts2-plain", "auto"), "auto client vs a plain McpServer.connect() listing 2026-07-28");
fact(await ts2ClientRun(fixedPlan("calculate_input"), "ts2-plain", "2026-07-28"), "pinned client vs a plain McpServer.connect() listing 2026-07-28");

console.log("\n# calculate (ctx.mcpReq.elicitInput / Server.request) under a 2026-07-28 client");
for (const negotiation of ["auto", "2026-07-28"] as const) {
  fact(await ts2ClientRun(withRecovery("calculate validated", "calculate", {}, "calculate_input"), "ts2", negotiation), `calculate (validated) on ${negotiation}`);
}
fact(await ts2ClientRun(withRecovery("calculate raw", "calculate", { policy: "raw" }, "calculate_input"), "ts2", "auto"), "calculate (raw) on auto");
fact(await ts2ClientRun(withRecovery("calculate raw", "calculate", { policy: "raw" }, "calculate"), "ts2", "legacy"), "calculate (raw) on legacy");

console.log("\n# endless_input: input_required every round");
fact(await ts2ClientRun(singleCallPlan("endless_input", "endless_input"), "ts2", "auto"), "endless_input, v2 client on 2026-07-28 (client driver cap)");
fact(await ts2ClientRun(singleCallPlan("endless_input", "endless_input"), "ts2", "legacy"), "endless_input, v2 client on 2025-11-25 (server legacy shim cap)");
fact(await ts1ClientRun(ts1Scenario("endless_input", "endless_input", acceptValid)), "endless_input, ts1 client (legacy shim)");

console.log("\n# malformed_input: entry = not an embedded request; params = elicitation/create with message: 42");
for (const kind of ["entry", "params"] as const) {
  fact(await ts2ClientRun(singleCallPlan(`malformed_input ${kind}`, "malformed_input", { kind }), "ts2", "auto"), `malformed_input (${kind}), 2026-07-28`);
  fact(await ts2ClientRun(singleCallPlan(`malformed_input ${kind}`, "malformed_input", { kind }), "ts2", "legacy"), `malformed_input (${kind}), 2025-11-25`);
  fact(await ts1ClientRun(ts1Scenario(`malformed_input ${kind}`, "malformed_input", acceptValid, { kind })), `malformed_input (${kind}), ts1 client`);
}

console.log("\n# liveness: a ping to the client while its callback runs");
fact(await ts2ClientRun(withRecovery("liveness", "liveness", {}, "calculate"), "ts2", "legacy"), "liveness, v2 client 2025-11-25");
fact(await ts2ClientRun(withRecovery("liveness", "liveness", {}, "calculate_input"), "ts2", "auto"), "liveness, v2 client 2026-07-28");

console.log("\n# the lab's serial model (a receive loop that awaits each inbound request) under the v2 client");
fact(await ts2ClientRun(nestedPlan("calculate"), "ts2", "legacy", "serial"), "nested on 2025-11-25, serial loop: the nested tools/list reply waits behind the callback");
fact(await ts2ClientRun(nestedPlan("calculate_input"), "ts2", "auto", "serial"), "nested on 2026-07-28, serial loop: no inbound request ever holds the loop");

console.log(`\n# facts\n${facts.map((f) => `- ${f}`).join("\n")}`);
