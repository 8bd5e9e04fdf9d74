// A command a bench figure times, as a reader runs it: in its own process group (it starts processes that start
// peers), bounded, stopped by that group's own id if the bound passes or the bench itself exits first.
import { spawn, type SpawnOptions } from "node:child_process";
import { performance } from "node:perf_hooks";
import { within } from "../transports/child-process.js";

export interface GroupRun {
  wallMs: number;
  /** null when stopped at the bound */
  exitCode: number | null;
  stopped: boolean;
  /** stdout and stderr as they came, the last `keep` characters */
  output: string;
}

export async function runGroup(command: string, args: readonly string[], options: Pick<SpawnOptions, "cwd" | "env">, boundMs: number, keep = 2_000_000): Promise<GroupRun> {
  const started = performance.now();
  const child = spawn(command, [...args], { ...options, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  const add = (chunk: Buffer) => (output = (output + chunk.toString("utf8")).slice(-keep));
  child.stdout!.on("data", add);
  child.stderr!.on("data", add);
  const closed = new Promise<number | null>((resolve, reject) => (child.once("close", resolve), child.once("error", reject)));
  // the group is not the terminal's: an interrupted bench (run.ts exits through process.exit) stops it too
  const stopGroup = () => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // the group has ended already
    }
  };
  process.once("exit", stopGroup);
  const stopped = !(await within(closed, boundMs));
  if (stopped) stopGroup();
  process.off("exit", stopGroup);
  return { wallMs: performance.now() - started, exitCode: stopped ? null : await closed, stopped, output };
}
