// What the Go and Rust client drivers cost to start, side by side in one run: spawn to initialize
// result of a real fixed-fixture session of each (the lab's TypeScript server in this process
// answers) as the lab runs it, a session of the driver's --host process (lab/transports/hosts.md:
// the request to the host is the "spawn"), and a fresh process beside it, next to a bare start of
// the same binary with an argument it refuses (it prints its usage and exits 2: spawn to exit),
// interleaved so load falls on all alike. The lab's own answer to initialize is split out.
import { median } from "../check/stats.js";
import { GO_CLIENT } from "../peers/go/index.js";
import { RMCP_CLIENT } from "../peers/rmcp/index.js";
import type { ClientPeer } from "../plan/peer.js";
import { freshClient } from "../transports/forked.js";
import { bareStart, interleaved, ratio, sessionStart } from "./start.js";

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
    const bare: number[] = [];
    const sessions: number[] = [];
    const fresh: number[] = [];
    const answers: number[] = [];
    // warm the page cache and start the host, not measured
    await bareStart(binary, ["--bench-refused"]);
    await sessionStart({ client: peer }, "driver");
    await sessionStart({ client: freshClient(peer) }, "driver");
    const refused = async () => void bare.push(await bareStart(binary, ["--bench-refused"]));
    const session = async () => {
      const start = await sessionStart({ client: peer }, "driver");
      sessions.push(start.startMs);
      answers.push(start.answerMs);
    };
    const freshSession = async () => void fresh.push((await sessionStart({ client: freshClient(peer) }, "driver")).startMs);
    await interleaved([refused, session, freshSession], samples);
    const [b, s] = [median(bare), median(sessions)];
    const tenth = (ms: number) => Math.round(ms * 10) / 10;
    out.push({ peer: peer.name, binary, bareMs: tenth(b), sessionMs: tenth(s), freshMs: tenth(median(fresh)), answerMs: tenth(median(answers)), ratio: ratio(s, b) });
  }
  return out;
}
