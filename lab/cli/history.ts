// tsx lab/run.ts history --client SDK [--versions A..B] [--transport stdio] [--out DIR] [--expected DIR]
// Every release of an SDK's client the registry serves (issue 46; the SDKs, which releases and how: their HistorySource, lab/peers/
// history-sources.ts): each installed once (build/history/), each run
// against the ts1 server (nested in an elicitation, a sampling and a roots callback; a ping during a form), the ranges in which each
// outcome holds printed and compared with expected/history/<sdk>.json (a difference fails, naming the release);
// writes history.json, history.md and history.svg. Bad input, no index: one line, exit 2.
import { join } from "node:path";
import { compactWord } from "../check/card-words.js";
import { nestedCells, peakCell, pingCell } from "../check/card.js";
import { requestCells, REQUEST_ROW_SCENARIO } from "../check/card-requests.js";
import { driverFault } from "../check/driver-fault.js";
import { serverSlow } from "../check/server-slow.js";
import { cancelZeroOutcome, historyDifferences, HISTORY_EXPECTED_DIR, PEAK_WORDS, PING_WORD, probeVerdict, loadExpectedHistory, rangesOf, rangesText } from "../check/history.js";
import { atLeast, compareReleases, INCONCLUSIVE, NOT_RUN, type HistoryCell, type HistoryData, type HistoryRow, type HistorySource } from "../plan/history.js";
import type { SessionEvidence } from "../plan/session.js";
import type { Scenario } from "../plan/scenario.js";
import { FAN_OUT_DEFAULT } from "../plan/tool-suite.js";
import { HISTORY_SOURCES } from "../peers/history-sources.js";
import { PY_HISTORY } from "../peers/python/history.js";
import { TS1_SERVER } from "../peers/ts1/index.js";
import { RUN_OUTPUT_DIR } from "../paths.js";
import { renderHistoryMarkdown, renderHistorySvg } from "../render/history.js";
import { runAgain, runConclusive } from "../session/attempts.js";
import { negotiatedProtocol } from "../session/pipeline.js";
import { runSession } from "../session/session.js";
import { slots } from "../session/slots.js";
import { TRANSPORTS } from "../transports/index.js";
import { findScenario } from "../../scenarios/index.js";
import { samplingAnswer } from "../../scenarios/sampling-nested.js";
import { PROBE_SCENARIO } from "../../scenarios/probe.js";
import { answerCell, unsentNested } from "../check/answer-cell.js";
import { read, UsageError, type Parsed } from "./args.js";
import { SESSIONS_AT_ONCE } from "./card.js";
import { writeAtomic, writeJsonAtomic } from "./output.js";
import { openInvocation, writeStoreIndex } from "./store.js";

/** The clients with a history. */
export const HISTORY_CLIENTS = HISTORY_SOURCES.map((s) => s.sdk);
const INSTALLS_AT_ONCE = 4;

/** Each behaviour a source may run: its scenario and the card row read (the source says from which release). */
export const BEHAVIOURS = [
  { id: "nested", scenario: "nested", title: "nested tools/list in an elicitation callback" },
  { id: "samplingNested", scenario: REQUEST_ROW_SCENARIO.samplingNested, title: "nested tools/list in a sampling callback" },
  { id: "rootsNested", scenario: REQUEST_ROW_SCENARIO.rootsNested, title: "nested tools/list in a roots callback" },
  { id: "ping", scenario: "liveness", title: "the server's ping while an elicitation callback runs" },
  { id: "fanOut", scenario: "fan-out", title: `form callbacks at once for ${FAN_OUT_DEFAULT} concurrent requests` },
  { id: "probe", scenario: PROBE_SCENARIO.name, title: "the probe's verdict (probe_receive_loop, what serve --once says)" },
  { id: "samplingAnswer", scenario: samplingAnswer.name, title: "a sampling answer sent while the tool call is open (no nesting)" },
  { id: "cancel0", scenario: "server-withdraws", title: "the server's cancel of its request id 0 aborts the form callback" },
] as const;
type Behaviour = (typeof BEHAVIOURS)[number];
/** history's scenarios that are not the CLI's */
const OWN_SCENARIOS: Record<string, Scenario> = { [samplingAnswer.name]: samplingAnswer, [PROBE_SCENARIO.name]: PROBE_SCENARIO };

/** --versions A..B (either end may be left open): the releases within, in order; none is a usage error. */
export function pickReleases(all: readonly string[], range: string | undefined, pkg = "mcp"): string[] {
  if (range === undefined) return [...all];
  const m = /^([0-9][0-9.]*)?\.\.([0-9][0-9.]*)?$/.exec(range);
  if (!m) throw new UsageError(`history: --versions takes A..B (releases, either end may be left out), not '${range}'`);
  const picked = all.filter((v) => (m[1] === undefined || atLeast(v, m[1])) && (m[2] === undefined || compareReleases(v, m[2]) <= 0));
  if (picked.length === 0) throw new UsageError(`history: --versions ${range} matches no release of ${pkg} (the registry serves ${all[0]} to ${all.at(-1)})`);
  return picked;
}

/** A cell's detail when its session failed (an error, a driver that exited): the run said nothing of the behaviour. */
const SESSION_FAILED = "the session failed";

/** A run's cell: the card row's value as one compact word; a failed session is "not run" with its error. */
export function cellOf(run: SessionEvidence, behaviour: Behaviour, release: string, sdk: string): HistoryCell {
  const fault = [...run.errors, ...[driverFault(run)].filter((f) => f !== undefined)];
  if (fault.length > 0) return { release, outcome: NOT_RUN, detail: `${SESSION_FAILED}: ${String(fault[0]).slice(0, 160)}` };
  // still slow on its last attempt (a busy machine): the cell claims nothing, and differs from its expectation
  const slow = serverSlow(run);
  if (slow) return { release, outcome: INCONCLUSIVE, detail: `slow in each of ${1 + (run.earlierAttempts?.length ?? 0)} attempts: ${slow.why}` };
  const at = { events: run.events, wire: run.wire, negotiatedProtocol: negotiatedProtocol(run) };
  if (behaviour.id === "cancel0") {
    const zero = cancelZeroOutcome(run);
    return "problem" in zero ? { release, outcome: NOT_RUN, detail: zero.problem } : { release, ...zero };
  }
  if (behaviour.id === "samplingAnswer") return { release, ...answerCell(run, "sampling/createMessage") };
  if (behaviour.id === "probe") {
    const probe = probeVerdict(run.wire);
    // the probe could not run (a client that declared no form): the row's "not run", with the probe's reason
    if ("problem" in probe || probe.outcome === "not_run") return { release, outcome: NOT_RUN, detail: "problem" in probe ? probe.problem : probe.detail };
    return { release, ...probe };
  }
  if (behaviour.id === "fanOut") {
    const peak = peakCell(at);
    return { release, outcome: PEAK_WORDS.includes(String(peak.value)) ? String(peak.value) : NOT_RUN, detail: peak.text };
  }
  const unsent = behaviour.id === "ping" ? undefined : unsentNested(run);
  if (unsent) return { release, ...unsent };
  if (behaviour.id === "ping") {
    const ping = pingCell(at);
    return { release, outcome: PING_WORD[String(ping.value)] ?? NOT_RUN, detail: ping.text };
  }
  const value = behaviour.id === "nested" ? nestedCells(at).nested : requestCells({ [behaviour.scenario]: at })[behaviour.id];
  if (!value) return { release, outcome: NOT_RUN, detail: "no card value" };
  try {
    return { release, outcome: compactWord(value.value, `history ${sdk} ${release} ${behaviour.id}`), detail: value.text };
  } catch (error) {
    return { release, outcome: NOT_RUN, detail: (error as Error).message };
  }
}

export interface HistoryOptions {
  releases: string[];
  listed: string;
  outDir: string;
  expectedDir: string;
  /** the SDK; absent: the Python SDK's */
  source?: HistorySource;
  /** the transports run; absent: every one the source serves */
  transports?: readonly string[];
}

/** Installs each release (a few at once), runs every behaviour it has, and compares with the expectation. */
export async function runHistory(options: HistoryOptions, progress: (line: string) => void = () => undefined): Promise<HistoryData> {
  const source = options.source ?? PY_HISTORY;
  const transports = options.transports ?? source.transports;
  const behaviours = BEHAVIOURS.filter((b) => b.id in source.behaviours);
  const install = slots(source.installsAtOnce ?? INSTALLS_AT_ONCE);
  const session = slots(SESSIONS_AT_ONCE);
  const late: { row: HistoryRow; run: SessionEvidence; why: string; attempt: () => Promise<SessionEvidence>; file: string; behaviour: Behaviour; release: string }[] = [];
  const rows: HistoryRow[] = behaviours.flatMap((b) => transports.map((t) => ({ id: `${b.id}.${t}`, title: `${b.title} (${t})`, cells: [] as HistoryCell[] })));
  await Promise.all(
    options.releases.map(async (release) => {
      const why = await install(() => source.install(release));
      progress(`${source.package} ${release}: ${why ?? "ready"}`);
      await Promise.all(
        behaviours.flatMap((b) =>
          transports.map(async (t) => {
            const row = rows.find((r) => r.id === `${b.id}.${t}`)!;
            const since = source.behaviours[b.id]!;
            if (why) return row.cells.push({ release, outcome: NOT_RUN, detail: why });
            if (since.from !== undefined && !atLeast(release, since.from)) return row.cells.push({ release, outcome: "n/a", detail: since.why ?? `not before ${since.from}` });
            const over = source.transportsFrom?.[t];
            if (over && !atLeast(release, over.from)) return row.cells.push({ release, outcome: "n/a", detail: over.why });
            const attempt = () => runSession(OWN_SCENARIOS[b.scenario] ?? findScenario(b.scenario)!, TRANSPORTS[t]!.open, t, { loop: "sdk", client: source.client(release), server: TS1_SERVER });
            const run = await session(() => runConclusive(attempt));
            writeJsonAtomic(join(options.outDir, "history", `${source.sdk}-${release}.${b.id}.${t}.json`), run);
            const cell = cellOf(run, b, release, source.sdk);
            if (cell.outcome === INCONCLUSIVE || (cell.outcome === NOT_RUN && cell.detail.startsWith(SESSION_FAILED))) return late.push({ row, run, why: cell.detail, attempt, file: `${source.sdk}-${release}.${b.id}.${t}.json`, behaviour: b, release });
            return row.cells.push(cell);
          }),
        ),
      );
    }),
  );
  // A session slow in each attempt, or one that failed, ran while installs and every release's
  // sessions shared the machine (seen in CI runs: mcp 1.10.0's cancel0 over HTTP, the server's 250 ms
  // withdrawal 2 s late three times in a row; 1.9.0's HTTP client timing out on the server's reply);
  // it gets its attempts again once that start is over, one at a time, every earlier attempt kept in
  // its evidence. Still slow or failing then, it stays inconclusive or not run.
  for (const l of late) {
    const run = await runAgain(l.run, l.attempt, l.why);
    writeJsonAtomic(join(options.outDir, "history", l.file), run);
    l.row.cells.push(cellOf(run, l.behaviour, l.release, source.sdk));
  }
  for (const row of rows) row.cells.sort((a, b) => compareReleases(a.release, b.release));
  const expected = loadExpectedHistory(source.sdk, options.expectedDir);
  const differences = expected ? historyDifferences(rows, expected) : rows.map((r) => ({ behaviour: r.id, release: options.releases[0]!, expected: `a hand-written expected/history/${source.sdk}.json`, actual: "none" }));
  return { sdk: source.sdk, title: source.title, which: source.which, listed: options.listed, releases: options.releases, install: source.installNote, rows, ranges: Object.fromEntries(rows.map((r) => [r.id, rangesOf(r)])), differences };
}

export async function main(args: Parsed): Promise<number> {
  const clients = read.list(args, "client") ?? [];
  const bad = clients.find((c) => !HISTORY_CLIENTS.includes(c));
  if (clients.length !== 1 || bad !== undefined) throw new UsageError(`history: ${bad === undefined ? "name one client" : `client '${bad}' has no history`} (histories: ${HISTORY_CLIENTS.join(", ")})`);
  const source = HISTORY_SOURCES.find((s) => s.sdk === clients[0])!;
  const transports = read.list(args, "transport") ?? source.transports;
  const badTransport = transports.find((t) => !source.transports.includes(t));
  if (badTransport) throw new UsageError(`history: no ${badTransport} history: ${source.noTransport}`);
  const list = source.releases();
  if ("problem" in list) throw new UsageError(`history: ${list.problem}`);
  const releases = pickReleases(list.versions, read.text(args, "versions"), source.package);
  const expectedRoot = read.text(args, "expected");
  const inv = openInvocation(read.text(args, "out") ?? RUN_OUTPUT_DIR, "history");
  const started = performance.now();
  const data = await runHistory({ releases, listed: list.listed, outDir: inv.dir, source, transports, expectedDir: expectedRoot === undefined ? HISTORY_EXPECTED_DIR : join(expectedRoot, "history") }, (line) => console.error(line));
  writeJsonAtomic(join(inv.dir, "history.json"), data);
  writeAtomic(join(inv.dir, "history.md"), renderHistoryMarkdown(data));
  writeAtomic(join(inv.dir, "history.svg"), renderHistorySvg(data));
  writeStoreIndex(inv.root);
  // whether the list came from the cache is the machine's state, not the history's: said beside the progress
  if (list.cached) console.error(`${source.package}: the release list is the cached one, listed ${list.listed}`);
  console.log(`${source.title}: ${releases.length} releases, ${releases[0]} to ${releases.at(-1)} (listed ${list.listed})`);
  for (const row of data.rows) console.log(`${row.title}: ${rangesText(data.ranges[row.id]!)}`);
  for (const d of data.differences) console.log(`  DIFFERS ${d.behaviour} at ${d.release}: expected ${d.expected}, got ${d.actual}`);
  console.log(`history: ${data.differences.length === 0 ? "every release as expected" : `${data.differences.length} cells differ`} in ${Math.round((performance.now() - started) / 1000)} s; written to ${join(inv.dir, "history.md")}, history.svg, history.json`);
  return data.differences.length === 0 ? 0 : 1;
}
