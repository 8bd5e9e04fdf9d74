// What the JVM client peers cost to start, side by side in one run: spawn to initialize result of
// a real fixed-fixture session of each driver, next to a bare start of the same jar with the same
// flags (no arguments: the driver prints its usage line and exits), interleaved so load falls on
// both alike. One driver process runs one session today, so this is what every JVM session pays.
// Both starts take the launch's flags (launch.ts), its AppCDS archive with them when the set-up made
// one; whether the JVM used it is read from its own class-loading log, not assumed from the flag.
import { spawn } from "node:child_process";
import { median } from "../check/stats.js";
import type { ClientPeer } from "../plan/peer.js";
import { JAVA_CLIENT, KOTLIN_014_CLIENT, KOTLIN_CLIENT } from "../peers/jvm/index.js";
import { jvmEntry, jvmFlags, jvmLaunch, type JvmLaunch } from "../peers/jvm/launch.js";
import { within } from "../transports/child-process.js";
import { bareStart, interleaved, ratio, sessionStart } from "./start.js";

const BOUND_MS = 60_000;
const PEERS: ClientPeer[] = [KOTLIN_014_CLIENT, KOTLIN_CLIENT, JAVA_CLIENT];

/** Whether the JVM loaded the driver's classes from the launch's archive: "source: shared objects file (top)". */
async function archiveUsed(launch: JvmLaunch): Promise<boolean> {
  const child = spawn("java", [...jvmFlags(launch), "-Xlog:class+load=info:stdout", ...jvmEntry(launch)], { stdio: ["ignore", "pipe", "ignore"] });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve, reject) => (child.once("close", resolve), child.once("error", reject)));
  if (!(await within(exited, BOUND_MS))) {
    child.kill("SIGKILL");
    throw new Error(`java ${jvmEntry(launch).join(" ")} did not exit within ${BOUND_MS} ms`);
  }
  return stdout.includes("shared objects file (top)");
}

export interface JvmStart {
  peer: string;
  bareMs: number;
  sessionMs: number;
  ratio: number;
  /** the JVM loaded classes from the launch's AppCDS archive (build/jvm/<peer>.jsa) */
  archive: boolean;
}

/** Each JVM peer that can run here; the others are left out (peers says why). */
export async function benchJvm(samples = 5): Promise<JvmStart[]> {
  const out: JvmStart[] = [];
  for (const peer of PEERS) {
    if (peer.unavailable()) continue;
    const launch = jvmLaunch(peer.name);
    const archive = await archiveUsed(launch); // and warms the page cache and the archive, not measured
    // `java FLAGS -jar JAR` with no arguments: the usage line, exit 2
    const bare = () => bareStart("java", [...jvmFlags(launch), ...jvmEntry(launch)]);
    const bareMs: number[] = [];
    const sessionMs: number[] = [];
    await interleaved([async () => void bareMs.push(await bare()), async () => void sessionMs.push((await sessionStart({ client: peer }, "driver")).startMs)], samples);
    const [b, s] = [median(bareMs), median(sessionMs)];
    out.push({ peer: peer.name, bareMs: Math.round(b), sessionMs: Math.round(s), ratio: ratio(s, b), archive });
  }
  return out;
}
