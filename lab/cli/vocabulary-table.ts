// tsx lab/run.ts vocabulary [--out DIR] [--expected DIR]
// The findings table of the form vocabulary (issue #16), made from real runs: every vocabulary
// case against every server peer that can run here and has expectation files (a column appears
// when its files do), each run checked against that server's hand-written expectation. Prints a
// Markdown table (notebook 01 shows it as is): per case, the layer that refused the answer on
// each server. Writes run-output/vocabulary.json (contract-shaped). Exit 0 when every run holds.
import { join } from "node:path";
import { read, UsageError, type Parsed } from "./args.js";
import { selectContractWork, type ContractWork } from "./contract-select.js";
import { defaultOutDir, shown, writeJsonAtomic } from "./output.js";
import { openInvocation, writeStoreIndex } from "./store.js";
import { contractRow, elicitationReplies, runLayer } from "../check/contract.js";
import { runContractScenario } from "../session/contract.js";
import { differences } from "../check/compare.js";
import { resultsOf } from "../check/verify.js";
import { kindsWritten, vocabularyDir } from "../check/vocabulary.js";
import { SERVER_PEERS, transportProblem } from "../peers/registry.js";
import { TS1_CLIENT } from "../peers/ts1/index.js";
import { assertPinnedSdk, readVersions } from "../peers/versions.js";
import type { ServerPeer } from "../plan/peer.js";
import { findVocabularyCase, VOCABULARY_CASES } from "../plan/vocabulary.js";
import type { CaseReport } from "../session/pipeline.js";
import { slots } from "../session/slots.js";

/** Sessions at once: a Python server costs ~1.4 s of start-up each, mostly waiting on import. */
const AT_ONCE = 4;

interface Column {
  server: ServerPeer;
  transport: string;
  work: ContractWork[];
}

/** Runs `jobs` at most `limit` at once; results in the order of `jobs`. */
function pool<T>(jobs: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const slot = slots(limit);
  return Promise.all(jobs.map((job) => slot(job)));
}

export async function main(args: Parsed): Promise<number> {
  const outArg = read.text(args, "out");
  const expectedDir = read.text(args, "expected");
  const versions = readVersions();
  assertPinnedSdk(versions);
  const columns: Column[] = [];
  const absent: string[] = [];
  for (const server of SERVER_PEERS) {
    const why = server.unavailable();
    const kinds = kindsWritten(expectedDir, server.name);
    // memory where the pairing allows it (fastest), else the server's own stdio child
    const transport = ["memory", "stdio"].find((t) => transportProblem({ client: TS1_CLIENT, loop: "sdk", server }, t) === undefined);
    if (why || kinds.length === 0 || !transport) {
      absent.push(`${server.name} (${why ?? (kinds.length === 0 ? `no files in ${shown(vocabularyDir(expectedDir, server.name))}` : "no transport")})`);
      continue;
    }
    columns.push({ server, transport, work: selectContractWork(kinds.join(","), server.name, expectedDir).work });
  }
  if (columns.length === 0) throw new UsageError(`vocabulary: no server peer has vocabulary expectations here (${absent.join("; ")})`);
  const inv = openInvocation(outArg ?? defaultOutDir(expectedDir), "vocabulary");
  const outDir = inv.dir;
  for (const c of columns) if (c.transport === "stdio") await c.server.child?.prepare?.();

  const jobs = columns.flatMap((c) =>
    c.work.map((w) => () => runContractScenario(w.scenario, w.expectation, w.expectedFile, { server: c.server, transports: [c.transport], repeat: 1 }, versions)),
  );
  const reports = await pool(jobs, AT_ONCE);
  const byServer = new Map<string, Map<string, CaseReport>>();
  for (const r of reports) byServer.set(r.server, (byServer.get(r.server) ?? new Map()).set(r.scenario, r));
  const ok = reports.every((r) => r.ok);

  const esc = (s: string) => s.replace(/\|/g, "\\|");
  const cellOf = (c: Column, name: string) => {
    const report = byServer.get(c.server.name)?.get(name);
    const run = report?.runs[0];
    if (!report || !run) return "(no file)";
    const layer = runLayer(run) ?? "-";
    const expected = c.work.find((w) => w.scenario.name === name)!.expectation.refusedBy;
    // what the app holds, where a layer changed the answer (a default filled in, a value coerced)
    const result = resultsOf(run.events)[name] as { content?: unknown } | undefined;
    const sent = findVocabularyCase(name)!.content;
    const changed = result?.content !== undefined && differences(sent, result.content).length > 0;
    const code = (elicitationReplies(run.wire) as ({ error?: { code?: unknown } } | null)[]).find((r) => r?.error)?.error?.code;
    const text = `${layer}${code !== undefined ? ` (${String(code)})` : ""}${changed ? `, holds \`${esc(JSON.stringify(result!.content))}\`` : ""}`;
    return report.ok ? text : `${text} ✗ (expected ${expected ?? "-"})`;
  };
  const lines = [
    `| case | the callback accepts | ${columns.map((c) => `${c.server.name} (${c.transport})`).join(" | ")} |`,
    `|---|---|${columns.map(() => "---|").join("")}`,
    ...VOCABULARY_CASES.map((v) => `| ${v.name} | \`${esc(JSON.stringify(v.content))}\`${v.applyDefaults ? " (applyDefaults)" : ""} | ${columns.map((c) => cellOf(c, v.name)).join(" | ")} |`),
  ];
  const held = reports.filter((r) => r.ok).length;
  console.log(lines.join("\n"));
  console.log(`\n${held}/${reports.length} runs hold their server's hand-written expectation (results, wire, replies, requestedSchema, refused by).${absent.length ? ` No column: ${absent.join("; ")}.` : ""}`);

  for (const r of reports.filter((r) => !r.ok)) {
    for (const run of r.runs) for (const v of run.verdicts.filter((x) => !x.ok)) console.log(`\nFAIL ${r.scenario} on ${r.server} (${run.transport}): ${v.check}: ${v.details.join("; ")}`);
  }
  const rows = reports.flatMap((r) => r.runs.map((run) => ({ case: r.scenario, server: r.server, transport: run.transport, repeat: run.repeat, ...contractRow(r.scenario, run, r.server), ok: run.ok })));
  const file = join(outDir, "vocabulary.json");
  writeJsonAtomic(file, { command: "contract", group: "vocabulary", servers: columns.map((c) => c.server.name), versions, ok, cases: reports, rows });
  writeStoreIndex(inv.root);
  return ok ? 0 : 1;
}
