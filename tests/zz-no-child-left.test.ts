// No stdio child outlives its session: neither one started in this process nor one started by
// a CLI run the tests spawned (children log their pids to LAB_CHILD_PID_LOG, set by
// support/child-pids.ts before any test runs). This file does not rely on running last: it
// starts a child of its own, so it checks something real even when run alone, and it checks
// every child started before it; support/child-pids.ts checks the whole suite once more when
// the test process is about to exit, whatever order uvu picked.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { withBound } from "../lab/session/bound.js";
import { runSession } from "../lab/session/session.js";
import { openStdioTransport, type ChildEvidence } from "../lab/transports/stdio.js";
import fixedFixture from "../scenarios/fixed-fixture.js";
import { alive, childrenSoFar } from "./support/child-pids.js";

test("no stdio child started so far, in this process or by a CLI run, is still alive", async () => {
  const own = await withBound(runSession(fixedFixture, openStdioTransport, "stdio", { dispatch: "sdk" }), 20_000, "a stdio session");
  const pid = (own.transportEvidence as ChildEvidence).pid;
  assert.ok(pid, "this file's own session started a child");
  const pids = childrenSoFar();
  assert.ok(pids.includes(pid), "its own child is among those checked");
  assert.equal(pids.filter(alive), []);
});

test.run();
