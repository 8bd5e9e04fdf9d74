// What the JVM client peers cost to start, side by side in one run: spawn to initialize result of
// a real fixed-fixture session of each driver, next to a bare start of the same jar with the same
// flags (no arguments: the driver prints its usage line and exits), interleaved so load falls on
// both alike. One driver process runs one session today, so this is what every JVM session pays.
import { median } from "../check/stats.js";
import type { ClientPeer } from "../plan/peer.js";
import { JAVA_CLIENT, JVM_FLAGS, KOTLIN_014_CLIENT, KOTLIN_CLIENT } from "../peers/jvm/index.js";
import { jvmJar } from "../peers/jvm/build.js";
import { bareStart, interleaved, ratio, sessionStart } from "./start.js";

const MODULES: [ClientPeer, string][] = [[KOTLIN_014_CLIENT, "kotlin-0.14"], [KOTLIN_CLIENT, "kotlin-0.15"], [JAVA_CLIENT, "java"]];

export interface JvmStart {
  peer: string;
  bareMs: number;
  sessionMs: number;
  ratio: number;
}

/** Each JVM peer that can run here; the others are left out (peers says why). */
export async function benchJvm(samples = 5): Promise<JvmStart[]> {
  const out: JvmStart[] = [];
  for (const [peer, module] of MODULES) {
    if (peer.unavailable()) continue;
    // `java FLAGS -jar JAR` with no arguments: the usage line, exit 2
    const bare = () => bareStart("java", [...JVM_FLAGS, "-jar", jvmJar(module)]);
    await bare(); // warm the page cache and the class-data archive, not measured
    const bareMs: number[] = [];
    const sessionMs: number[] = [];
    await interleaved([async () => void bareMs.push(await bare()), async () => void sessionMs.push((await sessionStart({ client: peer }, "driver")).startMs)], samples);
    const [b, s] = [median(bareMs), median(sessionMs)];
    out.push({ peer: peer.name, bareMs: Math.round(b), sessionMs: Math.round(s), ratio: ratio(s, b) });
  }
  return out;
}
