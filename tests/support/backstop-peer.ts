// The nested story of a Python framework on mcp 1.30.0 whose session sets no read timeout (langchain-py, mcp-use): ONE
// real nested run over stdio against the ts1 server (the framework spawns the lab's relay as its server command) must
// pass its hand-written expectation, deadlocked until the lab's backstop (lab/peers/python/lab_backstop.py: LabBound,
// no code, 1.5 s); the serial model is checked against it fact by fact; corrupted copies (the callback answering before
// its nested request failed; an SDK's 408 in the backstop's place) are rejected.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { expectationFor } from "../../lab/check/expectations.js";
import { type Comparison, compareModelWithReal, storyFacts } from "../../lab/check/model-vs-real.js";
import { waitEnd } from "../../lab/check/wait-end.js";
import type { ClientPeer } from "../../lab/plan/peer.js";
import type { RunRecord } from "../../lab/session/pipeline.js";
import { needs } from "./needs.js";
import { clientRequests, failedAgainst, failuresOf, movedAfter, nestedRun } from "./nested-peer.js";
import { copy, memoryRun } from "./runs.js";

const ended = (run: Pick<RunRecord, "events" | "wire">) =>
  waitEnd(run.events.find((e) => e.kind === "nested.failed")!, run.events.find((e) => e.kind === "nested.sent"), run.wire);

export function backstopPeerTests(peer: ClientPeer, comparison: Comparison): void {
  const peerTest = needs(peer);
  const name = peer.name;
  const real = () => nestedRun(peer);
  const failed = (run: Pick<RunRecord, "events" | "wire">) => failedAgainst(name, run);

  test.before(() => (peerTest.missing ? undefined : real().then(() => undefined, () => undefined)));

  peerTest(`${name} nested against ts1: passes expected/nested.sdk.${name}.json; the lab's backstop ended the wait, nothing written`, async () => {
    const run = await real();
    assert.ok(expectationFor("nested", "sdk", { client: name, server: "ts1" })!.file.endsWith(`nested.sdk.${name}.json`));
    assert.equal(failuresOf(run), []);
    assert.equal(ended(run)?.by, "backstop");
    assert.is(ended(run)?.configuredMs, 1500);
    assert.is(clientRequests(run, "notifications/cancelled"), 0);
    assert.not.ok(run.events.some((e) => e.kind === "note" && e.detail?.relay !== undefined), "the framework spawned its server once");
    assert.ok(storyFacts(run).replyBeforeLimit, "the reply is on the wire before the backstop");
  });

  peerTest(`model vs real ${name}: every difference is named with its reason`, async () => {
    const model = storyFacts(await memoryRun("nested", "serial"));
    const verdict = compareModelWithReal(model, storyFacts(await real()), comparison);
    assert.ok(verdict.ok, JSON.stringify(verdict.facts, null, 2));
    assert.equal(verdict.facts.filter((f) => !f.same).map((f) => f.fact), ["errorCode", "cancelNotice", "lateReply", "clientFrames"]);
  });

  peerTest(`corrupted ${name} evidence is rejected: the answer before the nested failure; an SDK's 408 read as the SDK's limit`, async () => {
    const run = await real();
    assert.equal(failed(run), [], "the real run itself must pass");
    const early = movedAfter(run, "nested.failed", (e) => e.kind === "callback.left" && e.detail?.call === "first");
    assert.ok(failed(early).some((c) => c.startsWith("order: the callback answers cancel only after")), failed(early).join("; "));
    const sdk = copy(run);
    Object.assign(sdk.events.find((e) => e.kind === "nested.failed")!.detail!, { type: "McpError", code: 408, message: "Timed out while waiting for response to ClientRequest. Waited 0.5 seconds." });
    assert.equal(ended(sdk)?.by, "sdk");
    assert.ok(failed(sdk).includes("nested requests"), failed(sdk).join("; "));
  });
}
