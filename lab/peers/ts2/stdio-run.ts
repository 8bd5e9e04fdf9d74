// The v2 server as a real stdio child (build/ts2-server.blob), driven by the v2 client.
// 1. With the SDK's own StdioClientTransport, per negotiation mode: results, negotiated version,
//    and how many processes were spawned (each child appends its pid to LAB_TS2_SPAWN_LOG; the
//    v2 client probes server/discover on a short-lived sibling in auto and pinned modes).
// 2. Over the lab's own stdio client end (lab/stdio-transport.ts, a v1-style transport): the same
//    client, one spawn in every mode (a non-SDK transport is probed in place), and spawn to
//    initialize result next to `node -e 0`, interleaved, medians.
// Run: npx tsx lab/peers/ts2/stdio-run.ts [children=10]
import { bareNode } from "../../bench-stdio.js";
import { ensureChildBuilt } from "../../child-build.js";
import { median } from "../../stats.js";
import { lifecycleProblems, stdioTransport, type ChildEvidence } from "../../stdio-transport.js";
import { Recorder } from "../../timeline.js";
import { ensureTs2ChildBuilt, TS2_CHILD_ARGS, TS2_CHILD_BUNDLE_ARGS } from "./build.js";
import { runTs2Session, type Negotiation } from "./client.js";
import { sdkStdioRun } from "./sdk-stdio.js";
import { fanOutPlan, fixedPlan, nestedPlan } from "./plans.js";
import { summarise } from "./summary.js";

const CHILDREN = Number(process.argv[2] ?? 10);
const MODES: readonly Negotiation[] = ["legacy", "auto", "2026-07-28"];
const problems: string[] = [];

/** One session over the lab's stdio end; in legacy mode the evidence has spawn to initialize result. */
async function labStdioRun(childArgs: readonly string[] | undefined, negotiation: Negotiation = "legacy") {
  const rec = new Recorder();
  const opened = await stdioTransport(childArgs ? { childArgs } : {})(rec, { dispatch: "sdk" });
  const outcome = await runTs2Session(fixedPlan(childArgs ? "calculate_input" : "calculate"), opened.client, rec, { negotiation });
  const evidence = (await opened.close()) as ChildEvidence;
  const trouble = [...outcome.errors, ...lifecycleProblems(evidence)];
  if (trouble.length) problems.push(`lab stdio run (${childArgs?.join(" ") ?? "ts1 child"}, ${negotiation}): ${trouble.join("; ")}`);
  return { outcome, evidence, summary: summarise(rec.events, rec.wire) };
}

await ensureTs2ChildBuilt();
await ensureChildBuilt();

console.log("# 1. v2 client + the SDK's StdioClientTransport, spawning build/ts2-server.blob");
for (const negotiation of MODES) {
  for (const plan of [nestedPlan("calculate_input"), fanOutPlan("calculate_input"), ...(negotiation === "legacy" ? [nestedPlan("calculate")] : [])]) {
    const run = await sdkStdioRun(plan, negotiation);
    if (run.leftAlive.length) problems.push(`${plan.scenario}/${negotiation}: child(ren) ${run.leftAlive.join(", ")} still alive after client.close() (killed)`);
    const s = run.summary;
    console.log(`\n## ${negotiation}: ${plan.scenario}`);
    console.log(`  negotiated ${run.outcome.protocolVersion ?? "(none)"}; processes spawned: ${run.pids.length}; connect took ${run.connectMs.toFixed(0)} ms`);
    for (const [call, result] of Object.entries(s.results)) console.log(`  ${call} (${s.callMs[call]} ms): ${JSON.stringify(result)}`);
    console.log(`  callbacks ${s.callbacks}, peak at once ${s.peakCallbacks}${s.nested.length ? `; nested: ${s.nested.join("; ")}` : ""}`);
    if (run.stderr) console.log(`  child stderr: ${run.stderr.slice(0, 300)}`);
    if (run.outcome.errors.length) problems.push(`${plan.scenario}/${negotiation}: ${run.outcome.errors.join("; ")}`);
  }
}

console.log("\n# 2. v2 client over the lab's stdio client end (in-place probe: one spawn per session)");
for (const negotiation of MODES) {
  const run = await labStdioRun(TS2_CHILD_ARGS, negotiation);
  const requests = run.evidence.stdoutErrors.length === 0 ? "stdout clean" : `stdout errors: ${run.evidence.stdoutErrors.length}`;
  console.log(`  ${negotiation}: negotiated ${run.outcome.protocolVersion}; pid ${run.evidence.pid} exit ${run.evidence.exitCode}; ${requests}; first ${JSON.stringify(run.summary.results.first)}`);
}

console.log(`\n# 3. spawn to initialize result (legacy), ${CHILDREN} each, interleaved, medians`);
const series: Record<string, number[]> = { "node -e 0": [], "ts2 child (snapshot)": [], "ts2 child (bundle, no snapshot)": [], "ts1 child (snapshot)": [] };
await bareNode(); // warm the OS caches for every kind of spawn alike
await labStdioRun(TS2_CHILD_ARGS);
for (let i = 0; i < CHILDREN; i++) {
  series["node -e 0"]!.push(await bareNode());
  series["ts2 child (snapshot)"]!.push((await labStdioRun(TS2_CHILD_ARGS)).evidence.spawnToInitializedMs ?? NaN);
  series["ts2 child (bundle, no snapshot)"]!.push((await labStdioRun(TS2_CHILD_BUNDLE_ARGS)).evidence.spawnToInitializedMs ?? NaN);
  series["ts1 child (snapshot)"]!.push((await labStdioRun(undefined)).evidence.spawnToInitializedMs ?? NaN);
}
const bare = median(series["node -e 0"]!);
for (const [name, values] of Object.entries(series)) {
  const m = median(values);
  console.log(`  ${name.padEnd(32)} median ${m.toFixed(1)} ms  (x${(m / bare).toFixed(2)} of node -e 0; min ${Math.min(...values).toFixed(1)}, max ${Math.max(...values).toFixed(1)})`);
}

console.log(problems.length ? `\nPROBLEMS:\n${problems.map((p) => `  ${p}`).join("\n")}` : "\nno problems: every child exited 0 on stdin EOF, none left running");
if (problems.length) process.exitCode = 1;
