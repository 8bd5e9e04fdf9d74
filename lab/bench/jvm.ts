// What the JVM client peers cost to start, side by side in one run: spawn to initialize result of
// a real fixed-fixture session of each driver, next to a bare start of the same jar with the same
// flags (no arguments: the driver prints its usage line and exits), interleaved so load falls on
// both alike. One driver process runs one session today, so this is what every JVM session pays.
// Both starts take the launch's flags (launch.ts), its AppCDS archive with them when the set-up made
// one; whether the JVM used it is read from its own class-loading log, not assumed from the flag.
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { median } from "../check/stats.js";
import { driverChildOf } from "../plan/evidence.js";
import type { ClientPeer } from "../plan/peer.js";
import { JAVA_CLIENT, KOTLIN_014_CLIENT, KOTLIN_CLIENT } from "../peers/jvm/index.js";
import { jvmEntry, jvmFlags, jvmLaunch, type JvmLaunch } from "../peers/jvm/launch.js";
import { runSession } from "../session/session.js";
import { lifecycleProblems, within } from "../transports/child-process.js";
import { TRANSPORTS } from "../transports/index.js";
import fixedFixture from "../../scenarios/fixed-fixture.js";

const BOUND_MS = 60_000;
const PEERS: ClientPeer[] = [KOTLIN_014_CLIENT, KOTLIN_CLIENT, JAVA_CLIENT];

/** `java FLAGS -jar JAR` with no arguments, spawn to exit (the usage line, exit 2); `extra` flags' stdout kept. */
async function bareStart(launch: JvmLaunch, extra: string[] = []): Promise<{ ms: number; stdout: string }> {
  const started = performance.now();
  const child = spawn("java", [...jvmFlags(launch), ...extra, ...jvmEntry(launch)], { stdio: ["ignore", "pipe", "ignore"] });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve, reject) => (child.once("close", resolve), child.once("error", reject)));
  if (!(await within(exited, BOUND_MS))) {
    child.kill("SIGKILL");
    throw new Error(`java ${jvmEntry(launch).join(" ")} did not exit within ${BOUND_MS} ms`);
  }
  return { ms: performance.now() - started, stdout };
}

/** Whether the JVM loaded the driver's classes from the launch's archive: "source: shared objects file (top)". */
async function archiveUsed(launch: JvmLaunch): Promise<boolean> {
  const { stdout } = await bareStart(launch, ["-Xlog:class+load=info:stdout"]);
  return stdout.includes("shared objects file (top)");
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
    const bare: number[] = [];
    const session: number[] = [];
    for (let i = 0; i < samples; i++) {
      bare.push((await bareStart(launch)).ms);
      session.push(await sessionStart(peer));
    }
    const [b, s] = [median(bare), median(session)];
    out.push({ peer: peer.name, bareMs: Math.round(b), sessionMs: Math.round(s), ratio: Math.round((s / b) * 100) / 100, archive });
  }
  return out;
}
