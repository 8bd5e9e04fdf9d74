// The Kotlin SDK's release history (issue 46): every release of io.modelcontextprotocol:kotlin-sdk or
// kotlin-sdk-client-jvm that Maven Central's maven-metadata.xml lists, the lab's one Kotlin driver (lab/peers/jvm/kotlin/) compiled against each
// by one Maven build per release (lab/peers/jvm/kotlin-history/pom.xml) into build/history/kotlin/<version>/,
// at most two compiles at once (installsAtOnce), each under the build lock. A release the driver does not compile against is
// remembered with the compiler's first error line (not retried until the driver or pom changes).
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { BUILD_DIR, PROJECT_ROOT } from "../../paths.js";
import type { ClientPeer } from "../../plan/peer.js";
import { atLeast, compareReleases, type HistorySource, type ReleaseList } from "../../plan/history.js";
import { withBuildLock } from "../build-lock.js";
import { inputsHash, writeStamp } from "../cached-build.js";
import { jvmDriver } from "./index.js";
import { JVM_FLAGS } from "./launch.js";

const HISTORY_DIR = join(BUILD_DIR, "history");
const KOTLIN_HISTORY_DIR = join(HISTORY_DIR, "kotlin");
const LIST_FOR_MS = 24 * 3600_000;
const BUILD_BOUND_MS = 600_000;
const COMPILES_AT_ONCE = 2;
const POM = "lab/peers/jvm/kotlin-history/pom.xml";

/** Maven Central, or the mirror the lab is told to use. */
const repository = () => (process.env.LAB_MAVEN_REPO ?? "https://repo.maven.apache.org/maven2").replace(/\/$/, "");

/** Before 0.7.0 the SDK is one module, kotlin-sdk-jvm; from 0.7.0 the client is kotlin-sdk-client-jvm
 *  (the kotlin-sdk umbrella's pom lists kotlin-sdk-core/-client/-server from 0.7.2; 0.4.0's lists ktor itself). */
export const FIRST_SPLIT = "0.7.0";
/** elicitation arrives in 0.6.0 (core types.kt CreateElicitationRequest; 0.5.0 has none). */
export const FIRST_WITH_ELICITATION = "0.6.0";

export const artifactOf = (version: string) => (atLeast(version, FIRST_SPLIT) ? "kotlin-sdk-client-jvm" : "kotlin-sdk-jvm");

/** The two artefacts whose releases carry a client: the umbrella (one module before 0.7.0) and, from 0.7.0, the
 *  client module, which lists releases the umbrella does not (0.7.0, 0.7.3-0.7.7, 0.8.0). */
const LISTED = ["kotlin-sdk", "kotlin-sdk-client-jvm"] as const;

/** Every release either artefact's maven-metadata.xml lists, newest last; cached for a day under build/history/. */
export function kotlinReleases(now = new Date()): ReleaseList {
  const urls = LISTED.map((a) => `${repository()}/io/modelcontextprotocol/${a}/maven-metadata.xml`);
  const file = join(HISTORY_DIR, `kotlin-releases-${createHash("sha256").update(urls.join(" ")).digest("hex").slice(0, 12)}.json`);
  const cached = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { versions: string[]; listed: string }) : undefined;
  if (cached && now.getTime() - Date.parse(cached.listed) < LIST_FOR_MS) return { ...cached, cached: true };
  const lists = urls.map((url) => {
    const r = spawnSync("curl", ["-fsSL", "--max-time", "20", url], { encoding: "utf8", timeout: 30_000 });
    return r.status === 0 ? [...r.stdout.matchAll(/<version>([0-9]+(?:\.[0-9]+)*)<\/version>/g)].map((m) => m[1]!) : [];
  });
  if (lists.some((l) => l.length === 0)) {
    if (cached) return { ...cached, cached: true };
    return { problem: `no Maven repository: ${urls[lists.findIndex((l) => l.length === 0)]} could not be read, and no list is cached under build/history/` };
  }
  const versions = [...new Set(lists.flat())].sort(compareReleases);
  mkdirSync(HISTORY_DIR, { recursive: true });
  writeStamp(file, JSON.stringify({ versions, listed: now.toISOString() }));
  return { versions, listed: now.toISOString(), cached: false };
}

const dirOf = (version: string) => join(KOTLIN_HISTORY_DIR, version);
export const historyJar = (version: string) => join(dirOf(version), "jvm", "kotlin-history.jar");
const stampOf = (version: string) => join(dirOf(version), "lab-history.txt");
/** What decides a rebuild: the pom, the driver, the toolchain, and the parent pom but for its module list (a new
 *  JVM peer there changes nothing here, and would otherwise recompile every release). */
const INPUTS = { inputs: [POM, "lab/peers/jvm/kotlin"], toolchain: ["mvn", "-v"] };
const PARENT = join(PROJECT_ROOT, "lab/peers/jvm/pom.xml");
const inputsNow = () =>
  createHash("sha256").update(inputsHash(INPUTS)).update(readFileSync(PARENT, "utf8").replace(/<modules>[\s\S]*?<\/modules>/, "")).digest("hex");

/** One Maven run; its whole output (bounded) and whether it passed. */
function mvn(args: readonly string[]): Promise<{ ok: boolean; output: string }> {
  const child = spawn("mvn", [...args], { cwd: PROJECT_ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (chunk: Buffer) => (output = (output + chunk.toString("utf8")).slice(0, 200_000));
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), BUILD_BOUND_MS);
    child.once("error", (e) => (clearTimeout(timer), resolve({ ok: false, output: `mvn: ${e.message}` })));
    child.once("close", (code) => (clearTimeout(timer), resolve({ ok: code === 0, output: code === null ? `no end within ${BUILD_BOUND_MS / 1000} s\n${output}` : output })));
  });
}

/** The compiler's first error line (Kotlin's "e: file:///…" or Maven's "[ERROR] …kt:[l,c] …"), paths made relative. */
export function firstError(output: string): string {
  const lines = output.replace(/\x1b\[[0-9;]*m/g, "").split("\n").map((l) => l.trim());
  const line = lines.find((l) => /\.kt[:[]/.test(l) && /error|^e:|\[ERROR\]/i.test(l)) ?? lines.find((l) => l.startsWith("[ERROR]") && l.length > 8) ?? lines.find((l) => l) ?? "no output";
  return line.replace(/file:\/\//g, "").replaceAll(`${PROJECT_ROOT}/`, "").replace(/^\[ERROR\]\s*/, "").slice(0, 200);
}

async function build(version: string, hash: string): Promise<string | undefined> {
  const dir = dirOf(version);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const args = ["-B", "-q", "-f", POM, `-Dsdk.artifact=${artifactOf(version)}`, `-Dsdk.version=${version}`, `-Ddriver.sources=${join(PROJECT_ROOT, "lab/peers/jvm/kotlin")}`, `-Dlab.build=${dir}`, "package"];
  // offline first (~/.m2 holds a release once fetched); online only when something is not there yet
  let run = await mvn(["-o", ...args]);
  if (!run.ok && /offline|not been downloaded|could not be resolved|Cannot access/i.test(run.output)) run = await mvn(args);
  const why = run.ok ? (existsSync(historyJar(version)) ? undefined : `built, but no ${relative(PROJECT_ROOT, historyJar(version))}`) : `does not compile against the driver: ${firstError(run.output)}`;
  writeStamp(stampOf(version), `${hash}${why ? ` ${why}` : ""}`);
  return why;
}

/** Why the release cannot run here (the compiler's first error line, remembered), or undefined once its jar is built. */
export async function installKotlinRelease(version: string): Promise<string | undefined> {
  const hash = inputsNow();
  const known = (): { why?: string } | undefined => {
    if (!existsSync(stampOf(version))) return undefined;
    const text = readFileSync(stampOf(version), "utf8").trim();
    if (!text.startsWith(hash)) return undefined;
    const why = text.slice(hash.length).trim();
    return why ? { why } : existsSync(historyJar(version)) ? {} : undefined;
  };
  const before = known();
  if (before) return before.why;
  return withBuildLock(`history-kotlin-${version}`, async () => {
    const now = known();
    return now ? now.why : build(version, hash);
  });
}

/** A client peer on the release's jar: a process per session, or a session of its `--host` JVM (Host.kt). No AppCDS archive: one per release would cost a training session each. */
export function kotlinHistoryClient(version: string): ClientPeer {
  const jar = historyJar(version);
  const entry = [...JVM_FLAGS, "-jar", jar];
  return {
    name: `kotlin@${version}`,
    sdk: `io.modelcontextprotocol:${artifactOf(version)} ${version}`,
    loops: ["sdk"],
    meaning: `the Kotlin SDK ${version} coroutine Client as shipped, the lab's Kotlin driver compiled against it`,
    era: "2025-11-25",
    unavailable: () => (existsSync(jar) ? undefined : `no driver built at ${relative(PROJECT_ROOT, jar)}`),
    driver: jvmDriver(() => entry),
  };
}

const noElicitation = `no elicitation before ${FIRST_WITH_ELICITATION} (kotlin-sdk types.kt has no CreateElicitationRequest)`;

/** `history --client kotlin`. */
export const KOTLIN_HISTORY: HistorySource = {
  sdk: "kotlin",
  title: "MCP Kotlin SDK",
  package: "io.modelcontextprotocol:kotlin-sdk",
  which: "Every release Maven Central's maven-metadata.xml lists for io.modelcontextprotocol:kotlin-sdk or kotlin-sdk-client-jvm",
  releases: () => kotlinReleases(),
  install: installKotlinRelease,
  // two Maven/Kotlin compiles at once at the most: each is a JVM of its own, and the machine may have two cores
  installsAtOnce: COMPILES_AT_ONCE,
  client: kotlinHistoryClient,
  behaviours: {
    nested: { from: FIRST_WITH_ELICITATION, why: noElicitation },
    samplingNested: {},
    rootsNested: {},
    ping: { from: FIRST_WITH_ELICITATION, why: noElicitation },
    // the ts1 server numbers its forms from 0 and withdraws #0, then #1: whether the callback sees the abort
    cancel0: { from: FIRST_WITH_ELICITATION, why: `${noElicitation}: the scenario's request id 0 is a form` },
  },
  transports: ["stdio"],
  noTransport: "the Kotlin driver speaks MCP on its own stdin/stdout only",
  installNote: `The lab's Kotlin driver (lab/peers/jvm/kotlin/) compiled by Kotlin 2.4.0 against each release's ${artifactOf("0.7.0")} (kotlin-sdk-jvm before ${FIRST_SPLIT}), one Maven build per release under build/history/kotlin/; its dependencies as the release's pom pins them.`,
};
