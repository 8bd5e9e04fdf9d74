// The JVM drivers' AppCDS archives (launch.ts passes them): after the jars are built, each launch
// runs one real training session (the prefetch scenario's plan: tools/list, two calls, an elicitation
// callback) against the real ts1 stdio child, the two processes' stdin and stdout joined here, with
// -XX:ArchiveClassesAtExit; the JVM writes the classes the session loaded when it exits. A build of
// its own after the jars' (builds.ts): its stamp covers the jars and this file, so a rebuilt jar makes
// a new archive, and a failed training is one line while the peers still run, without an archive.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { PROJECT_ROOT } from "../../paths.js";
import { CALL_TIMEOUT_MS } from "../../plan/bounds.js";
import { reentrancyScenario, sessionPlan } from "../../plan/scenario.js";
import { VALID_ANSWER } from "../../plan/form.js";
import { within } from "../../transports/child-process.js";
import type { CachedBuild } from "../cached-build.js";
import { jvmJar } from "./build.js";
import { JVM_FLAGS, JVM_LAUNCHES, JVM_LOG_TO_STDERR, jvmArchive, jvmEntry, type JvmLaunch } from "./launch.js";

/** The training session: prefetch's shape (tools/list, a call whose form is answered, a recovery
 *  call), built here from the plan's own parts, since peers/ stands below scenarios/. */
const TRAINING = reentrancyScenario("cds-training", "the JVM archive's training session", {
  needTool: "calculate",
  answer: { action: "accept", content: { ...VALID_ANSWER } },
  otherwise: { action: "cancel" },
});

/** a training session: a JVM start, a short session and the archive's dump */
const SESSION_BOUND_MS = 60_000;
/** the server after the driver has gone: its stdin has ended */
const SERVER_EXIT_BOUND_MS = 10_000;

const exitOf = (child: ChildProcess) =>
  new Promise<number | string>((resolve) => {
    child.once("error", (error) => resolve(error.message));
    child.once("close", (code, signal) => resolve(code ?? signal ?? "?"));
  });

/** One training session for a launch; the archive is renamed into place only when whole. */
export async function trainArchive(launch: JvmLaunch, archive = jvmArchive(launch.name)): Promise<void> {
  const { TS1_SERVER } = await import("../ts1/index.js");
  const server = TS1_SERVER.child!;
  await server.prepare?.();
  const dir = mkdtempSync(join(tmpdir(), "jvm-cds-"));
  const plan = join(dir, "plan.json");
  const partial = `${archive}.${process.pid}.tmp`;
  writeFileSync(plan, JSON.stringify(sessionPlan(TRAINING, CALL_TIMEOUT_MS)));
  // the JVM's own log lines (the dump's skipped classes) go to stderr: its stdout is the MCP stream
  const flags = [...JVM_FLAGS, `-XX:ArchiveClassesAtExit=${partial}`, ...JVM_LOG_TO_STDERR];
  const args = [...flags, ...jvmEntry(launch), "--plan", plan, "--events", join(dir, "events.jsonl")];
  const { command, args: serverArgs } = server.command({ eventsFile: undefined, faults: [] });
  const driver = spawn("java", args, { cwd: PROJECT_ROOT, stdio: ["pipe", "pipe", "pipe"] });
  const child = spawn(command, [...serverArgs], { cwd: PROJECT_ROOT, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  for (const p of [driver, child]) {
    p.stderr!.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString("utf8")).slice(-3000)));
    p.stdin!.on("error", () => undefined); // the other side gone mid-line: its exit status says why
  }
  // the driver's end of the session ends the server's stdin (pipe's default)
  driver.stdout!.pipe(child.stdin!);
  child.stdout!.pipe(driver.stdin!);
  const [driverExit, serverExit] = [exitOf(driver), exitOf(child)];
  try {
    if (!(await within(driverExit, SESSION_BOUND_MS))) throw new Error(`the training session did not end within ${SESSION_BOUND_MS} ms`);
    if (!(await within(serverExit, SERVER_EXIT_BOUND_MS))) throw new Error(`the ts1 child did not exit within ${SERVER_EXIT_BOUND_MS} ms of the session's end`);
    const [d, s] = [await driverExit, await serverExit];
    if (d !== 0 || s !== 0) throw new Error(`the training session failed (driver exit ${d}, ts1 child exit ${s})`);
    if (!statSync(partial, { throwIfNoEntry: false })?.size) throw new Error("the JVM wrote no archive");
    renameSync(partial, archive);
  } catch (error) {
    throw new Error(`${launch.name}: ${(error as Error).message}:\n${stderr}`);
  } finally {
    for (const p of [driver, child]) if (p.exitCode === null && p.signalCode === null) p.kill("SIGKILL");
    rmSync(partial, { force: true });
    rmSync(dir, { recursive: true, force: true });
  }
}

export const JVM_CDS_BUILD: CachedBuild = {
  name: "jvm-cds",
  toolchain: ["java", "-version"],
  inputs: [...new Set(JVM_LAUNCHES.map((l) => relative(PROJECT_ROOT, jvmJar(l.module)))), "lab/peers/jvm/cds.ts", "lab/peers/jvm/launch.ts"],
  outputs: JVM_LAUNCHES.map((l) => jvmArchive(l.name)),
  steps: [],
  // one JVM at a time: the machine is small, and each session's start is what the archive is for
  finish: async () => {
    for (const launch of JVM_LAUNCHES) await trainArchive(launch);
  },
};
