// Runs last (uvu orders test files by name): after the whole suite, no stdio child that any
// lab process started, in this process or in a CLI run the tests spawned, is still alive, and no
// HTTP server that any of them started (in a child or in this process) still listens.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { startedChildPids } from "../lab/transports/child-process.js";
import { listenersOf, listeningPortsOf, parentOf } from "../lab/transports/listening.js";
import { CHILD_PID_LOG, LISTEN_LOG } from "./support/child-pids.js";

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

/** Is `pid` this process or one of its descendants? */
function ours(pid: number): boolean {
  for (let p: number | undefined = pid, hops = 0; p !== undefined && p > 1 && hops < 64; p = parentOf(p), hops++) if (p === process.pid) return true;
  return false;
}

test("no HTTP server started during the test suite still listens", () => {
  const logged = existsSync(LISTEN_LOG)
    ? readFileSync(LISTEN_LOG, "utf8").split("\n").filter(Boolean).map((line) => line.split(" ").map(Number) as [number, number])
    : [];
  assert.ok(logged.length > 5, `${logged.length} HTTP servers were started and logged`);
  assert.equal(listeningPortsOf("self"), [], "this process listens on nothing");
  for (const [pid] of logged) assert.equal(listeningPortsOf(pid), [], `process ${pid} listens on nothing`);
  // a port the OS has handed to someone else since is not ours to judge; one held by us is
  const held = logged.flatMap(([, port]) => listenersOf(port).filter((pid) => ours(pid) || logged.some(([p]) => p === pid)).map((pid) => `${port} by ${pid}`));
  assert.equal(held, []);
  rmSync(LISTEN_LOG, { force: true });
});

test.run();
