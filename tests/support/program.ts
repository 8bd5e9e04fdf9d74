// A peer's program run to its end with empty input, as the lab starts it (startChild: in its host
// when it can stay up, else spawned; lab/transports/forked.ts). For the tests that
// read only a program's exit status and output (a plan refused before anything is sent): a fresh
// FastMCP interpreter costs a second of CPU, a fork of the warm one a few milliseconds.
import "./child-pids.js";
import type { ChildCommand } from "../../lab/plan/peer.js";
import { within } from "../../lab/transports/child-process.js";
import { startChild } from "../../lab/transports/forked.js";

export interface ProgramEnd {
  status: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

export async function runToEnd(spec: ChildCommand, boundMs = 30_000): Promise<ProgramEnd> {
  const child = startChild(spec);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const closed = new Promise<void>((resolve, reject) => {
    child.once("close", () => resolve());
    child.once("error", reject);
  });
  child.stdin.end();
  if (!(await within(closed, boundMs))) {
    child.kill("SIGKILL");
    throw new Error(`${spec.command} ${spec.args.join(" ")} did not end within ${boundMs} ms`);
  }
  return { status: child.exitCode, signal: child.signalCode, stdout, stderr };
}
