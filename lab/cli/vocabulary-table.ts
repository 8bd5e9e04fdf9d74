// tsx lab/run.ts vocabulary [--out DIR] [--expected DIR]
// The findings table of the form vocabulary (issue #16), made from real runs: every vocabulary
// case against every server peer that can run here and has expectation files (a column appears
// when its files do), each run checked against that server's hand-written expectation; then the
// same with the Go client (issue #26), whose SDK checks an accepted answer against requestedSchema
// itself, where its files are written (vocabulary-go/). Prints a Markdown table (notebook 07 shows
// it as is): per case, the layer that refused the answer in each column. Writes run-output/vocabulary.json (contract-shaped). Exit 0 when every run holds.
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
import { GO_CLIENT } from "../peers/go/index.js";
import { SERVER_PEERS, transportProblem } from "../peers/registry.js";
import { TS1_CLIENT } from "../peers/ts1/index.js";
import { assertPinnedSdk, readVersions } from "../peers/versions.js";
import type { ClientPeer, ServerPeer } from "../plan/peer.js";
import { findVocabularyCase, VOCABULARY_CASES } from "../plan/vocabulary.js";
import type { CaseReport } from "../session/pipeline.js";
import { slots } from "../session/slots.js";

/** Sessions at once: a Python server costs ~1.4 s of start-up each, mostly waiting on import. */
const AT_ONCE = 4;

/** The clients with a column per server: ts1 (the cases' own client), then go where its files are written. */
const CLIENTS: ClientPeer[] = [TS1_CLIENT, GO_CLIENT];

interface Column {
  client: ClientPeer;
  server: ServerPeer;
  transport: string;
  work: ContractWork[];
}

/** ts1's columns keep the server's name alone (the table as it was); another client's say whose they are. */
const columnName = (client: ClientPeer, server: ServerPeer) => (client.name === TS1_CLIENT.name ? server.name : `${client.name} → ${server.name}`);

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
  for (const client of CLIENTS) {
    for (const server of SERVER_PEERS) {
      const kinds = kindsWritten(expectedDir, server.name, client.name);
      const why = kinds.length === 0 ? `no files in ${shown(vocabularyDir(expectedDir, server.name, client.name))}` : (client.unavailable() ?? server.unavailable());
      // memory where the pairing allows it (fastest), else the server's own stdio child
      const transport = ["memory", "stdio"].find((t) => transportProblem({ client, loop: "sdk", server }, t) === undefined);
      if (why || !transport) {
        absent.push(`${columnName(client, server)} (${why ?? "no transport"})`);
        continue;
      }
      columns.push({ client, server, transport, work: selectContractWork(kinds.join(","), server.name, expectedDir, client.name).work });
    }
  }
  if (columns.length === 0) throw new UsageError(`vocabulary: no server peer has vocabulary expectations here (${absent.join("; ")})`);
  const inv = openInvocation(outArg ?? defaultOutDir(expectedDir), "vocabulary");
  const outDir = inv.dir;
  for (const c of columns) if (c.transport === "stdio") await c.server.child?.prepare?.();

  const jobs = columns.flatMap((c) =>
    c.work.map((w) => async () => ({
      column: columnName(c.client, c.server),
      report: await runContractScenario(w.scenario, w.expectation, w.expectedFile, { client: c.client, server: c.server, transports: [c.transport], repeat: 1 }, versions),
    })),
  );
  const ran = await pool(jobs, AT_ONCE);
  const reports = ran.map((r) => r.report);
  const byColumn = new Map<string, Map<string, CaseReport>>();
  for (const { column, report } of ran) byColumn.set(column, (byColumn.get(column) ?? new Map()).set(report.scenario, report));
  const ok = reports.every((r) => r.ok);

  const esc = (s: string) => s.replace(/\|/g, "\\|");
  const cellOf = (c: Column, name: string) => {
    const report = byColumn.get(columnName(c.client, c.server))?.get(name);
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
    `| case | the callback accepts | ${columns.map((c) => `${columnName(c.client, c.server)} (${c.transport})`).join(" | ")} |`,
    `|---|---|${columns.map(() => "---|").join("")}`,
    ...VOCABULARY_CASES.map((v) => `| ${v.name} | \`${esc(JSON.stringify(v.content))}\`${v.applyDefaults ? " (applyDefaults)" : ""} | ${columns.map((c) => cellOf(c, v.name)).join(" | ")} |`),
  ];
  const held = reports.filter((r) => r.ok).length;
  console.log(lines.join("\n"));
  console.log(`\n${held}/${reports.length} runs hold their server's hand-written expectation (results, wire, replies, requestedSchema, refused by).${absent.length ? ` No column: ${absent.join("; ")}.` : ""}`);

  for (const r of reports.filter((r) => !r.ok)) {
    for (const run of r.runs) for (const v of run.verdicts.filter((x) => !x.ok)) console.log(`\nFAIL ${r.scenario} on ${r.client} -> ${r.server} (${run.transport}): ${v.check}: ${v.details.join("; ")}`);
  }
  const rows = reports.flatMap((r) => r.runs.map((run) => ({ case: r.scenario, client: r.client, server: r.server, transport: run.transport, repeat: run.repeat, ...contractRow(r.scenario, run, r.server), ok: run.ok })));
  const file = join(outDir, "vocabulary.json");
  writeJsonAtomic(file, { command: "contract", group: "vocabulary", servers: [...new Set(columns.map((c) => c.server.name))], columns: columns.map((c) => columnName(c.client, c.server)), versions, ok, cases: reports, rows });
  writeStoreIndex(inv.root);
  return ok ? 0 : 1;
}
