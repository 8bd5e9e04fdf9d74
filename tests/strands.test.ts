// strands-agents 1.65.0's MCPClient on mcp 2.3.0, in ONE real nested run per peer over stdio against the ts1 server:
// `strands` completes the nested tools/list it sends on the session its callback is handed; `strands-sync` calls
// strands' own list_tools_sync() from inside the callback, which blocks the loop it waits on (mcp_client.py:757):
// the request never leaves, and the lab's bound ends the session. Each passes its hand-written expectation;
// corrupted copies of the evidence are rejected.
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { nestedCells } from "../lab/check/card.js";
import { expectationFor } from "../lab/check/expectations.js";
import { HANGS, sessionBoundAt } from "../lab/check/wait-end.js";
import { STRANDS_CLIENT, STRANDS_SYNC_CLIENT } from "../lab/peers/strands/index.js";
import type { RunRecord } from "../lab/session/pipeline.js";
import { needs } from "./support/needs.js";
import { clientRequests as requests, failedAgainst as failed, failuresOf as failures, movedAfter, nestedRun as real } from "./support/nested-peer.js";
import { copy } from "./support/runs.js";

const asyncTest = needs(STRANDS_CLIENT);
const syncTest = needs(STRANDS_SYNC_CLIENT);
const evidence = (run: RunRecord) => ({ events: run.events, wire: run.wire, negotiatedProtocol: "2025-11-25" });

test.before(() => {
  const started: Promise<unknown>[] = [];
  if (!asyncTest.missing) started.push(real(STRANDS_CLIENT));
  if (!syncTest.missing) started.push(real(STRANDS_SYNC_CLIENT));
  return Promise.allSettled(started).then(() => undefined);
});

asyncTest("strands nested against ts1: passes expected/nested.sdk.strands.json; server/discover, then initialize; the nested request completes", async () => {
  const run = await real(STRANDS_CLIENT);
  assert.ok(expectationFor("nested", "sdk", { client: "strands", server: "ts1" })!.file.endsWith("nested.sdk.strands.json"));
  assert.equal(failures(run), []);
  assert.is(requests(run, "server/discover"), 1);
  assert.is(requests(run, "initialize"), 1);
  assert.is(nestedCells(evidence(run)).nested.value, "completes");
});

syncTest("strands-sync nested against ts1: the request never leaves; the lab's bound, not an SDK limit, ended the session", async () => {
  const run = await real(STRANDS_SYNC_CLIENT);
  assert.equal(failures(run), []);
  assert.is(requests(run, "tools/list"), 1, "only the listToolsFirst one: the nested request was never sent");
  const ended = run.events.find((e) => e.kind === "nested.failed");
  assert.is(ended?.detail?.type, "LabSessionBound");
  assert.is(sessionBoundAt(run.events), ended?.t);
  assert.not.ok(run.events.some((e) => e.kind === "callback.left"), "the callback never leaves");
  assert.not.ok(run.events.some((e) => e.kind === "call.started" && e.detail?.call === "recovery"), "no call after the bound");
  assert.is(nestedCells(evidence(run)).nested.value, HANGS);
});

asyncTest("corrupted strands evidence is rejected: the nested request ending after the callback answered", async () => {
  const run = await real(STRANDS_CLIENT);
  assert.equal(failed("strands", run), [], "the real run itself must pass");
  const late = movedAfter(run, "nested.ok", (e) => e.kind === "callback.left");
  assert.ok(failed("strands", late).some((c) => c.startsWith("order: the nested request returns inside the callback")));
});

syncTest("corrupted strands-sync evidence is rejected: an SDK timeout in place of the lab's bound, or a reply that never came", async () => {
  const run = await real(STRANDS_SYNC_CLIENT);
  assert.equal(failed("strands-sync", run), [], "the real run itself must pass");
  const sdk = copy(run);
  Object.assign(sdk.events.find((e) => e.kind === "nested.failed")!.detail!, { type: "MCPError", code: -32001 });
  assert.ok(failed("strands-sync", sdk).some((c) => c.startsWith("order: the callback blocks")), JSON.stringify(failed("strands-sync", sdk)));
  assert.not.equal(nestedCells(evidence(sdk)).nested.value, HANGS);
  // without the lab's bound, the unanswered tools/call and elicitation/create are a broken wire again
  const unbound = copy(sdk);
  assert.ok(failed("strands-sync", unbound).includes("each request has one reply with its id"));
});

test.run();
