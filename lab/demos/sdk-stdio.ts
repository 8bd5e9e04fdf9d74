// One session of the v2 client over the SDK's own StdioClientTransport, spawning the v2 server
// child (build/ts2-server.blob). Each child appends its pid to LAB_TS2_SPAWN_LOG when it starts,
// so the count includes the short-lived sibling the v2 client spawns for its server/discover probe
// in auto and pinned modes (client public-CvV4ZHkX.mjs:2519).
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Recorder } from "../history/timeline.js";
import type { SessionPlan } from "../plan/behaviour.js";
import { TS2_CHILD_ARGS } from "../peers/ts2/build.js";
import { runTs2Session, type Negotiation, type Ts2SessionOutcome } from "../peers/ts2/client.js";
import { summarise, type SessionSummary } from "./summary.js";

export interface SdkStdioRun {
  outcome: Ts2SessionOutcome;
  /** pids of every child that started, in start order */
  pids: number[];
  /** children still alive after client.close() returned (then killed by pid) */
  leftAlive: number[];
  /** ms from the session's start until connect settled (spawns, probe, handshake) */
  connectMs: number;
  summary: SessionSummary;
  stderr: string;
}

let runs = 0;

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0); // signal 0 only asks whether the pid exists
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

export async function sdkStdioRun(plan: SessionPlan, negotiation: Negotiation): Promise<SdkStdioRun> {
  const log = join(tmpdir(), `lab-ts2-spawns-${process.pid}-${++runs}.log`);
  // The SDK passes the parent's environment only when given `env` (merged over a small default set).
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...TS2_CHILD_ARGS],
    env: { LAB_TS2_SPAWN_LOG: log },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const rec = new Recorder();
  const outcome = await runTs2Session(plan, transport, rec, { negotiation });
  const pids = existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean).map(Number) : [];
  rmSync(log, { force: true });
  const leftAlive = pids.filter(isAlive);
  for (const pid of leftAlive) process.kill(pid, "SIGKILL"); // only children this run started, by pid
  const connectMs = rec.events.find((e) => e.kind === "protocol.negotiated")?.t ?? Number.NaN;
  return { outcome, pids, leftAlive, connectMs, summary: summarise(rec.events, rec.wire), stderr: stderr.trim() };
}
