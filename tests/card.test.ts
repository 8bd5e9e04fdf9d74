// The report card's comparison: a changed expected cell makes the card name that cell (the
// README's card block is generated from the same files: tests/docs.test.ts).
import { formAnsweredCell } from "../lab/check/card-form.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cardDifferences, loadExpectedCards } from "../lab/check/card-expected.js";
import { nestedCells, peakCell, pingCell, protocolCell } from "../lab/check/card.js";
import { cancelCells, cancelCellsNotRun, cancelWithdrawsCell, lateAnswerCell } from "../lab/check/card-cancel.js";
import { negotiatedProtocol } from "../lab/session/pipeline.js";
import { PROJECT_ROOT } from "../lab/paths.js";
import { copy, memoryRun } from "./support/runs.js";
import { runMain } from "./support/cli.js";
import { formContractCell } from "../lab/check/card-contract.js";
import { FORM_CONTRACT_SCENARIO } from "../scenarios/contract/card.js";
import { runSession } from "../lab/session/session.js";
import { openMemoryTransport } from "../lab/transports/memory.js";
import { type SessionEvidence } from "../lab/plan/session.js";
import { REQUEST_CARD_SCENARIOS, requestCells } from "../lab/check/card-requests.js";


const SCENARIOS = ["nested", "fan-out", "liveness", "call-cancelled", "server-withdraws"] as const;
const formContractRuns = new Map<string, Promise<SessionEvidence>>();
/** The card's form-contract session (seven calls) in memory, once per loop model. */
const formContractRun = (loop: "sdk" | "serial") =>
  formContractRuns.get(loop) ?? formContractRuns.set(loop, runSession(FORM_CONTRACT_SCENARIO, openMemoryTransport, "memory", { loop: loop })).get(loop)!;

test("cells from real runs (ts1, both loop models, in memory) match the expected card, cancellation and sampling/roots rows included; one changed cell is named", async () => {
  const cards = loadExpectedCards();
  for (const loop of ["sdk", "serial"] as const) {
    type Five = [SessionEvidence, SessionEvidence, SessionEvidence, SessionEvidence, SessionEvidence];
    const [nested, fanOut, liveness, callCancelled, withdraws] = (await Promise.all(SCENARIOS.map((s) => memoryRun(s, loop)))) as Five;
    const requests = Object.fromEntries(await Promise.all(REQUEST_CARD_SCENARIOS.map(async (s) => [s, await memoryRun(s, loop)] as const)));
    const at = (run: typeof nested) => ({ events: run.events, wire: run.wire, negotiatedProtocol: negotiatedProtocol(run) });
    const cells = {
      formAnswered: formAnsweredCell(at(nested)),
      protocol: protocolCell(at(nested)),
      ...nestedCells(at(nested)),
      peak: peakCell(at(fanOut)),
      ping: pingCell(at(liveness)),
      // in memory the server's own events are in the shared timeline (serverEvents absent)
      ...cancelCells({ "call-cancelled": callCancelled, "server-withdraws": withdraws }),
      formContract: formContractCell(await formContractRun(loop)),
      ...requestCells(requests),
    };
    const want = cards.get(`ts1.${loop}.ts1`)!;
    assert.equal(cardDifferences(want, cells), []);
    const changed = { ...want, cells: { ...want.cells, peak: want.cells.peak === "one at a time" ? "several at once" : "one at a time" } };
    assert.equal(cardDifferences(changed, cells).map((d) => [d.row, d.path]), [["peak", "$.cells.peak"]]);
  }
});

// Corruptions of real evidence, each flipping exactly the cancellation cell it guards.
test("cancellation cells: a removed withdrawal, a lost server record and a refused era each change only their own cell", async () => {
  const want = loadExpectedCards().get("ts1.sdk.ts1")!;
  const real = { "call-cancelled": await memoryRun("call-cancelled", "sdk"), "server-withdraws": await memoryRun("server-withdraws", "sdk") };
  const named = (cells: ReturnType<typeof cancelCells>) => cardDifferences({ ...want, cells: { cancelWithdraws: want.cells.cancelWithdraws, withdrawAborts: want.cells.withdrawAborts, lateAnswer: want.cells.lateAnswer } }, cells).map((d) => d.row);
  assert.equal(named(cancelCells(real)), []);

  // the server's withdrawal of the linked form, dropped from the wire: that form now reads as left open
  const noWithdrawal = copy(real["call-cancelled"]);
  noWithdrawal.wire = noWithdrawal.wire.filter((f) => !(f.from === "server" && f.label.method === "notifications/cancelled"));
  assert.is(cancelWithdrawsCell(noWithdrawal).value, "calculate: left open · calculate_linked: left open");
  assert.equal(named(cancelCells({ ...real, "call-cancelled": noWithdrawal })), ["cancelWithdraws"]);

  // the server's "unknown message ID" error, dropped: the late answer reads as dropped silently
  const noError = copy(real["server-withdraws"]);
  noError.events = noError.events.filter((e) => !(e.side === "server" && e.kind === "sdk.error"));
  assert.match(String(lateAnswerCell(noError, real["call-cancelled"]).value), /^after a withdrawal: dropped silently · /);
  // a server that kept no record of its own (a stdio child writing none): said so, not guessed
  assert.match(String(lateAnswerCell({ ...real["server-withdraws"], serverEvents: null }, { ...real["call-cancelled"], serverEvents: null }).value), /^after a withdrawal: answered; the server's handling not recorded · after a cancelled call: answered; no result sent$/);
  assert.equal(named({ ...cancelCells(real), lateAnswer: lateAnswerCell(noError, real["call-cancelled"]) }), ["lateAnswer"]);

  // a client era the scenarios refuse: the three cells say so, as the ts2-modern cards expect
  const modern = loadExpectedCards().get("ts2-modern.sdk.ts2")!;
  assert.equal(Object.fromEntries(Object.entries(cancelCellsNotRun()).map(([id, c]) => [id, c.value])), { cancelWithdraws: modern.cells.cancelWithdraws, withdrawAborts: modern.cells.withdrawAborts, lateAnswer: modern.cells.lateAnswer });
});

test("the card command: one changed expected cell makes it exit 1 naming that pairing and cell (ts1 → ts1, sdk, over stdio)", async () => {
  const dir = mkdtempSync(join(tmpdir(), "lab-card-"));
  try {
    cpSync(join(PROJECT_ROOT, "expected", "card"), join(dir, "expected", "card"), { recursive: true });
    const file = join(dir, "expected", "card", "ts1.sdk.ts1.json");
    const card = JSON.parse(readFileSync(file, "utf8"));
    assert.is(card.cells.peak, "several at once");
    card.cells.peak = "one at a time";
    writeFileSync(file, JSON.stringify(card));
    const r = await runMain(["card", "--client", "ts1", "--server", "ts1", "--loop", "sdk", "--expected", join(dir, "expected"), "--out", join(dir, "out")]);
    assert.is(r.code, 1, r.stdout + r.stderr);
    const differs = r.stdout.split("\n").filter((l) => l.trimStart().startsWith("DIFFERS "));
    assert.is(differs.length, 1, r.stdout);
    assert.match(differs[0]!, /DIFFERS ts1\.sdk\.ts1 · peak:/);
    assert.match(r.stdout, /card: 0 of 1 pairings as expected/);
    assert.is((await runMain(["card", "--loop", "threads"])).code, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the form-contract cell counts what the server computed: a corrupted result is named with its status", async () => {
  const run = await formContractRun("sdk");
  assert.equal(formContractCell(run), { value: "7 of 7", text: "7 of 7", tone: "safe" });
  const corrupt = (call: string, change: (result: Record<string, unknown>) => void) => {
    const events = copy(run.events);
    const result = events.find((e) => e.kind === "tool.result" && e.detail?.call === call)!.detail!.result as Record<string, unknown>;
    change(result);
    return formContractCell({ events }).value;
  };
  assert.is(corrupt("decline", (r) => (r.computed = true)), "6 of 7; not as the spec says: decline (declined)");
  assert.is(corrupt("accept_valid", (r) => (r.value = 22)), "6 of 7; not as the spec says: accept_valid (calculated)");
  assert.is(corrupt("accept_wrong_type", (r) => (r.computed = 1)), "6 of 7; not as the spec says: accept_wrong_type (invalid_content)", "1 is not false");
  const lost = copy(run.events).filter((e) => !(e.kind === "tool.result" && e.detail?.call === "cancel"));
  assert.is(formContractCell({ events: lost }).value, "6 of 7; not as the spec says: cancel (no result)");
});

test.run();
