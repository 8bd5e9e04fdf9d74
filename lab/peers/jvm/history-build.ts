// The JVM histories' one mechanism (issue 46; the Kotlin one, history.ts, and the Java one, java-history.ts):
// releases read from Maven Central's maven-metadata.xml (cached for a day, history-list.ts), and the lab's driver
// compiled against each release by one Maven build into build/history/<sdk>/<version>/, under the build lock. A
// stamp remembers the inputs' hash and, for a release the driver does not build against, the first error line,
// so that release is not retried until the driver, its pom or the toolchain changes.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { PROJECT_ROOT } from "../../paths.js";
import type { ReleaseList } from "../../plan/history.js";
import { compareReleases } from "../../plan/history.js";
import { withBuildLock } from "../build-lock.js";
import { inputsHash, runForOutput, writeStamp } from "../cached-build.js";
import { cachedReleaseList, HISTORY_DIR } from "../history-list.js";

export const BUILD_BOUND_MS = 600_000;
/** two Maven compiles at once at the most: each is a JVM of its own, and the machine may have two cores */
export const COMPILES_AT_ONCE = 2;

/** Maven Central, or the mirror the lab is told to use. */
export const mavenRepository = () => (process.env.LAB_MAVEN_REPO ?? "https://repo.maven.apache.org/maven2").replace(/\/$/, "");

/** Every release (plain numbers: no -M2, -RC1) the artefacts' maven-metadata.xml list ("group:artifact"), newest last. */
export function mavenReleases(sdk: string, artefacts: readonly string[], now = new Date()): ReleaseList {
  const urls = artefacts.map((a) => `${mavenRepository()}/${a.split(":")[0]!.replaceAll(".", "/")}/${a.split(":")[1]}/maven-metadata.xml`);
  return cachedReleaseList(
    sdk,
    urls.join(" "),
    () => {
      const lists = urls.map((url) => {
        const r = spawnSync("curl", ["-fsSL", "--max-time", "20", url], { encoding: "utf8", timeout: 30_000 });
        return r.status === 0 ? [...r.stdout.matchAll(/<version>([0-9]+(?:\.[0-9]+)*)<\/version>/g)].map((m) => m[1]!) : [];
      });
      const empty = lists.findIndex((l) => l.length === 0);
      if (empty >= 0) return { problem: `no Maven repository: ${urls[empty]} could not be read, and no list is cached under build/history/` };
      return [...new Set(lists.flat())].sort(compareReleases);
    },
    now,
  );
}

/** One SDK's per-release builds. */
export interface MavenHistoryBuild {
  /** build/history/<sdk>/<version>/, and the build lock's name */
  sdk: string;
  /** the per-release pom, from the project's root */
  pom: string;
  /** the driver's sources, from the project's root */
  driver: string;
  /** the jar the pom's shade step writes: <dir>/jvm/<jar> */
  jar: string;
  /** the -D properties of one release's build (besides -Dlab.build) */
  properties(version: string, dir: string): string[];
  /** anything else that decides a rebuild, as text (a source rewrite's rule) */
  also?: string;
}

export const historyDirOf = (b: MavenHistoryBuild, version: string) => join(HISTORY_DIR, b.sdk, version);
export const historyJarOf = (b: MavenHistoryBuild, version: string) => join(historyDirOf(b, version), "jvm", b.jar);
const stampOf = (b: MavenHistoryBuild, version: string) => join(historyDirOf(b, version), "lab-history.txt");

/** What decides a rebuild: the pom, the driver, the toolchain, anything `also` says, and the parent pom but for its
 *  module list (a new JVM peer there changes nothing here, and would otherwise recompile every release). */
const PARENT = join(PROJECT_ROOT, "lab/peers/jvm/pom.xml");
function inputsNow(b: MavenHistoryBuild): string {
  const hash = createHash("sha256").update(inputsHash({ inputs: [b.pom, b.driver], toolchain: ["mvn", "-v"] }));
  return hash.update(readFileSync(PARENT, "utf8").replace(/<modules>[\s\S]*?<\/modules>/, "")).update(b.also ?? "").digest("hex");
}

/** One Maven run, bounded; its output and whether it passed. */
export const mvn = (args: readonly string[]) => runForOutput("mvn", args, { boundMs: BUILD_BOUND_MS });

/** The build's first error line, paths made relative: a compiler's (Kotlin's "e: file:///…", Maven's "[ERROR] …kt:[l,c] …"
 *  or "…java:[l,c] …", with javac's "symbol:" line after it), else a dependency Maven could not find, else the first [ERROR]. */
export function firstError(output: string): string {
  const lines = output.replace(/\x1b\[[0-9;]*m/g, "").split("\n").map((l) => l.trim());
  const at = lines.findIndex((l) => /\.(kt|java)[:[]/.test(l) && /error|^e:|\[ERROR\]/i.test(l));
  // Maven says "Could not find artifact A in R", or "A was not found in R" once that miss is cached in ~/.m2
  const missing = lines.map((l) => /Could not find artifact (\S+)|(\S+:jar:\S+) was not found in/.exec(l)).find((m) => m)?.slice(1).find((a) => a);
  let line = at >= 0 ? lines[at]! : missing ? `no ${missing} in the repository` : (lines.find((l) => l.startsWith("[ERROR]") && l.length > 8) ?? lines.find((l) => l) ?? "no output");
  const symbol = at >= 0 ? /^(?:\[ERROR\]\s*)?symbol:\s*(.*)$/.exec(lines[at + 1] ?? "") : null;
  if (symbol) line = `${line}: ${symbol[1]}`;
  return line.replace(/file:\/\//g, "").replaceAll(`${PROJECT_ROOT}/`, "").replace(/^\[ERROR\]\s*/, "").slice(0, 200);
}

async function build(b: MavenHistoryBuild, version: string, hash: string): Promise<string | undefined> {
  const dir = historyDirOf(b, version);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const args = ["-B", "-q", "-f", b.pom, ...b.properties(version, dir), `-Dlab.build=${dir}`, "package"];
  // offline first (~/.m2 holds a release once fetched); online only when something is not there yet
  let run = await mvn(["-o", ...args]);
  if (!run.ok && /offline|not been downloaded|could not be resolved|Cannot access/i.test(run.output)) run = await mvn(args);
  const jar = historyJarOf(b, version);
  const error = firstError(run.output);
  const fails = /^no \S+ in the repository$/.test(error) ? "does not resolve" : "does not compile against the driver";
  const why = run.ok ? (existsSync(jar) ? undefined : `built, but no ${relative(PROJECT_ROOT, jar)}`) : `${fails}: ${error}`;
  writeStamp(stampOf(b, version), `${hash}${why ? ` ${why}` : ""}`);
  return why;
}

/** Why the release cannot run here (the build's first error line, remembered), or undefined once its jar is built. */
export async function installMavenRelease(b: MavenHistoryBuild, version: string): Promise<string | undefined> {
  const hash = inputsNow(b);
  const known = (): { why?: string } | undefined => {
    if (!existsSync(stampOf(b, version))) return undefined;
    const text = readFileSync(stampOf(b, version), "utf8").trim();
    if (!text.startsWith(hash)) return undefined;
    const why = text.slice(hash.length).trim();
    return why ? { why } : existsSync(historyJarOf(b, version)) ? {} : undefined;
  };
  const before = known();
  if (before) return before.why;
  return withBuildLock(`history-${b.sdk}-${version}`, async () => {
    const now = known();
    return now ? now.why : build(b, version, hash);
  });
}
