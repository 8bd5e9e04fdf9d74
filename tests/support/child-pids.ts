// Every stdio child any lab process starts during the test run, whether in this process or in
// a CLI run it spawned, is logged here (lab/transports/child-process.ts appends to
// LAB_CHILD_PID_LOG). uvu imports every test file before it runs any test, so this is set
// before the first spawn. Checked by zz-no-child-left.test.ts, and once more for the whole
// suite when the test process is about to exit, whatever order the files ran in.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startedChildPids } from "../../lab/transports/child-process.js";

export const CHILD_PID_LOG = join(tmpdir(), `lab-test-child-pids-${process.pid}.log`);
process.env.LAB_CHILD_PID_LOG = CHILD_PID_LOG;

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0); // signal 0 only asks whether the pid exists
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/** Every child started so far by this process or by a lab process it spawned. */
export function childrenSoFar(): number[] {
  const logged = existsSync(CHILD_PID_LOG) ? readFileSync(CHILD_PID_LOG, "utf8").split("\n").filter(Boolean).map(Number) : [];
  return [...new Set([...logged, ...startedChildPids()])];
}

// After the last test of whichever file ran last: nothing may be left. A leftover fails the run.
process.once("beforeExit", () => {
  const left = childrenSoFar().filter(alive);
  rmSync(CHILD_PID_LOG, { force: true });
  if (left.length === 0) return;
  console.error(`\n  FAIL  stdio children still alive after the test suite: ${left.join(", ")}`);
  process.exitCode = 1;
});

/** Every HTTP server a lab process starts logs "<pid> <port>" here (lab/transports/http-server.ts). */
export const LISTEN_LOG = join(tmpdir(), `lab-test-listen-${process.pid}.log`);
process.env.LAB_LISTEN_LOG = LISTEN_LOG;
