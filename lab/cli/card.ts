// tsx lab/run.ts card [--client ...] [--server ...] [--loop sdk|serial|both] [--out DIR] [--expected DIR] [--junit FILE]
// Every client peer (under each of its loop models) against every server peer, over stdio (the
// real process boundary), once each: nested, fan-out, liveness, call-cancelled,
// server-withdraws, the form contract, sampling-nested, sampling-fan-out and roots-nested. Each cell is derived from a
// real run (lab/check/card.ts) and compared with the hand-written card (expected/card/). Writes
// card.json, card.md and card.svg; exit 0 when every cell is as expected, 1 when one is not.
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { cardDifferences, cardKey, connectDifferences, differenceText, loadExpectedCards, CARD_EXPECTED_DIR, type CardDifference, type ExpectedCard } from "../check/card-expected.js";
import { writeIndexPage } from "./index-page.js";
import { modelDifferences } from "../check/card-model.js";
import { openInvocation, writeStoreIndex } from "./store.js";
import { CARD_ROWS, nestedCells, peakCell, pingCell, protocolCell, type RowId } from "../check/card.js";
import { type CellValue } from "../check/card-cell.js";
import { CANCEL_CARD_SCENARIOS, cancelCells, cancelCellsNotRun, type CancelRunEvidence } from "../check/card-cancel.js";
import { serverRecordOf } from "../plan/evidence.js";
import { negotiatedProtocol } from "../session/pipeline.js";
import { runSession } from "../session/session.js";
import { repeatedSessions, runConclusive } from "../session/attempts.js";
import { renderRepeated } from "../render/repeated.js";
import { type RepeatedSession, type SessionEvidence } from "../plan/session.js";
import { CLIENT_PEERS, SERVER_PEERS, transportProblem, type Column } from "../peers/registry.js";
import { TRANSPORTS } from "../transports/index.js";
import { RUN_OUTPUT_DIR } from "../paths.js";
import { ensureNewReportFile, writeAtomic, writeJsonAtomic } from "./output.js";
import { renderJunit } from "../render/junit.js";
import { renderCardMarkdown, renderCardSvg, renderCardText, type CardData, type CardColumn } from "../render/card.js";
import { read, UsageError, type Parsed } from "./args.js";
import { findScenario } from "../../scenarios/index.js";
import type { Scenario } from "../plan/scenario.js";
import { slots } from "../session/slots.js";
import { FORM_CONTRACT_SCENARIO } from "../../scenarios/contract/card.js";
import { formContractCell } from "../check/card-contract.js";
import { REQUEST_CARD_SCENARIOS, REQUEST_ROW_SCENARIO, requestCells } from "../check/card-requests.js";
import { driverFault } from "../check/driver-fault.js";
import { declaresForm, DECLARES_NO_FORM, formAnsweredCell } from "../check/card-form.js";
import { sdkText } from "../plan/peer.js";

const CARD_SCENARIOS = [...["nested", "fan-out", "liveness", ...CANCEL_CARD_SCENARIOS, ...REQUEST_CARD_SCENARIOS].map((name) => findScenario(name)!), FORM_CONTRACT_SCENARIO];
/** Sessions at once, over all pairings: most of a session is waiting (callbacks that think, limits
 *  that run out), and every card claim is an order or a count, never a time. Measured on 2 cores
 *  (2026-12-06, drivers hosted): 4 at once 111 s, 8 at once 72 s with the lab and every peer using
 *  51 s of CPU (35% of the machine), 12 at once 72 s: four per core, at most 16. */
export const SESSIONS_AT_ONCE = Math.min(16, 4 * availableParallelism());
const session = slots(SESSIONS_AT_ONCE);

export interface CardOptions {
  clients?: string[];
  servers?: string[];
  /** loop models to keep (absent: every loop model of each client) */
  loops?: string[];
  outDir: string;
  expectedDir: string;
  /** --junit FILE: every cell as a JUnit test case */
  junit?: string;
}

export function cardColumns(options: Pick<CardOptions, "clients" | "servers" | "loops">): Column[] {
  const pick = <T extends { name: string }>(all: T[], names: string[] | undefined) =>
    names === undefined ? all : names.map((n) => all.find((p) => p.name === n) ?? (() => { throw new UsageError(`card: unknown peer '${n}'`); })());
  const columns: Column[] = [];
  for (const client of pick(CLIENT_PEERS, options.clients))
    for (const loop of client.loops.filter((l) => options.loops === undefined || options.loops.includes(l)))
      for (const server of pick(SERVER_PEERS, options.servers)) if (transportProblem({ client, loop, server }, "stdio") === undefined) columns.push({ client, loop, server });
  return columns;
}

async function runColumn(column: Column, outDir: string, want: ExpectedCard | undefined, repeated: RepeatedSession[]): Promise<{ runs: Record<string, SessionEvidence>; unavailable?: string }> {
  const why = column.client.unavailable() ?? column.server.unavailable();
  if (why) return { runs: {}, unavailable: why };
  if (column.client.driver.kind === "process") await column.client.driver.prepare?.();
  await column.server.child?.prepare?.();
  const runs: Record<string, SessionEvidence> = {};
  const unclaimed = new Set(Object.entries(REQUEST_ROW_SCENARIO).filter(([row]) => want?.cells[row as RowId] === undefined).map(([, scenario]) => scenario));
  const run = (scenario: Scenario) =>
    session(async () => {
      // repeated while the server was slow: a nested reply or a withdrawal too late (lab/session/attempts.ts)
      const evidence = await runConclusive(() => runSession(scenario, TRANSPORTS.stdio!.open, "stdio", { loop: column.loop, client: column.client, server: column.server }));
      const name = `${cardKey({ client: column.client.name, loop: column.loop, server: column.server.name })}.${scenario.name}`;
      runs[scenario.name] = evidence;
      repeated.push(...repeatedSessions([evidence], () => name));
      // every attempt is in this one file: the last, and the earlier ones set aside
      writeJsonAtomic(join(outDir, "card", `${name}.json`), evidence);
      return evidence;
    });
  const chosen = CARD_SCENARIOS.filter(
    // A scenario whose subject this client's era lacks (the cancellation ones in 2026-07-28) is not
    // run; nor is a sampling or roots row its hand-written card does not claim (the row shows "-").
    (scenario) => !scenario.notForEras?.eras.includes(column.client.era) && !unclaimed.has(scenario.name),
  );
  // nested first: a client that declared no form elicitation there is never asked for one, and its
  // form rows are "-" (lab/check/card-form.ts); a sampling or roots row its card claims still runs (such a
  // client may answer those: semantic-kernel's sampling callback); the rest side by side
  const nested = chosen.find((s) => s.name === "nested");
  const first = nested && (await run(nested));
  if (first && first.errors.length === 0 && !declaresForm(first.wire)) {
    await Promise.all(chosen.filter((s) => (REQUEST_CARD_SCENARIOS as readonly string[]).includes(s.name)).map(run));
    return { runs };
  }
  await Promise.all(chosen.filter((s) => s !== nested).map(run));
  return { runs };
}

/**
 * The server's own record, for the cancellation rows: a server in this process (against a client
 * driver in another process) records into the run's timeline (undefined: read it there); a child
 * that records itself gave `serverRecord`; any other child (ts2, py) or relay kept none (null).
 */
function serverRecord(run: SessionEvidence, column: Column): CancelRunEvidence["serverEvents"] {
  const child = serverRecordOf(run.transportEvidence);
  if (child !== undefined) return child?.events ?? null;
  return column.client.driver.kind === "process" && column.server.inProcess ? undefined : null;
}

function cells(runs: Record<string, SessionEvidence>, column: Column): Partial<Record<RowId, CellValue>> {
  const at = (name: string) => {
    const run = runs[name]!;
    return { events: run.events, wire: run.wire, negotiatedProtocol: negotiatedProtocol(run) };
  };
  const cancel = (name: (typeof CANCEL_CARD_SCENARIOS)[number]): CancelRunEvidence => {
    const serverEvents = serverRecord(runs[name]!, column);
    return { events: runs[name]!.events, wire: runs[name]!.wire, ...(serverEvents !== undefined && { serverEvents }) };
  };
  const formAnswered = formAnsweredCell(at("nested"));
  if (formAnswered.value === DECLARES_NO_FORM) return { formAnswered, protocol: protocolCell(at("nested")), ...requestCells(runs) };
  return {
    formAnswered,
    protocol: protocolCell(at("nested")),
    ...nestedCells(at("nested")),
    peak: peakCell(at("fan-out")),
    ping: pingCell(at("liveness")),
    ...(runs["call-cancelled"] && runs["server-withdraws"]
      ? cancelCells({ "call-cancelled": cancel("call-cancelled"), "server-withdraws": cancel("server-withdraws") })
      : cancelCellsNotRun()),
    formContract: formContractCell(runs[FORM_CONTRACT_SCENARIO.name]!),
    ...requestCells(runs),
  };
}

/** One pairing: its runs, and each cell compared with its hand-written card. */
async function scoreColumn(column: Column, expected: Map<string, ExpectedCard>, outDir: string, repeated: RepeatedSession[]): Promise<CardColumn> {
  const key = cardKey({ client: column.client.name, loop: column.loop, server: column.server.name });
  const want = expected.get(key);
  const started = performance.now();
  const { runs, unavailable } = await runColumn(column, outDir, want, repeated);
  // A client driver in another process reports a failed session by its exit, not as a session error.
  const errors = Object.values(runs).flatMap((r) => [...r.errors, ...[driverFault(r)].filter((f) => f !== undefined)]);
  let got: Partial<Record<RowId, CellValue>> = {};
  let differs: CardDifference[];
  if (unavailable) differs = [{ kind: "cannot-run", path: "$", expected: "the pairing runs here", actual: unavailable, why: `cannot run here: ${unavailable}` }];
  else if (want?.connectFails !== undefined) differs = connectDifferences(want, errors);
  else if (errors.length > 0) differs = [{ kind: "failed", path: "$", expected: "a session without errors", actual: errors, why: `the pairing failed: ${errors.join("; ")}` }];
  else {
    got = cells(runs, column);
    differs = cardDifferences(want, got);
  }
  return { key, client: column.client.name, loop: column.loop, server: column.server.name, sdk: `${sdkText(column.client.sdk)} → ${sdkText(column.server.sdk)}`, cells: got, expected: want?.cells ?? {}, connectFails: want?.connectFails, differs, ms: Math.round(performance.now() - started), errors };
}

/** The card, and the sessions run again because the server was slow (counted in every report). */
export async function runCard(options: CardOptions): Promise<CardData & { repeated: RepeatedSession[] }> {
  const expected = loadExpectedCards(options.expectedDir);
  // A pairing nobody wrote a card for is not claimed: it is named, not run (as `all` does for
  // expectations). A pairing with a card that cannot run here still fails.
  const all = cardColumns(options);
  const keyOf = (c: Column) => cardKey({ client: c.client.name, loop: c.loop, server: c.server.name });
  const columns = all.filter((c) => expected.has(keyOf(c)));
  const unclaimed = all.filter((c) => !expected.has(keyOf(c))).map(keyOf);
  const repeated: RepeatedSession[] = [];
  const out = await Promise.all(columns.map((column) => scoreColumn(column, expected, options.outDir, repeated)));
  // The model beside the thing it models: every differing row named, an unexplained one fails.
  const model = modelDifferences(out);
  return { columns: out, ok: out.length > 0 && out.every((c) => c.differs.length === 0) && model.every((d) => d.state === "named"), unclaimed, model, repeated };
}

export async function main(args: Parsed): Promise<number> {
  const expectedRoot = read.text(args, "expected");
  const junit = read.text(args, "junit");
  const options: CardOptions = {
    outDir: read.text(args, "out") ?? RUN_OUTPUT_DIR,
    expectedDir: expectedRoot === undefined ? CARD_EXPECTED_DIR : join(expectedRoot, "card"),
    ...(args.given.has("client") && { clients: read.list(args, "client") }),
    ...(args.given.has("server") && { servers: read.list(args, "server") }),
    ...(args.given.has("loop") && { loops: read.loops(args, "loop") }),
    ...(junit !== undefined && { junit: ensureNewReportFile(junit, "--junit") }),
  };
  // The card's own folder in the store, made before anything runs.
  const inv = openInvocation(options.outDir, "card");
  options.outDir = inv.dir;
  const card = await runCard(options);
  // `cells`: the flat list the index page shows (row, column, text, verdict); `columns`: the data.
  const cells = card.columns.flatMap((c) => CARD_ROWS.map((row) => ({ row: row.title, column: `${c.loop === "serial" ? `${c.client} (serial model)` : c.client} → ${c.server}`, text: c.cells[row.id]?.text ?? ((c.differs[0] ? differenceText(c.differs[0]) : "-")), verdict: c.differs.some((d) => d.row === row.id) ? "unexpected" : (c.cells[row.id]?.tone ?? "n/a") })));
  writeJsonAtomic(join(options.outDir, "card.json"), { ...card, cells });
  writeIndexPage(options.outDir);
  writeAtomic(join(options.outDir, "card.md"), renderCardMarkdown(card, { links: true }));
  writeAtomic(join(options.outDir, "card.svg"), renderCardSvg(card));
  // one test case per pairing and row, and one per pairing for a whole-pairing difference
  if (options.junit) {
    const cases = card.columns.flatMap((c) => [
      ...c.differs.filter((d) => d.row === undefined).map((d) => ({ suite: c.key, name: "the pairing", ok: false, details: [differenceText(d)] })),
      ...CARD_ROWS.filter((row) => c.cells[row.id] !== undefined || c.expected[row.id] !== undefined).map((row) => {
        const wrong = c.differs.filter((d) => d.row === row.id);
        return { suite: c.key, name: row.title, ok: wrong.length === 0, details: wrong.map(differenceText) };
      }),
    ]);
    const model = (card.model ?? []).map((d) => ({ suite: `serial model vs ${d.real}`, name: d.path, ok: d.state === "named", details: d.state === "named" ? [] : [`model ${d.actual} · ${d.real} ${d.expected}: ${d.why}`] }));
    writeAtomic(options.junit, renderJunit("lab card", [...cases, ...model]));
  }
  writeStoreIndex(inv.root);
  console.log(renderCardText(card));
  const bad = card.columns.filter((c) => c.differs.length > 0);
  for (const c of bad) for (const d of c.differs) console.log(`  DIFFERS ${c.key} · ${differenceText(d)}`);
  for (const d of card.model ?? []) if (d.state === "unexplained") console.log(`  UNEXPLAINED ${d.path}: model ${d.actual} · ${d.real} ${d.expected}`);
  if (card.unclaimed?.length) console.error(`not claimed (no hand-written card in expected/card/): ${card.unclaimed.join(", ")}`);
  if (card.columns.length === 0) console.error("card: no pairing asked for has a hand-written card");
  for (const line of renderRepeated(card.repeated)) console.log(line);
  console.log(`card: ${card.columns.length - bad.length} of ${card.columns.length} pairings as expected; written to ${join(options.outDir, "card.md")}, card.svg, card.json`);
  return card.ok ? 0 : 1;
}
