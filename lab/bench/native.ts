// What the Go and Rust client drivers cost to start, side by side in one run: spawn to initialize
// result of a real fixed-fixture session of each (the lab's TypeScript server in this process
// answers), next to a bare start of the same binary with an argument it refuses (it prints its
// usage and exits 2: spawn to exit), interleaved so load falls on both alike. The lab's own answer
// to initialize is split out: the rest of the gap is the driver's work before it sends initialize.
import { median } from "../check/stats.js";
import { GO_CLIENT } from "../peers/go/index.js";
import { RMCP_CLIENT } from "../peers/rmcp/index.js";
import type { ClientPeer } from "../plan/peer.js";
import { bareStart, interleaved, ratio, sessionStart } from "./start.js";

export interface NativeStart {
  peer: string;
  binary: string;
  bareMs: number;
  sessionMs: number;
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
    const answers: number[] = [];
    // warm the page cache for both, not measured
    await bareStart(binary, ["--bench-refused"]);
    await sessionStart({ client: peer }, "driver");
    const refused = async () => void bare.push(await bareStart(binary, ["--bench-refused"]));
    const session = async () => {
      const start = await sessionStart({ client: peer }, "driver");
      sessions.push(start.startMs);
      answers.push(start.answerMs);
    };
    await interleaved([refused, session], samples);
    const [b, s] = [median(bare), median(sessions)];
    out.push({ peer: peer.name, binary, bareMs: Math.round(b * 10) / 10, sessionMs: Math.round(s * 10) / 10, answerMs: Math.round(median(answers) * 10) / 10, ratio: ratio(s, b) });
  }
  return out;
}
