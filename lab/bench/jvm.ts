// What the JVM client peers cost to start, side by side in one run: spawn to initialize result of
// a real fixed-fixture session of each driver, next to a bare start of the same jar with the same
// flags (no arguments: the driver prints its usage line and exits), interleaved so load falls on
// both alike. One driver process runs one session today, so this is what every JVM session pays.
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { median } from "../check/stats.js";
import { driverChildOf } from "../plan/evidence.js";
import type { ClientPeer } from "../plan/peer.js";
import { JAVA_CLIENT, JVM_FLAGS, KOTLIN_014_CLIENT, KOTLIN_CLIENT } from "../peers/jvm/index.js";
import { jvmJar } from "../peers/jvm/build.js";
import { runSession } from "../session/session.js";
import { lifecycleProblems, within } from "../transports/child-process.js";
import { TRANSPORTS } from "../transports/index.js";
import fixedFixture from "../../scenarios/fixed-fixture.js";

const BOUND_MS = 60_000;
const MODULES: [ClientPeer, string][] = [[KOTLIN_014_CLIENT, "kotlin-0.14"], [KOTLIN_CLIENT, "kotlin-0.15"], [JAVA_CLIENT, "java"]];

/** `java FLAGS -jar JAR` with no arguments, spawn to exit (the usage line, exit 2). */
async function bareStart(module: string): Promise<number> {
  const started = performance.now();
  const child = spawn("java", [...JVM_FLAGS, "-jar", jvmJar(module)], { stdio: "ignore" });
  const exited = new Promise<number | null>((resolve, reject) => (child.once("close", resolve), child.once("error", reject)));
  if (!(await within(exited, BOUND_MS))) {
    child.kill("SIGKILL");
    throw new Error(`java -jar ${module}.jar did not exit within ${BOUND_MS} ms`);
  }
  return performance.now() - started;
}

async function sessionStart(client: ClientPeer): Promise<number> {
  const run = await runSession(fixedFixture, TRANSPORTS.stdio!.open, "stdio", { loop: "sdk", client });
  const driver = driverChildOf(run.transportEvidence);
  const problems = [...run.errors, ...lifecycleProblems(run.transportEvidence)];
  if (problems.length || driver?.spawnToInitializedMs === undefined) throw new Error(`bench ${client.name} session failed: ${problems.join("; ")}`);
  return driver.spawnToInitializedMs;
}

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
    await bareStart(module); // warm the page cache and the class-data archive, not measured
    const bare: number[] = [];
    const session: number[] = [];
    for (let i = 0; i < samples; i++) {
      bare.push(await bareStart(module));
      session.push(await sessionStart(peer));
    }
    const [b, s] = [median(bare), median(session)];
    out.push({ peer: peer.name, bareMs: Math.round(b), sessionMs: Math.round(s), ratio: Math.round((s / b) * 100) / 100 });
  }
  return out;
}
