// tsx lab/run.ts contract [<name>[,<name>...]] [options: lab/cli/commands.ts]
// Runs the form-elicitation contract (the ts1 client against one server peer) over every
// transport that pairing can use: the calculate cases and the vocabulary cases (issue #16), or
// the cases and groups named (lab/cli/contract-select.ts). Prints one row per case and transport, writes
// run-output/contract.json (contract.<server>.json for a server other than ts1), also when a
// check fails. Exit 0 when every check holds, 1 when one fails; bad usage throws UsageError
// (exit 2 in lab/run.ts).
import { join } from "node:path";
import { read, UsageError, type Parsed } from "./args.js";
import { contractRow } from "../check/contract.js";
import { runContractScenario } from "../session/contract.js";
import { selectContractWork } from "./contract-select.js";
import { defaultOutDir, ensureNewReportFile, shown, writeAtomic, writeJsonAtomic } from "./output.js";
import { junitCases, renderJunit } from "../render/junit.js";
import { openInvocation, writeStoreIndex } from "./store.js";
import { writeIndexPage } from "./index-page.js";
import { LOOP_MEANING, type CaseReport } from "../session/pipeline.js";
import { findServer, SERVER_PEERS, transportProblem } from "../peers/registry.js";
import { TS1_CLIENT } from "../peers/ts1/index.js";
import { assertPinnedSdk, readVersions } from "../peers/versions.js";
import { slots } from "../session/slots.js";
import { sdkText } from "../plan/peer.js";

/** Contract cases run at once. */
const CASES_AT_ONCE = 4;

export async function main(parsed: Parsed): Promise<number> {
  const usage = (message: string) => new UsageError(`contract: ${message}`);
  const named = parsed.positionals[0];
  const args = { servers: read.list(parsed, "server"), clients: read.list(parsed, "client"), transports: read.list(parsed, "transport") ?? [], repeat: read.whole(parsed, "repeat") ?? 1, json: read.flag(parsed, "json"), junit: read.text(parsed, "junit"), outDir: read.text(parsed, "out"), expectedDir: read.text(parsed, "expected") };
  const loops = read.loops(parsed, "loop");
  if (loops !== undefined && loops.join() !== "sdk") throw usage("the contract runs under the sdk loop model only (its callbacks never call back, so the model cannot matter)");
  if (args.clients !== undefined && args.clients.join() !== "ts1") throw usage("the contract's client is ts1 (its cases are ts1 callback fixtures); choose the server with --server");
  if (args.servers !== undefined && args.servers.length !== 1) throw usage("--server names one server peer");
  const serverName = args.servers?.[0] ?? "ts1";
  const server = findServer(serverName);
  if (!server) throw usage(`unknown server peer '${serverName}'. Valid: ${SERVER_PEERS.map((p) => p.name).join(", ")}`);
  const why = server.unavailable();
  if (why) throw usage(`server ${serverName} cannot run here: ${why}`);
  const transports = args.transports.filter((t) => transportProblem({ client: TS1_CLIENT, loop: "sdk", server }, t) === undefined);
  if (transports.length === 0) throw usage(`server ${serverName} cannot run over ${args.transports.join(", ")} (try --transport stdio)`);
  const versions = readVersions();
  assertPinnedSdk(versions);
  // Every expectation is read, and the output folder checked, before anything runs.
  let selected;
  try {
    selected = selectContractWork(named, serverName, args.expectedDir);
  } catch (error) {
    throw error instanceof UsageError ? usage(error.message) : error;
  }
  const { work, skipped } = selected;
  const junit = args.junit === undefined ? undefined : ensureNewReportFile(args.junit, "--junit");
  const inv = openInvocation(args.outDir ?? defaultOutDir(), "contract");
  const outDir = inv.dir;
  const options = { server, transports, repeat: args.repeat, expectedDir: args.expectedDir };
  // cases side by side, a few at a time (each is a short session; every check is an order, a count
  // or a value), kept in the selection's order
  const slot = slots(CASES_AT_ONCE);
  const reports: CaseReport[] = await Promise.all(work.map((w) => slot(() => runContractScenario(w.scenario, w.expectation, w.expectedFile, options, versions))));

  const rows = reports.flatMap((report) =>
    report.runs.map((run) => ({
      case: report.scenario,
      transport: run.transport,
      repeat: run.repeat,
      ...contractRow(report.scenario, run, serverName),
      ok: run.ok,
      failed: run.verdicts.filter((v) => !v.ok),
    })),
  );
  const ok = reports.every((r) => r.ok);
  const file = join(outDir, serverName === "ts1" ? "contract.json" : `contract.${serverName}.json`);
  // `rows` is the table as printed, so the index page shows it without re-deriving it.
  writeJsonAtomic(file, { command: "contract", server: serverName, serverSdk: sdkText(server.sdk), loop: "sdk", loopMeaning: LOOP_MEANING.sdk, versions, ok, ...(skipped && { skipped }), cases: reports, rows });
  if (junit) writeAtomic(junit, renderJunit(`lab contract --server ${serverName}`, junitCases(reports)));
  writeIndexPage(outDir);
  writeStoreIndex(inv.root);
  if (args.json) {
    console.log(JSON.stringify({ ok, output: file, ...(skipped && { skipped }), rows }, null, 2));
    return ok ? 0 : 1;
  }
  if (skipped) console.log(skipped);
  console.log(`form-elicitation contract: ${work.length} cases, ${serverName === "ts1" ? "" : `client ts1, server ${serverName} (${sdkText(server.sdk)}), `}loop sdk (${LOOP_MEANING.sdk}); callbacks never call back, so the model cannot matter\n`);
  console.log(table(rows.map((r) => [r.case, r.transport, r.action, r.status, show(r.computed), show(r.value), r.refusedBy, r.layer, r.ok ? "ok" : "FAIL"])));
  for (const r of rows.filter((r) => !r.ok)) {
    console.log(`\nFAIL ${r.case} (${r.transport}, repeat ${r.repeat})`);
    for (const v of r.failed) console.log(`  ${v.check}:\n${v.details.map((d) => `    ${d}`).join("\n")}`);
  }
  const parity = reports.flatMap((r) => r.parity.map((p) => ({ case: r.scenario, ...p })));
  for (const p of parity.filter((p) => !p.ok)) {
    const side = p.result.ok ? `server side (the child's own record)` : "client timelines";
    const diff = p.result.ok ? p.server?.firstDifference : p.result.firstDifference;
    console.log(`\nFAIL parity ${p.case} #${p.repeat}: memory and ${p.transport} ${side} differ: ${JSON.stringify(diff)}`);
  }
  const failed = rows.filter((r) => !r.ok).length;
  const others = [...new Set(parity.map((p) => p.transport))].join(", ");
  const parityLine = parity.length ? `; parity memory vs ${others}: ${parity.filter((p) => p.ok).length}/${parity.length} agree` : "";
  console.log(`\n${rows.length - failed}/${rows.length} runs hold their contract${parityLine}; run output: ${shown(file)}`);
  return ok ? 0 : 1;
}

const show = (value: unknown) => (value === undefined ? "-" : JSON.stringify(value));

function table(body: string[][]): string {
  const head = ["case", "transport", "action", "status", "computed", "value", "refused by", "how", ""];
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (row: string[]) => row.map((cell, i) => cell.padEnd(widths[i]!)).join("  ").trimEnd();
  return [line(head), widths.map((w) => "─".repeat(w)).join("  ").trimEnd(), ...body.map(line)].join("\n");
}
