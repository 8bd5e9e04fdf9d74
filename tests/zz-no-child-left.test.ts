// Runs last (uvu orders test files by name): after the whole suite, no stdio child that any
// lab process started, in this process or in a CLI run the tests spawned, is still alive.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { startedChildPids } from "../lab/transports/child-process.js";
import { CHILD_PID_LOG } from "./support/child-pids.js";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0); // signal 0 only asks whether the pid exists
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

test("no child started during the test suite is still alive", () => {
  const logged = existsSync(CHILD_PID_LOG) ? readFileSync(CHILD_PID_LOG, "utf8").split("\n").filter(Boolean).map(Number) : [];
  const pids = [...new Set([...logged, ...startedChildPids()])];
  assert.ok(pids.length > 20, `${pids.length} children were started and logged`);
  assert.equal(pids.filter(alive), []);
  rmSync(CHILD_PID_LOG, { force: true });
});

test.run();
