// The two sides of every start figure in bench: a peer's session start as the lab records it
// (spawn to the initialize result, ChildEvidence.spawnToInitializedMs) and a bare start of a
// program (spawn to exit), with the interleaving that lets load fall on every figure alike.
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { driverChildOf, serverChildOf } from "../plan/evidence.js";
import type { ClientPeer, ServerPeer } from "../plan/peer.js";
import { runSession } from "../session/session.js";
import { lifecycleProblems, within } from "../transports/child-process.js";
import { freshClient } from "../transports/forked.js";
import { median } from "../check/stats.js";
import { TRANSPORTS } from "../transports/index.js";
import fixedFixture from "../../scenarios/fixed-fixture.js";

const BARE_BOUND_MS = 60_000;

export const ratio = (over: number, floor: number) => Math.round((over / floor) * 100) / 100;

export interface SessionStart {
  /** spawn to initialize result, as the lab records it (ChildEvidence.spawnToInitializedMs) */
  startMs: number;
  /** of which: the initialize request on the wire to its result (the other side's answer) */
  answerMs: number;
}

/** Spawn to initialize result of the process (the client's driver or the server's child) a real
 *  fixed-fixture session over stdio started; the other side is the lab's TypeScript peer. */
export async function sessionStart(peers: { client?: ClientPeer; server?: ServerPeer }, which: "driver" | "server"): Promise<SessionStart> {
  const run = await runSession(fixedFixture, TRANSPORTS.stdio!.open, "stdio", { loop: "sdk", ...peers });
  const evidence = which === "server" ? serverChildOf(run.transportEvidence) : driverChildOf(run.transportEvidence);
  const problems = [...run.errors, ...lifecycleProblems(run.transportEvidence)];
  const name = (which === "server" ? peers.server : peers.client)?.name ?? "ts1";
  const initialize = (frameType: string) => run.wire.find((f) => f.label.method === "initialize" && f.label.frameType === frameType);
  const [request, result] = [initialize("request"), initialize("result")];
  if (problems.length || evidence?.spawnToInitializedMs === undefined || !request || !result) throw new Error(`bench ${name} ${which} session failed: ${problems.join("; ")}`);
  return { startMs: evidence.spawnToInitializedMs, answerMs: result.t - request.t };
}

/** `command args`, spawn to exit, whatever its exit code (a program refusing its arguments is a bare start). */
export async function bareStart(command: string, args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(command, args, { stdio: "ignore" });
  const exited = new Promise<number | null>((resolve, reject) => (child.once("close", resolve), child.once("error", reject)));
  if (!(await within(exited, BARE_BOUND_MS))) {
    child.kill("SIGKILL");
    throw new Error(`${command} ${args.join(" ")} did not exit within ${BARE_BOUND_MS} ms`);
  }
  return performance.now() - started;
}

/** `samples` rounds of `steps`, each round starting with the next step, so neither load drifting
 *  over the run nor the place in a round favours one of them. */
export async function interleaved(steps: (() => Promise<void>)[], samples: number): Promise<void> {
  for (let i = 0; i < samples; i++) {
    for (let k = 0; k < steps.length; k++) await steps[(i + k) % steps.length]!();
  }
}

export interface DriverStarts {
  /** a bare start of the driver's program (spawn to exit), median */
  bareMs: number;
  /** a session as the lab runs it, in the driver's host (request to initialize result), median */
  sessionMs: number;
  /** of that: the initialize request on the wire to its result (the lab's answer), median */
  answerMs: number;
  /** a fresh process per session (LAB_FRESH=1), beside it, median */
  freshMs: number;
}

/** A client driver's session start as the lab runs it, a fresh process per session and `bare`, in
 *  `samples` interleaved rounds, after one of each unmeasured (page cache, the host's own start). */
export async function driverStarts(peer: ClientPeer, bare: () => Promise<number>, samples: number): Promise<DriverStarts> {
  const times = { bare: [] as number[], session: [] as number[], answer: [] as number[], fresh: [] as number[] };
  const session = async (client: ClientPeer, into: number[]) => {
    const start = await sessionStart({ client }, "driver");
    into.push(start.startMs);
    if (client === peer) times.answer.push(start.answerMs);
  };
  const steps = [async () => void times.bare.push(await bare()), () => session(peer, times.session), () => session(freshClient(peer), times.fresh)];
  for (const step of steps) await step();
  for (const list of Object.values(times)) list.length = 0;
  await interleaved(steps, samples);
  return { bareMs: median(times.bare), sessionMs: median(times.session), answerMs: median(times.answer), freshMs: median(times.fresh) };
}
