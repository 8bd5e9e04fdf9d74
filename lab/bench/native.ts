// What the Go and Rust client drivers cost to start, side by side in one run: spawn to initialize
// result of a real fixed-fixture session of each (the lab's TypeScript server in this process
// answers) as the lab runs it, a session of the driver's --host process (lab/transports/hosts.md:
// the request to the host is the "spawn"), and a fresh process beside it, next to a bare start of
// the same binary with an argument it refuses (it prints its usage and exits 2: spawn to exit),
// interleaved so load falls on all alike. The lab's own answer to initialize is split out.
import { GO_CLIENT } from "../peers/go/index.js";
import { RMCP_CLIENT } from "../peers/rmcp/index.js";
import type { ClientPeer } from "../plan/peer.js";
import { bareStart, driverStarts, ratio } from "./start.js";

export interface NativeStart {
  peer: string;
  binary: string;
  bareMs: number;
  /** as the lab runs it: a session of the driver's host */
  sessionMs: number;
  /** a fresh process for the session (LAB_FRESH=1), beside it */
  freshMs: number;
  /** of the session start, the lab's answer: initialize request on the wire to its result */
  answerMs: number;
  ratio: number;
}

/** The program a driver peer runs (its own command, with placeholder files: only the path is used). */
function binaryOf(peer: ClientPeer): string {
  if (peer.driver.kind !== "process") throw new Error(`bench: ${peer.name} is not a driver program`);
  return peer.driver.command("plan.json", "events.jsonl").command;
}

/** The go and rmcp clients that can run here; the others are left out (peers says why). */
export async function benchNative(samples = 9): Promise<NativeStart[]> {
  const out: NativeStart[] = [];
  for (const peer of [GO_CLIENT, RMCP_CLIENT]) {
    if (peer.unavailable()) continue;
    const binary = binaryOf(peer);
    const t = await driverStarts(peer, () => bareStart(binary, ["--bench-refused"]), samples);
    const tenth = (ms: number) => Math.round(ms * 10) / 10;
    out.push({ peer: peer.name, binary, bareMs: tenth(t.bareMs), sessionMs: tenth(t.sessionMs), freshMs: tenth(t.freshMs), answerMs: tenth(t.answerMs), ratio: ratio(t.sessionMs, t.bareMs) });
  }
  return out;
}
