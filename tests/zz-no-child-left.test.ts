// No stdio child outlives its session, and no HTTP server the lab started still listens: neither
// one started in this process nor one started by a CLI run the tests spawned (children log their
// pids to LAB_CHILD_PID_LOG and listeners "<pid> <port>" to LAB_LISTEN_LOG, both set by
// support/child-pids.ts before any test runs). This file does not rely on running last: it
// starts a child and an HTTP server of its own, so it checks something real even when run
// alone, and it checks everything started before it; support/child-pids.ts checks the children
// of the whole suite once more when the test process is about to exit.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, readFileSync } from "node:fs";
import { withBound } from "../lab/plan/bounds.js";
import { runSession } from "../lab/session/session.js";
import { listenersOf, listeningPortsOf, parentOf } from "../lab/transports/listening.js";
import { TRANSPORTS } from "../lab/transports/index.js";
import { openStdioTransport } from "../lab/transports/stdio.js";
import { freshServer } from "../lab/transports/forked.js";
import { TS1_SERVER } from "../lab/peers/ts1/index.js";
import { serverChildOf } from "../lab/plan/evidence.js";
import fixedFixture from "../scenarios/fixed-fixture.js";
import { alive, childrenSoFar, LISTEN_LOG } from "./support/child-pids.js";

test("no stdio child started so far, in this process or by a CLI run, is still alive", async () => {
  // a fresh child: a session in the ts1 host is no child of its own (the host is stopped with this process)
  const own = await withBound(runSession(fixedFixture, openStdioTransport, "stdio", { loop: "sdk", server: freshServer(TS1_SERVER) }), 20_000, "a stdio session");
  const pid = serverChildOf(own.transportEvidence)?.pid;
  assert.ok(pid, "this file's own session started a child");
  const pids = childrenSoFar();
  assert.ok(pids.includes(pid), "its own child is among those checked");
  assert.equal(pids.filter(alive), []);
});

/** Is `pid` this process or one of its descendants? */
function ours(pid: number): boolean {
  for (let p: number | undefined = pid, hops = 0; p !== undefined && p > 1 && hops < 64; p = parentOf(p), hops++) if (p === process.pid) return true;
  return false;
}

test("no HTTP server started so far still listens", async () => {
  await withBound(runSession(fixedFixture, TRANSPORTS.http!.open, "http", { loop: "sdk" }), 20_000, "an http session");
  const logged = existsSync(LISTEN_LOG)
    ? readFileSync(LISTEN_LOG, "utf8").split("\n").filter(Boolean).map((line) => line.split(" ").map(Number) as [number, number])
    : [];
  assert.ok(logged.length >= 1, "this file's own HTTP server was logged");
  assert.equal(listeningPortsOf("self"), [], "this process listens on nothing");
  for (const [pid] of logged) assert.equal(listeningPortsOf(pid), [], `process ${pid} listens on nothing`);
  // a port the OS has handed to someone else since is not ours to judge; one held by us is
  const held = logged.flatMap(([, port]) => listenersOf(port).filter((pid) => ours(pid) || logged.some(([p]) => p === pid)).map((pid) => `${port} by ${pid}`));
  assert.equal(held, []);
});

test.run();
