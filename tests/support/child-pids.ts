// Every stdio child any lab process starts during the test run, whether in this process or in
// a CLI run it spawned, is logged here (lab/child-process.ts appends to LAB_CHILD_PID_LOG).
// uvu imports every test file before it runs any test, so this is set before the first spawn.
import { tmpdir } from "node:os";
import { join } from "node:path";

export const CHILD_PID_LOG = join(tmpdir(), `lab-test-child-pids-${process.pid}.log`);
process.env.LAB_CHILD_PID_LOG = CHILD_PID_LOG;

/** Every HTTP server a lab process starts logs "<pid> <port>" here (lab/transports/http-server.ts). */
export const LISTEN_LOG = join(tmpdir(), `lab-test-listen-${process.pid}.log`);
process.env.LAB_LISTEN_LOG = LISTEN_LOG;
