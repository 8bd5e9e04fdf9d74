// What the JVM client peers cost to start, side by side in one run: spawn to initialize result of
// a real fixed-fixture session of each driver, next to a bare start of the same jar with the same
// flags (no arguments: the driver prints its usage line and exits), interleaved so load falls on
// both alike. The lab runs each session in the driver's --host process (lab/transports/hosts.md; the
// request to the host is the "spawn"): the JVM starts once per lab process; a fresh JVM per session
// (LAB_FRESH=1) is measured beside it.
// Both starts take the launch's flags (launch.ts), its AppCDS archive with them when the set-up made
// one; whether the JVM used it is read from its own class-loading log, not assumed from the flag.
import { spawn } from "node:child_process";
import type { ClientPeer } from "../plan/peer.js";
import { JAVA_CLIENT, JAVA_SYNC_CLIENT, KOTLIN_014_CLIENT, KOTLIN_CLIENT } from "../peers/jvm/index.js";
import { jvmEntry, jvmFlags, jvmLaunch, type JvmLaunch } from "../peers/jvm/launch.js";
import { within } from "../transports/child-process.js";
import { bareStart, driverStarts, ratio } from "./start.js";

const BOUND_MS = 60_000;
const PEERS: ClientPeer[] = [KOTLIN_014_CLIENT, KOTLIN_CLIENT, JAVA_CLIENT, JAVA_SYNC_CLIENT];

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
  /** as the lab runs it: a session of the driver's host */
  sessionMs: number;
  /** a fresh JVM for the session, beside it */
  freshMs: number;
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
    const t = await driverStarts(peer, bare, samples);
    out.push({ peer: peer.name, bareMs: Math.round(t.bareMs), sessionMs: Math.round(t.sessionMs), freshMs: Math.round(t.freshMs), ratio: ratio(t.sessionMs, t.bareMs), archive });
  }
  return out;
}
