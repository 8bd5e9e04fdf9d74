// A session is repeated only when the server was slow: its nested request failed with no reply on
// the wire, or a form was withdrawn only after its callback answered; never when the reply was
// there (a deadlock): real runs, and real passing runs corrupted into a slow server's, each
// classified; the repeat is bounded and keeps every attempt.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { NESTED_LATE, serverSlow, START_LATE, WITHDRAWAL_LATE } from "../lab/check/server-slow.js";
import { nestedOutcome } from "../lab/check/card-requests.js";
import { cancelledRequestId } from "../lab/history/frames.js";
import { MAX_ATTEMPTS, repeatedSessions, runAgain, runConclusive } from "../lab/session/attempts.js";
import type { SessionEvidence } from "../lab/plan/session.js";
import { copy, memoryRun } from "./support/runs.js";

/** Each scenario whose callback nests, and the server request that callback answers. */
const NESTING = { nested: "elicitation/create", "sampling-nested": "sampling/createMessage", "roots-nested": "roots/list" } as const;
type Nesting = keyof typeof NESTING;
const NAMES = Object.keys(NESTING) as Nesting[];

/** A real passing run as a slow server would have left it: the nested request failed at its limit
 *  and its reply never reached the wire (`late`: it came, but after the failure). */
function slowed(run: SessionEvidence, callback: string, late = false): SessionEvidence {
  const r = copy(run);
  const { request, reply } = nestedOutcome(r, callback)!;
  assert.ok(request && reply, "the real run has the nested request and its reply on the wire");
  const ok = r.events.find((e) => e.kind === "nested.ok")!;
  Object.assign(ok, { kind: "nested.failed", detail: { code: -32001, message: "MCP error -32001: Request timed out" } });
  if (late) reply.t = ok.t + 1;
  else r.wire = r.wire.filter((f) => f !== reply);
  return r;
}

test("real runs stand: every nesting scenario completing (sdk) or deadlocked (serial, wait and break) is never repeated", async () => {
  for (const name of NAMES) {
    const passing = await memoryRun(name, "sdk");
    assert.ok(passing.events.some((e) => e.kind === "nested.ok"), `${name} sdk completes`);
    assert.is(serverSlow(passing), undefined, `${name} sdk`);
    for (const onDeadlock of name === "nested" ? (["wait", "break"] as const) : (["wait"] as const)) {
      const deadlocked = await memoryRun(name, "serial", onDeadlock);
      const o = nestedOutcome(deadlocked, NESTING[name])!;
      // a real deadlock: the reply was on the wire before the callback gave up
      assert.ok(o.failed && o.reply && o.reply.t < o.failed.t, `${name} serial ${onDeadlock} deadlocks`);
      assert.is(serverSlow(deadlocked), undefined, `${name} serial ${onDeadlock}`);
    }
  }
});

test("a passing run corrupted (its nested reply gone from the wire, or after the failure; the request failed) is a slow server's", async () => {
  for (const name of NAMES) {
    const passing = await memoryRun(name, "sdk");
    const gone = serverSlow(slowed(passing, NESTING[name]));
    assert.equal(gone && { callback: gone.callback, nested: gone.nested }, { callback: NESTING[name], nested: "tools/list" }, name);
    assert.match(gone!.why, `no reply came: ${NESTED_LATE}`);
    assert.match(serverSlow(slowed(passing, NESTING[name], true))!.why, `its reply came only after the callback gave up: ${NESTED_LATE}`);
  }
});

test("cancellation runs stand; a withdrawal moved after the callback's answer (or after it left) is a slow server's", async () => {
  for (const name of ["call-cancelled", "server-withdraws"] as const) {
    for (const loop of ["sdk", "serial"] as const) assert.is(serverSlow(await memoryRun(name, loop)), undefined, `${name} ${loop}`);
  }
  const real = await memoryRun("server-withdraws", "sdk");
  const notice = real.wire.find((f) => f.from === "server" && f.label.method === "notifications/cancelled")!;
  const id = cancelledRequestId(notice.message);
  const left = real.events.find((e) => e.kind === "callback.left" && e.id === id)!;
  assert.ok(left.t > notice.t, "the real withdrawal came while the callback ran");
  // the callback left before the notice reached the wire
  const leftEarly = copy(real);
  leftEarly.events.find((e) => e.kind === "callback.left" && e.id === id)!.t = notice.t - 1;
  assert.is(serverSlow(leftEarly)!.why, `elicitation/create #${String(id)}: ${WITHDRAWAL_LATE}`);
  // the answer on the wire before the notice (frames reordered, indexes kept in order)
  const answered = copy(real);
  const at = answered.wire.findIndex((f) => f.index === notice.index);
  const [moved] = answered.wire.splice(at, 1);
  answered.wire.push(moved!);
  answered.wire.forEach((f, i) => (f.index = i));
  assert.is(serverSlow(answered)?.nested, "notifications/cancelled");
});

test("not repeated when the session failed otherwise (an error, a hidden crash), nor when the nested request never reached the wire", async () => {
  const passing = await memoryRun("nested", "sdk");
  const slow = slowed(passing, "elicitation/create");
  assert.is(serverSlow({ ...slow, errors: ["session nested did not finish within its bound"] }), undefined);
  const unsent = copy(slow);
  const { request } = nestedOutcome(unsent, "elicitation/create")!;
  unsent.wire = unsent.wire.filter((f) => f.index !== request!.index);
  assert.is(serverSlow(unsent), undefined);
});

test("a session that failed before the server answered initialize is the server's slowness; one whose initialize was answered, or never sent, is not", async () => {
  const passing = await memoryRun("nested", "sdk");
  const failed = { ...copy(passing), errors: ["client: initialize timed out"] };
  assert.is(serverSlow(failed), undefined, "initialize was answered: the failure is the session's own");
  const init = failed.wire.find((f) => f.from === "client" && f.label.method === "initialize")!;
  const unanswered = { ...failed, wire: failed.wire.filter((f) => f.from !== "server" || f.replyTo !== init.index) };
  assert.ok(unanswered.wire.length < failed.wire.length, "the real run had initialize's reply to remove");
  assert.match(serverSlow(unanswered)!.why, `initialize got no reply before the session failed: ${START_LATE}`);
  assert.is(serverSlow({ ...unanswered, errors: [] }), undefined, "no failure: nothing to repeat");
  assert.is(serverSlow({ ...unanswered, wire: unanswered.wire.filter((f) => f !== init) }), undefined, "never sent: the client's doing");
});

test(`the repeat: at most ${MAX_ATTEMPTS} attempts, each one kept; a deadlock or a completed run is taken at once`, async () => {
  const passing = await memoryRun("nested", "sdk");
  const deadlocked = await memoryRun("nested", "serial");
  const slow = slowed(passing, "elicitation/create");
  const feed = (attempts: SessionEvidence[]) => {
    let i = 0;
    return { next: () => Promise.resolve(attempts[i++]!), asked: () => i };
  };
  const always = feed([slow, slow, slow, slow]);
  const last = await runConclusive(always.next);
  assert.is(always.asked(), MAX_ATTEMPTS);
  assert.is(last.earlierAttempts?.length, MAX_ATTEMPTS - 1);
  assert.ok(last.earlierAttempts!.every((a) => a.evidence === slow && a.why.endsWith(NESTED_LATE)));
  assert.equal(repeatedSessions([last, passing], () => "nested"), [{ session: "nested", attempts: MAX_ATTEMPTS, why: last.earlierAttempts!.map((a) => a.why) }]);

  const once = feed([slow, passing]);
  const second = await runConclusive(once.next);
  assert.is(once.asked(), 2);
  assert.equal({ ...second, earlierAttempts: undefined }, { ...passing, earlierAttempts: undefined });
  assert.is(second.earlierAttempts?.[0]?.evidence, slow);

  for (const run of [deadlocked, passing]) {
    const single = feed([run, slow]);
    assert.is(await runConclusive(single.next), run);
    assert.is(single.asked(), 1);
  }

  // run again later (history's late round): every attempt kept, in order, the earlier run's first
  const again = feed([slow, passing]);
  const later = await runAgain(last, again.next, serverSlow(last)!.why);
  assert.is(again.asked(), 2);
  assert.equal({ ...later, earlierAttempts: undefined }, { ...passing, earlierAttempts: undefined });
  assert.is(later.earlierAttempts?.length, MAX_ATTEMPTS + 1);
  assert.ok(later.earlierAttempts!.every((a) => a.why.endsWith(NESTED_LATE)), "each attempt says why it was set aside");
  assert.ok(later.earlierAttempts!.slice(0, MAX_ATTEMPTS).every((a) => a.evidence.earlierAttempts === undefined), "none nests another's attempts");
  const stillSlow = await runAgain(last, feed([slow, slow, slow]).next, serverSlow(last)!.why);
  assert.is(stillSlow.earlierAttempts?.length, 2 * MAX_ATTEMPTS - 1);
  assert.ok(serverSlow(stillSlow), "slow on its last attempt too: the caller sees it");
  // a session that failed otherwise (history's late round): the caller's reason is kept with it
  const failedOnce = await runAgain(deadlocked, feed([passing]).next, "the session failed: a driver exited");
  assert.equal(failedOnce.earlierAttempts?.map((a) => a.why), ["the session failed: a driver exited"]);
});

test.run();
