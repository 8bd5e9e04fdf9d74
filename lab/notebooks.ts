// The notebooks engine: each notebook in notebooks/ is Markdown whose output blocks are made by
// real runs. `tsx lab/run.ts notebooks` re-runs what each block shows and rewrites only the
// blocks' contents; `--check` compares instead (times and pids ignored) and says which notebook
// and which block differ. Prose is never touched.
//
// An output block, in a notebook:
//
//   <!-- lab:output run="nested --dispatch serial --transport memory --repeat 1" show="swimlane" -->
//   ...written by the engine...
//   <!-- /lab:output -->
//
// `run` is what follows `tsx lab/run.ts` on the command line; the engine runs exactly that, as
// a bounded child process, with its run output sent to a temporary directory, and reads the
// case reports back (a scenario writes one file per case; `contract` writes contract.json,
// whose `cases` are case reports too). `show` picks what the block holds, from that one run:
// see SHOWS. The optional `only="a,b"` keeps just the reports of those scenarios or contract
// cases. Blocks with the same `run` share one run. Renderers read the reports only (timeline,
// wire, verdicts, transport evidence); `timing` and `parity` also read the expectation file.
// Marker lines inside a fenced code block in the prose are text, not markers.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { lifecycleProblems, type ChildEvidence } from "./child-process.js";
import { contractRow, elicitationReplies } from "./contract.js";
import { loadExpectation } from "./expectations.js";
import { writeAtomic } from "./output.js";
import { normalise as parityEvents, PARITY_RULES, SERVER_SIDE_ALLOWANCES, type ParityEvent, type ParityResult } from "./parity.js";
import type { CaseReport, RunRecord } from "./pipeline.js";
import { DISPATCH_MODELS } from "./receive-loop.js";
import { renderMermaid } from "./render/mermaid.js";
import { renderVerdicts, runHeader } from "./render/report.js";
import { frameViews } from "./render/story.js";
import { renderSwimlane, rpc } from "./render/swimlane.js";
import { callbackTime, peakCallbacks, resultsOf, selectEvent } from "./verify.js";
import { SCENARIOS } from "../scenarios/index.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
export const NOTEBOOKS_DIR = join(ROOT, "notebooks");
/** No run of a notebook may take longer than this. */
export const RUN_BOUND_MS = 120_000;

export const SHOWS = {
  command: "the command, as a reader types it, and exactly what it prints",
  swimlane: "the terminal swimlane of each run (no colour)",
  mermaid: "a Mermaid sequenceDiagram of each run (GitHub renders it)",
  results: "a Markdown table: run, call, status, computed, value",
  verdicts: "each run's checks against its hand-written expectation, PASS or FAIL",
  contract: "a Markdown table of a contract run: each case's answer, the client's reply on the wire, the result, who refused",
  held: "a Markdown table of every frame that waited in a queue behind a request holding the loop, and whether that was a deadlock",
  timing: "a Markdown table: callbacks running at once (peak), the median callback time, each timed span in callback times",
  parity: "each memory/stdio parity verdict, with the allowances its expectation names (needs --transport both)",
  compared: "a Markdown table of the client events parity compares, memory beside stdio (needs --transport both)",
  child: "a Markdown table of each stdio child's lifecycle: stdout lines, stderr, exit, forced kill",
} as const;
export type Show = keyof typeof SHOWS;

const OPEN = /^<!--\s*lab:output(\s.*?)?\s*-->$/;
const CLOSE = /^<!--\s*\/lab:output\s*-->$/;
/** A line that starts like a marker must be one exactly: anything else is an error, not prose. */
const MARKERISH = /^<!--\s*\/?\s*lab:/;

/** A malformed notebook: names the file and line. The CLI exits 2. */
export class NotebookError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    message: string,
  ) {
    super(`${file}:${line}: ${message}`);
  }
}

export interface Block {
  /** 1-based line numbers of the opening and closing markers */
  open: number;
  close: number;
  run: string;
  show: Show;
  /** only these scenarios / contract cases of the run (by name); default: all of them */
  only?: string[];
  /** the lines between the markers, as they are in the file */
  body: string[];
}

function parseAttributes(file: string, line: number, text: string): { run: string; show: Show; only?: string[] } {
  const attrs = new Map<string, string>();
  const attr = /\s*([a-z]+)="([^"]*)"/y;
  let at = 0;
  while (at < text.length) {
    attr.lastIndex = at;
    const m = attr.exec(text);
    if (!m) {
      if (text.slice(at).trim() === "") break;
      throw new NotebookError(file, line, `malformed lab:output marker near '${text.slice(at).trim()}': write name="value" pairs (run, show, only)`);
    }
    const [, name, value] = m as unknown as [string, string, string];
    if (name !== "run" && name !== "show" && name !== "only") throw new NotebookError(file, line, `unknown attribute '${name}' in lab:output marker (valid: run, show, only)`);
    if (attrs.has(name)) throw new NotebookError(file, line, `attribute '${name}' given twice`);
    attrs.set(name, value);
    at = attr.lastIndex;
  }
  const run = attrs.get("run")?.trim();
  const show = attrs.get("show");
  if (!run) throw new NotebookError(file, line, `lab:output marker needs run="<what follows tsx lab/run.ts>"`);
  if (show === undefined) throw new NotebookError(file, line, `lab:output marker needs show="${Object.keys(SHOWS).join("|")}"`);
  if (!(show in SHOWS)) throw new NotebookError(file, line, `unknown show="${show}" (valid: ${Object.keys(SHOWS).join(", ")})`);
  const argv = run.split(/\s+/);
  if (argv[0] === "notebooks") throw new NotebookError(file, line, "a notebook cannot run the notebooks command");
  if (argv.includes("--out")) throw new NotebookError(file, line, "run must not set --out: the engine decides where run output goes");
  const only = attrs.get("only")?.split(",").map((name) => name.trim()).filter(Boolean);
  if (only !== undefined && only.length === 0) throw new NotebookError(file, line, `only="" names nothing: list scenario or contract case names, comma-separated`);
  return { run, show: show as Show, ...(only && { only }) };
}

export function parseNotebook(file: string, text: string): { lines: string[]; blocks: Block[] } {
  const lines = text.split("\n");
  const blocks: Block[] = [];
  let open: { line: number; run: string; show: Show; only?: string[]; body: string[] } | undefined;
  let fence: string | undefined;
  lines.forEach((raw, i) => {
    const n = i + 1;
    const line = raw.trim();
    if (open) {
      if (CLOSE.test(line)) {
        const { line: at, body, ...rest } = open;
        blocks.push({ open: at, close: n, ...rest, body });
        open = undefined;
      } else if (MARKERISH.test(line)) {
        throw new NotebookError(file, n, `marker inside the output block opened at line ${open.line}: close it with <!-- /lab:output --> first`);
      } else open.body.push(raw);
      return;
    }
    const f = /^(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (f && f[0] === fence[0] && f.length >= fence.length && line.slice(f.length).trim() === "") fence = undefined;
      return;
    }
    if (f) {
      fence = f;
      return;
    }
    if (!MARKERISH.test(line)) return;
    const m = OPEN.exec(line);
    if (m) {
      open = { line: n, ...parseAttributes(file, n, m[1] ?? ""), body: [] };
      return;
    }
    if (CLOSE.test(line)) throw new NotebookError(file, n, "closing <!-- /lab:output --> without an opening marker");
    throw new NotebookError(file, n, `malformed marker '${line}': expected <!-- lab:output run="..." show="..." --> or <!-- /lab:output -->`);
  });
  if (open) throw new NotebookError(file, open.line, "output block is never closed (<!-- /lab:output -->)");
  return { lines, blocks };
}

// ---------------------------------------------------------------------------------------------
// Running: the real CLI, bounded, its case reports read back from its run output.

export interface RunOutput {
  run: string;
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  reports: CaseReport[];
  /** the reports came from a `contract` run (run-output/contract.json holds them as `cases`) */
  contract?: boolean;
}

export type Runner = (run: string) => Promise<RunOutput>;

function reportOrder(report: CaseReport): number {
  const scenario = SCENARIOS.findIndex((s) => s.name === report.scenario);
  const dispatch = DISPATCH_MODELS.indexOf(report.dispatch);
  return (scenario < 0 ? 999 : scenario) * 10 + (dispatch < 0 ? 9 : dispatch) + (report.onDeadlock === "break" ? 5 : 0);
}

/** What `tsx lab/run.ts contract` writes to run-output/contract.json. */
interface ContractOutput {
  command: "contract";
  cases: CaseReport[];
}

/** Runs `tsx lab/run.ts <run>` as a child process, within a bound, output to a temporary directory. */
export function cliRunner(boundMs = RUN_BOUND_MS): Runner {
  return (run) => {
    const out = mkdtempSync(join(tmpdir(), "lab-notebook-"));
    const argv = ["--import", "tsx", join(ROOT, "lab", "run.ts"), ...run.split(/\s+/), "--out", out];
    return new Promise<RunOutput>((done) => {
      execFile(
        process.execPath,
        argv,
        { cwd: ROOT, encoding: "utf8", timeout: boundMs, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: "1" } },
        (error, stdout, stderr) => {
          const hide = (s: string) => s.split(`${out}/`).join("run-output/").split(out).join("run-output");
          let reports: CaseReport[] = [];
          let contract = false;
          try {
            reports = readdirSync(out)
              .filter((f) => f.endsWith(".json"))
              .sort()
              .flatMap((f) => {
                const data = JSON.parse(readFileSync(join(out, f), "utf8")) as CaseReport | ContractOutput;
                // The contract command writes one file whose `cases` are ordinary case reports.
                if ("command" in data && data.command === "contract") {
                  contract = true;
                  return data.cases;
                }
                return [data as CaseReport];
              })
              // Stable: contract cases keep the order the command ran them in.
              .sort((a, b) => reportOrder(a) - reportOrder(b));
          } finally {
            rmSync(out, { recursive: true, force: true });
          }
          const e = error as (Error & { code?: unknown; signal?: string | null }) | null;
          done({
            run,
            code: e ? (typeof e.code === "number" ? e.code : null) : 0,
            signal: e?.signal ?? null,
            stdout: hide(stdout),
            stderr: hide(stderr),
            reports,
            ...(contract ? { contract } : {}),
          });
        },
      );
    });
  };
}

// ---------------------------------------------------------------------------------------------
// Rendering one block's contents from one run.

function fenced(info: string, lines: string[]): string[] {
  const longest = Math.max(2, ...lines.map((l) => Math.max(0, ...(l.match(/`+/g) ?? []).map((r) => r.length))));
  const fence = "`".repeat(longest + 1);
  return [`${fence}${info}`, ...lines, fence];
}

const trimLines = (text: string) => text.replace(/\s+$/, "").split("\n");

const runsOf = (output: RunOutput) => output.reports.flatMap((report) => report.runs.map((run) => ({ report, run })));

const runName = (report: CaseReport, run: RunRecord) =>
  `${report.scenario} · ${report.dispatch}${report.onDeadlock === "break" ? " · break" : ""} · ${run.transport} #${run.repeat}`;

const cell = (value: unknown) => String(value).replace(/\|/g, "\\|");

function resultsTable(output: RunOutput): string[] {
  const show = (v: unknown) => (v === undefined ? "-" : cell(JSON.stringify(v)));
  // Results with fields beyond status, computed and value (fan-out, liveness) get one more column.
  const extra = runsOf(output).some(({ run }) =>
    run.events.some((e) => e.kind === "tool.result" && Object.keys((e.detail?.result ?? {}) as object).some((k) => !["status", "computed", "value"].includes(k))),
  );
  const rows = extra
    ? ["| run | call | status | computed | value | also |", "|---|---|---|---|---|---|"]
    : ["| run | call | status | computed | value |", "|---|---|---|---|---|"];
  for (const { report, run } of runsOf(output)) {
    for (const e of run.events) {
      if (e.kind !== "tool.result" || !e.detail) continue;
      const call = cell(e.detail.call);
      if ("error" in e.detail) {
        const error = e.detail.error as { code?: unknown; message?: unknown } | null;
        rows.push(`| ${runName(report, run)} | ${call} | error ${cell(error?.code)} | | ${cell(error?.message)} |${extra ? " |" : ""}`);
        continue;
      }
      const { status, computed, value, ...rest } = (e.detail.result ?? {}) as Record<string, unknown>;
      const more = Object.keys(rest).length ? ` ${cell(Object.entries(rest).map(([k, v]) => `${k} ${JSON.stringify(v)}`).join(", "))} |` : extra ? " |" : "";
      rows.push(`| ${runName(report, run)} | ${call} | ${cell(status)} | ${show(computed)} | ${show(value)} |${more}`);
    }
  }
  return rows;
}

const code = (text: string) => `\`${cell(text)}\``;
const ms1 = (value: number) => `${value.toFixed(1)} ms`;

/** The contract table: what the callback said, what the client put on the wire, what came back. */
function contractTable(output: RunOutput): string[] {
  const runs = runsOf(output);
  const several = new Set(runs.map(({ run }) => `${run.transport} #${run.repeat}`)).size > 1;
  const rows = [
    `| case |${several ? " run |" : ""} callback answered | the client's reply on the wire | status | computed | value | refused by |`,
    `|---|${several ? "---|" : ""}---|---|---|---|---|---|`,
  ];
  for (const { report, run } of runs) {
    const row = contractRow(report.scenario, run);
    const result = resultsOf(run.events)[report.scenario] as { code?: unknown } | undefined;
    const replies = elicitationReplies(run.wire) as ({ result?: unknown; error?: { code?: unknown } } | null)[];
    const reply = replies.length
      ? replies.map((r) => (r === null ? "no reply" : r.error !== undefined ? `error ${String(r.error.code)}` : code(JSON.stringify(r.result)))).join("; ")
      : "no request was sent";
    const status = result?.code !== undefined ? `${row.status} (${String(result.code)})` : row.status;
    rows.push(
      `| ${report.scenario} |${several ? ` ${run.transport} #${run.repeat} |` : ""} ${row.action === "-" ? "(never called)" : row.action} | ${reply} | ${cell(status)} | ${cell(JSON.stringify(row.computed) ?? "-")} | ${cell(JSON.stringify(row.value) ?? "-")} | ${cell(row.layer)} |`,
    );
  }
  return rows;
}

/** Every request that held the receiving loop while this frame sat in its queue, in order. */
function holders(run: RunRecord, frame: number): { id: unknown; method: unknown }[] {
  const arrived = run.events.find((e) => e.kind === "frame.arrived" && e.frame === frame);
  if (!arrived) return [];
  const dispatched = run.events.find((e) => e.kind === "frame.dispatched" && e.frame === frame);
  const end = dispatched?.seq ?? Number.MAX_SAFE_INTEGER;
  const out: { id: unknown; method: unknown }[] = [];
  if (arrived.detail?.heldBehind !== undefined) out.push({ id: arrived.detail.heldBehind, method: arrived.detail.heldBehindMethod });
  for (const e of run.events) {
    if (e.kind === "loop.held" && e.side === arrived.side && e.seq > arrived.seq && e.seq < end) out.push({ id: e.id, method: e.method });
  }
  return out;
}

/** Every frame that waited behind a request holding a loop, and whether the lab saw a cycle. */
function heldTable(output: RunOutput): string[] {
  const rows = ["| run | frame | held in | behind | waited in the queue | deadlock event |", "|---|---|---|---|---|---|"];
  for (const { report, run } of runsOf(output)) {
    const held = frameViews(run.events, run.wire).filter((f) => f.held);
    if (held.length === 0) rows.push(`| ${runName(report, run)} | nothing was held | | | | |`);
    for (const f of held) {
      const dispatched = run.events.find((e) => e.kind === "frame.dispatched" && e.frame === f.index);
      const waited = dispatched ? ms1(Number(dispatched.detail?.waitedMs ?? 0)) : "never dispatched";
      const cycle = run.events.find((e) => {
        if (e.kind !== "deadlock" || e.side !== f.to) return false;
        const waiting = e.detail?.waiting as { id?: unknown } | undefined;
        return (f.label.frameType === "result" || f.label.frameType === "error") && waiting?.id === f.label.id;
      });
      const holder = cycle?.detail?.holder as { id?: unknown; method?: unknown } | undefined;
      const said = cycle ? `yes: ${String(holder?.method)} #${String(holder?.id)} waits for this reply` : "none";
      const behind = holders(run, f.index)
        .map((h, i, all) => (i > 0 && h.method === all[i - 1]!.method ? `#${String(h.id)}` : `${String(h.method)} #${String(h.id)}`))
        .join(", ");
      rows.push(`| ${runName(report, run)} | ${cell(f.text)} | ${f.to} | ${cell(behind)} | ${waited} | ${cell(said)} |`);
    }
  }
  return rows;
}

/** Peaks exactly; every timed span in ms and in units of the run's own median callback time. */
function timingTable(output: RunOutput): string[] {
  const rows = [
    "| run | callbacks at once (peak) | one callback (median) | timed span | span | in callback times | expected |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const report of output.reports) {
    const expectation = loadExpectation(report.scenario, report.dispatch, report.onDeadlock);
    for (const run of report.runs) {
      const peak = peakCallbacks(run.events);
      const peakText = expectation.peakCallbacks === undefined ? String(peak) : `${peak} (expected ${expectation.peakCallbacks})`;
      const first = callbackTime(run.events);
      const rules = expectation.timing ?? [];
      if (rules.length === 0) rows.push(`| ${runName(report, run)} | ${peakText} | ${first === undefined ? "-" : ms1(first)} | - | | | |`);
      for (const rule of rules) {
        const unit = callbackTime(run.events, rule.unitCall);
        const from = selectEvent(run.events, rule.from);
        const to = selectEvent(run.events, rule.to);
        const span = from && to ? to.t - from.t : undefined;
        const bounds = [
          rule.atLeastCallbacks !== undefined && `at least ${rule.atLeastCallbacks} x`,
          rule.atMostCallbacks !== undefined && `at most ${rule.atMostCallbacks} x`,
          rule.atMostMs !== undefined && `at most ${rule.atMostMs} ms`,
        ].filter(Boolean);
        rows.push(
          `| ${runName(report, run)} | ${peakText} | ${unit === undefined ? "-" : ms1(unit)} | ${cell(rule.why)} | ${span === undefined ? "not found" : ms1(span)} | ${span !== undefined && unit && (rule.atLeastCallbacks !== undefined || rule.atMostCallbacks !== undefined) ? `${(span / unit).toFixed(2)} x` : "-"} | ${bounds.join(", ")} |`,
        );
      }
    }
  }
  return rows;
}

function parityPair(report: CaseReport, repeat: number) {
  const memory = report.runs.find((r) => r.transport === "memory" && r.repeat === repeat);
  const stdio = report.runs.find((r) => r.transport === "stdio" && r.repeat === repeat);
  return { memory, stdio };
}

/**
 * The parity verdicts, with the allowances the expectation NAMES (not the ones a run happened to
 * need: whether concurrent arrivals interleave depends on how the pipe chunks them).
 */
function parityText(output: RunOutput): string[] {
  const out: string[] = [];
  const verdict = (side: string, r: ParityResult | null, against: string) => {
    if (r === null) return [`  FAIL ${side} side: the child wrote no record of its own events`];
    const lines = [`  ${r.ok ? "PASS" : "FAIL"} ${side} side ${r.ok ? "agrees" : "differs"}: ${r.memoryCount} ${side} events in memory, ${r.stdioCount} ${against}`];
    const diff = r.firstDifference;
    if (diff) lines.push(`      first difference in ${diff.sequence} at ${diff.index}/${diff.stdioIndex}: memory ${JSON.stringify(diff.memory)} vs stdio ${JSON.stringify(diff.stdio)}`);
    return lines;
  };
  for (const report of output.reports) {
    const allows = loadExpectation(report.scenario, report.dispatch, report.onDeadlock).parityAllows ?? [];
    const file = relative(ROOT, report.expectedFile);
    for (const p of report.parity) {
      if (out.length) out.push("");
      out.push(
        `== ${report.scenario} · ${report.dispatch}${report.onDeadlock === "break" ? " · break" : ""} · repeat ${p.repeat}: memory vs stdio ==`,
        ...verdict("client", p.result, "in the parent's stdio timeline"),
        ...verdict("server", p.server ?? null, "in the child's own record"),
      );
      if (allows.length === 0) out.push(`  client side, allowed differences named in ${file}: none, the two must agree exactly`);
      else out.push(`  client side, allowed differences named in ${file}:`);
      for (const a of allows) {
        out.push(`    ${a.rule}: ${a.why}`);
        for (const rule of PARITY_RULES[a.rule]) out.push(`      ${rule.kind}: ${rule.reason}`);
      }
      const floating = SERVER_SIDE_ALLOWANCES.filter((rule) => rule.floating).map((rule) => rule.kind);
      out.push(`  server side, always allowed: ${floating.join(" and ")} float; their order among themselves must match`);
    }
  }
  return fenced("text", out);
}

function parityEventText(e: ParityEvent | undefined): string {
  if (!e) return "(nothing)";
  const frame = e.method !== undefined || e.id !== undefined ? ` ${rpc(e)}` : "";
  return `${e.kind}${frame}${e.detail ? ` ${JSON.stringify(e.detail)}` : ""}`;
}

/** The client events parity compares, as it compares them: timing and server events dropped. */
function comparedTable(output: RunOutput): string[] {
  const out: string[] = [];
  const pairs = output.reports.flatMap((report) => report.parity.map((p) => ({ report, ...parityPair(report, p.repeat), repeat: p.repeat })));
  for (const { report, memory, stdio, repeat } of pairs) {
    const a = parityEvents(memory?.events ?? []);
    const b = parityEvents(stdio?.events ?? []);
    if (pairs.length > 1) out.push(...(out.length ? [""] : []), `**${report.scenario} · ${report.dispatch} · repeat ${repeat}**`, "");
    out.push("| # | memory | stdio |", "|---|---|---|");
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const same = JSON.stringify(a[i]) === JSON.stringify(b[i]);
      out.push(`| ${i + 1} | ${code(parityEventText(a[i]))} | ${same ? "same" : `**differs:** ${code(parityEventText(b[i]))}`} |`);
    }
  }
  return out;
}

/** Each stdio child's life as the parent saw it. */
function childTable(output: RunOutput): string[] {
  const rows = [
    "| run | stdout lines | lines that were not one JSON-RPC message | stderr | stdin closed → exit | exit code | signal | killed after the grace | lifecycle problems |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const { report, run } of runsOf(output)) {
    const e = run.transportEvidence as Partial<ChildEvidence>;
    if (e.kind !== "stdio-child") continue;
    const lines = run.wire.filter((f) => f.from === "server").length + (e.stdoutErrors?.length ?? 0);
    const stderr = e.stderr ? `${e.stderr.trimEnd().split("\n").length} line(s): ${code(e.stderr.trimEnd().split("\n")[0]!.slice(0, 80))}` : "empty";
    const problems = lifecycleProblems(run.transportEvidence).map((p) => p.replace(/^child \d+ /, "child "));
    rows.push(
      `| ${runName(report, run)} | ${lines} | ${e.stdoutErrors?.length ?? 0} | ${stderr} | ${e.closeToExitMs === undefined ? "-" : ms1(e.closeToExitMs)} | ${String(e.exitCode)} | ${e.signal ?? "none"} | ${e.forcedKill ? "yes" : "no"} | ${problems.length ? cell(problems.join("; ")) : "none"} |`,
    );
  }
  return rows;
}

/** Why a show cannot be made from this run, or undefined when it can. */
function unsuitable(show: Show, output: RunOutput): string | undefined {
  if (show === "command") return undefined;
  if (output.reports.length === 0) return `show="${show}" needs a scenario run, and run="${output.run}" wrote no case report`;
  if (show === "contract" && !output.contract) return `show="contract" needs a contract run (run="contract ...")`;
  if ((show === "timing" || show === "parity") && output.contract) return `show="${show}" needs a scenario run, not a contract run`;
  if ((show === "parity" || show === "compared") && !output.reports.some((r) => r.parity.length > 0)) {
    return `show="${show}" needs runs over both transports (--transport both)`;
  }
  if (show === "child" && !runsOf(output).some(({ run }) => run.transportEvidence.kind === "stdio-child")) {
    return `show="child" needs a run over stdio (--transport stdio|both)`;
  }
  return undefined;
}

export function renderBlock(show: Show, output: RunOutput): string[] {
  const runs = runsOf(output);
  switch (show) {
    case "command": {
      const lines = [`$ npx tsx lab/run.ts ${output.run}`, ...trimLines(output.stdout)];
      if (output.code !== 0) lines.push(...(output.stderr.trim() ? trimLines(output.stderr) : []), `(exit ${String(output.code)})`);
      return fenced("console", lines);
    }
    case "swimlane":
      return fenced(
        "text",
        runs.flatMap(({ report, run }, i) => [...(i ? [""] : []), runHeader(report, run), ...renderSwimlane(run.events, { color: false }).split("\n")]),
      );
    case "verdicts":
      return fenced(
        "text",
        runs.flatMap(({ report, run }, i) => [...(i ? [""] : []), runHeader(report, run), ...renderVerdicts(run, false).split("\n")]),
      );
    case "mermaid":
      return runs.flatMap(({ report, run }, i) => [
        ...(runs.length > 1 ? [...(i ? [""] : []), `**${runName(report, run)}**`, ""] : []),
        ...fenced("mermaid", renderMermaid(run).split("\n")),
      ]);
    case "results":
      return resultsTable(output);
    case "contract":
      return contractTable(output);
    case "held":
      return heldTable(output);
    case "timing":
      return timingTable(output);
    case "parity":
      return parityText(output);
    case "compared":
      return comparedTable(output);
    case "child":
      return childTable(output);
  }
}

// ---------------------------------------------------------------------------------------------
// Comparing: what may differ between two honest runs is erased before comparing.

/**
 * Times and pids differ from run to run, and with them the padding around them. Erased: every
 * decimal number (every time the lab prints has a decimal point), whole numbers followed by
 * "ms", pids. Two texts whose very presence depends on timing go too: " after N ms in queue"
 * (the swimlane prints it only when a wait reaches 1 ms, so a loaded machine adds it) and
 * Mermaid's "... N ms pass ..." notes (drawn only for gaps over 40 ms). Then runs of spaces
 * collapse to one, a swimlane line's two empty trailing lanes go, and trailing blank lines go.
 */
export function normalise(lines: readonly string[]): string[] {
  return numbered(lines).map(([, text]) => text);
}

/** normalise(), keeping each kept line's index in the input. */
function numbered(lines: readonly string[]): [number, string][] {
  const out = lines
    .map((line, i): [number, string] => [
      i,
      line
        .replace(/\bpid\b(["']?\s*[:=]?\s*)\d+/gi, "pid$1<pid>")
        .replace(/\d+\.\d+/g, "<n>")
        .replace(/\b\d+(?=\s*ms\b)/g, "<n>")
        .replace(/ after <n> ms in queue/g, "")
        .replace(/\s+/g, " ")
        .trim()
        // A client-lane line ends in two empty lanes, unless its text was long enough to run
        // across them (as " after N ms in queue" makes it): the same line either way.
        .replace(/ │ │$/, ""),
    ])
    .filter(([, line]) => !/^Note over C,S: \.\.\. <n> ms pass \.\.\.$/.test(line));
  while (out.length && out[out.length - 1]![1] === "") out.pop();
  return out;
}

export interface Mismatch {
  file: string;
  block: Block;
  /** 1-based line in the file of the first line that differs */
  line: number;
  notebook: string | undefined;
  fresh: string | undefined;
}

/** The first difference after normalising: the stored line's index in the block, and both texts. */
function firstDifference(stored: string[], fresh: string[]): { index: number; notebook?: string; fresh?: string } | undefined {
  const a = numbered(stored);
  const b = numbered(fresh);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i]?.[1] === b[i]?.[1]) continue;
    return { index: a[i]?.[0] ?? stored.length, ...(a[i] && { notebook: a[i]![1] }), ...(b[i] && { fresh: b[i]![1] }) };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------

export interface NotebookOptions {
  dir?: string;
  /** notebook file names (in dir) or paths; default: every .md file in dir */
  files?: string[];
  check: boolean;
  runner?: Runner;
  log?: (line: string) => void;
}

export interface NotebookResult {
  code: 0 | 1;
  mismatches: Mismatch[];
  updated: number;
  unchanged: number;
  failedRuns: string[];
}

const describeBlock = (b: Block) =>
  `output block run="${b.run}" show="${b.show}"${b.only ? ` only="${b.only.join(",")}"` : ""} (lines ${b.open}-${b.close})`;

export function describeMismatch(m: Mismatch): string {
  return [
    `${m.file}:${m.line}: ${describeBlock(m.block)} differs from a fresh run`,
    `    notebook: ${m.notebook ?? "(nothing)"}`,
    `    fresh:    ${m.fresh ?? "(nothing)"}`,
  ].join("\n");
}

/** Re-runs every block of every notebook; rewrites the blocks that differ, or (check) reports them. */
export async function runNotebooks(options: NotebookOptions): Promise<NotebookResult> {
  const dir = resolve(options.dir ?? NOTEBOOKS_DIR);
  if (!existsSync(dir)) throw new NotebookError(dir, 0, "no such notebooks directory");
  const log = options.log ?? ((line: string) => console.log(line));
  const runner = options.runner ?? cliRunner();
  const paths = (options.files?.length ? options.files : readdirSync(dir).filter((f) => f.endsWith(".md")).sort()).map((f) =>
    f.includes("/") ? resolve(f) : join(dir, f),
  );
  // Parse everything first: a malformed notebook stops the engine before any run.
  const notebooks = paths.map((path) => {
    const near = relative(process.cwd(), path);
    const file = near && !near.startsWith("..") ? near : path;
    return { path, file, ...parseNotebook(file, readFileSync(path, "utf8")) };
  });

  const cache = new Map<string, Promise<RunOutput>>();
  const result: NotebookResult = { code: 0, mismatches: [], updated: 0, unchanged: 0, failedRuns: [] };
  for (const nb of notebooks) {
    const lines = [...nb.lines];
    let shift = 0; // lines added or removed by rewrites above the current block
    let changed = 0;
    for (const block of nb.blocks) {
      let pending = cache.get(block.run);
      if (!pending) {
        pending = runner(block.run);
        cache.set(block.run, pending);
      }
      const output = await pending;
      if (output.code === 2) {
        throw new NotebookError(nb.file, block.open, `run="${block.run}" is not a valid lab command: ${output.stderr.trim().split("\n")[0] ?? ""}`);
      }
      if (output.code !== 0 && output.code !== 1) {
        throw new Error(`${nb.file}:${block.open}: run="${block.run}" did not finish (exit ${String(output.code)}, signal ${String(output.signal)}): ${output.stderr.trim().slice(0, 500)}`);
      }
      if (output.code === 1 && !result.failedRuns.includes(block.run)) result.failedRuns.push(block.run);
      const missing = block.only?.filter((name) => !output.reports.some((r) => r.scenario === name)) ?? [];
      if (missing.length) {
        throw new NotebookError(nb.file, block.open, `only="${block.only!.join(",")}": run="${block.run}" has no ${missing.join(", ")} (it ran ${output.reports.map((r) => r.scenario).join(", ") || "nothing"})`);
      }
      const shown = block.only ? { ...output, reports: output.reports.filter((r) => block.only!.includes(r.scenario)) } : output;
      const why = unsuitable(block.show, shown);
      if (why) throw new NotebookError(nb.file, block.open, why);
      const fresh = renderBlock(block.show, shown);
      const at = firstDifference(block.body, fresh);
      if (at === undefined) {
        result.unchanged++;
        continue;
      }
      if (options.check) {
        result.mismatches.push({ file: nb.file, block, line: block.open + 1 + at.index, notebook: at.notebook, fresh: at.fresh });
        continue;
      }
      lines.splice(block.open + shift, block.body.length, ...fresh);
      shift += fresh.length - block.body.length;
      changed++;
    }
    if (changed) writeAtomic(nb.path, lines.join("\n"));
    result.updated += changed;
    if (!options.check) log(`${nb.file}: ${nb.blocks.length} output blocks, ${changed} rewritten`);
  }
  for (const m of result.mismatches) log(describeMismatch(m));
  for (const run of result.failedRuns) log(`warning: run="${run}" failed an expectation (the CLI exited 1)`);
  if (options.check) {
    log(
      result.mismatches.length
        ? `${result.mismatches.length} output block(s) differ from a fresh run: run \`npx tsx lab/run.ts notebooks\` to rewrite them`
        : `${notebooks.length} notebook(s), ${result.unchanged} output blocks: all match a fresh run`,
    );
  }
  result.code = result.mismatches.length || result.failedRuns.length ? 1 : 0;
  return result;
}

export const NOTEBOOKS_USAGE = `usage: tsx lab/run.ts notebooks [--check] [--dir DIR] [NOTEBOOK.md ...]

Re-runs what each notebook's output blocks show and rewrites only those blocks.
  --check     rewrite nothing; exit 1 if any block differs from a fresh run (times and pids ignored)
  --dir DIR   where the notebooks are (default notebooks/)

Blocks: <!-- lab:output run="<args of tsx lab/run.ts>" show="${Object.keys(SHOWS).join("|")}" [only="<name>,..."] --> ... <!-- /lab:output -->`;

export async function main(argv: string[]): Promise<number> {
  const options: NotebookOptions = { check: false, files: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--check") options.check = true;
    else if (arg === "--dir" && argv[i + 1] !== undefined) options.dir = argv[++i];
    else if (arg === "--help" || arg === "-h") {
      console.log(NOTEBOOKS_USAGE);
      return 0;
    } else if (arg.startsWith("-")) {
      console.error(`error: unknown option ${arg}\n\n${NOTEBOOKS_USAGE}`);
      return 2;
    } else options.files!.push(arg);
  }
  try {
    return (await runNotebooks(options)).code;
  } catch (error) {
    if (error instanceof NotebookError) {
      console.error(`error: ${error.message}`);
      return 2;
    }
    // A run that crashed or outlived its bound: the notebook is fine, the run is not.
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
