// The Java SDK's release history (issue 46): the newest patch of every minor of io.modelcontextprotocol.sdk:mcp
// that Maven Central's maven-metadata.xml lists, the lab's Java driver (lab/peers/jvm/java/, the `java` peer's
// McpAsyncClient entry lab.Main) compiled against each by one Maven build per release
// (lab/peers/jvm/java-history/pom.xml, history-build.ts) into build/history/java/<version>/, two at once at most.
// Releases whose source cannot be read here are left out, each with its reason (LEFT_OUT).
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { PROJECT_ROOT } from "../../paths.js";
import type { ClientPeer } from "../../plan/peer.js";
import { atLeast, compareReleases, formBehaviours, type HistorySource, type ReleaseList } from "../../plan/history.js";
import { COMPILES_AT_ONCE, historyJarOf, installMavenRelease, mavenReleases, type MavenHistoryBuild } from "./history-build.js";
import { jvmDriver } from "./index.js";
import { JVM_FLAGS } from "./launch.js";

const DRIVER = "lab/peers/jvm/java/src/main/java";

/** Releases the expectation cannot be written for, so the history leaves them out (the newest patch left of the
 *  minor stands in for it, if any). */
export const LEFT_OUT: Readonly<Record<string, string>> = {
  "1.1.5": "no mcp-core-1.1.5-sources.jar on Maven Central (404), so 1.1.4 stands for 1.1",
  "2.1.0": "no mcp-core-2.1.0-sources.jar (404, as lab/peers/held-back.ts says) and no upstream source at its tag to read (the one copy found is a 2.1.0-SNAPSHOT)",
  "2.2.0": "no mcp-core-2.2.0-sources.jar (404, as lab/peers/held-back.ts says) and no upstream source at its tag to read",
};

/** The newest patch of each minor, the releases LEFT_OUT not counted; newest last. */
export function newestPatches(versions: readonly string[]): string[] {
  const minor = (v: string) => v.split(".").slice(0, 2).join(".");
  const kept = versions.filter((v) => !(v in LEFT_OUT));
  return kept.filter((v) => !kept.some((w) => minor(w) === minor(v) && compareReleases(w, v) > 0)).sort(compareReleases);
}

export const javaReleases = (now = new Date()): ReleaseList => {
  const all = mavenReleases("java", ["io.modelcontextprotocol.sdk:mcp"], now);
  return "problem" in all ? all : { ...all, versions: newestPatches(all.versions) };
};

/** The first release with the SDK's own JSON mapper (io.modelcontextprotocol.json.McpJsonMapper, mcp-json 0.13.1
 *  json/McpJsonMapper.java:14, which mcp-core 0.13.1 brings, mcp-core-0.13.1.pom:37), which
 *  the driver reads and writes JSON through (lab/peers/jvm/java Json.java): it names no JSON library, so Jackson 2 (0.x, mcp-json-jackson2,
 *  mcp-0.13.1.pom:37) or 3 (1.0.2 on, mcp-json-jackson3) is the release's own. Before it the SDK is one artifact with no
 *  mapper interface (mcp 0.12.1), and the driver does not compile. */
export const FIRST_WITH_MAPPER = "0.13.0";
/** 1.0 moved the default mapper to McpJsonDefaults.getMapper() (mcp-core 1.0.2 json/McpJsonDefaults.java:54); in 0.x it is
 *  the interface's own static McpJsonMapper.getDefault() (mcp-json 0.13.1 and 0.17.2 json/McpJsonMapper.java:96). */
export const FIRST_DEFAULTS = "1.0.0";
/** 2.0.0 made ElicitRequest a sealed interface over ElicitFormRequest and ElicitUrlRequest (mcp-core 2.0.1
 *  spec/McpSchema.java:4711-4716, :4795); before it ElicitRequest is the form record (1.1.4 McpSchema.java:2040,
 *  0.17.2 the same record), what McpClient.AsyncSpec.elicitation takes (1.1.4 client/McpClient.java:669). */
export const FIRST_FORM_REQUEST = "2.0.0";
/** elicitation arrives in 0.11.0: mcp 0.10.0's McpSchema has no ElicitRequest. */
export const FIRST_WITH_ELICITATION = "0.11.0";
/** The elicitation capability's form and url modes arrive in 0.17 (mcp-core 0.17.2 McpSchema.ClientCapabilities
 *  .Elicitation(Form, Url); 0.16.0's record has no component and its mapper refuses "form"). */
export const FIRST_ELICITATION_MODES = "0.17.0";
/** The rewrites of the driver for the releases before 2.0, each for the releases before its `before`: the form
 *  request's old name, the default mapper's 0.x home, and elicitation declared without modes (Json.ELICITATION_MODES);
 *  nothing else. */
export const SHIMS = [
  { from: "McpSchema.ElicitFormRequest", to: "McpSchema.ElicitRequest", before: FIRST_FORM_REQUEST },
  { from: "McpJsonDefaults.getMapper()", to: "McpJsonMapper.getDefault()", before: FIRST_DEFAULTS },
  { from: "ELICITATION_MODES = true", to: "ELICITATION_MODES = false", before: FIRST_ELICITATION_MODES },
] as const;
const shimsOf = (version: string) => SHIMS.filter((s) => !atLeast(version, s.before));

/** The driver's sources for the release: the lab's own, or (0.13-1.x) a copy under the build folder with its SHIMS applied. */
export function driverSources(version: string, dir: string): string {
  const shims = shimsOf(version);
  if (shims.length === 0 || !atLeast(version, FIRST_WITH_MAPPER)) return join(PROJECT_ROOT, DRIVER);
  const copy = join(dir, "driver");
  cpSync(join(PROJECT_ROOT, DRIVER), copy, { recursive: true });
  for (const file of readdirSync(join(copy, "lab")).filter((f) => f.endsWith(".java"))) {
    const text = readFileSync(join(copy, "lab", file), "utf8");
    writeFileSync(join(copy, "lab", file), shims.reduce((t, s) => t.replaceAll(s.from, s.to), text));
  }
  return copy;
}

const JAVA_BUILD: MavenHistoryBuild = {
  sdk: "java",
  pom: "lab/peers/jvm/java-history/pom.xml",
  driver: DRIVER,
  jar: "java-history.jar",
  properties: (version, dir) => [`-Dsdk.version=${version}`, `-Ddriver.sources=${driverSources(version, dir)}`],
  also: `${SHIMS.map((s) => `${s.from} ${s.to} before ${s.before}`).join("; ")} from ${FIRST_WITH_MAPPER}`,
};
export const javaHistoryJar = (version: string) => historyJarOf(JAVA_BUILD, version);
export const installJavaRelease = (version: string): Promise<string | undefined> => installMavenRelease(JAVA_BUILD, version);

/** The `java` peer's client (lab.Main, the jar's Main-Class) on the release's jar: a process per session, or a
 *  session of its `--host` JVM (Host.java). No AppCDS archive: one per release would cost a training session each. */
export function javaHistoryClient(version: string): ClientPeer {
  const jar = javaHistoryJar(version);
  return {
    name: `java@${version}`,
    sdk: `io.modelcontextprotocol.sdk:mcp ${version}`,
    loops: ["sdk"],
    meaning: `the Java SDK ${version} McpAsyncClient as shipped, the lab's Java driver (the java peer's) compiled against it`,
    era: "2025-11-25",
    unavailable: () => (existsSync(jar) ? undefined : `no driver built at ${relative(PROJECT_ROOT, jar)}`),
    driver: jvmDriver(() => [...JVM_FLAGS, "-jar", jar]),
  };
}

const noElicitation = `no elicitation before ${FIRST_WITH_ELICITATION} (mcp 0.10.0 spec/McpSchema.java has no ElicitRequest)`;
const leftOut = Object.entries(LEFT_OUT).map(([v, why]) => `${v}, ${why}`).join("; ");

/** `history --client java`. */
export const JAVA_HISTORY: HistorySource = {
  sdk: "java",
  title: "MCP Java SDK",
  package: "io.modelcontextprotocol.sdk:mcp",
  which: `The newest patch of every minor Maven Central's maven-metadata.xml lists for io.modelcontextprotocol.sdk:mcp (no milestones), the McpAsyncClient the java peer runs. Left out: ${leftOut}.`,
  releases: () => javaReleases(),
  install: installJavaRelease,
  installsAtOnce: COMPILES_AT_ONCE,
  client: javaHistoryClient,
  behaviours: formBehaviours(FIRST_WITH_ELICITATION, noElicitation),
  transports: ["stdio"],
  noTransport: "the Java driver speaks MCP on its own stdin/stdout only",
  installNote: `The lab's Java driver (lab/peers/jvm/java/, the java peer's lab.Main) compiled by javac for Java 17 against each release of io.modelcontextprotocol.sdk:mcp, one Maven build per release under build/history/java/; before ${FIRST_FORM_REQUEST} a copy of it with ${SHIMS[0].from} read as ${SHIMS[0].to} (the form request's older name), before ${FIRST_DEFAULTS} also ${SHIMS[1].from} as ${SHIMS[1].to} (the 0.x default mapper), and before ${FIRST_ELICITATION_MODES} elicitation declared as {} (${SHIMS[2].to}: that record has no form or url mode); its dependencies as the release's pom pins them (Jackson 2 before 1.0, Jackson 3 from 1.0, which the driver reaches only through the SDK's mapper); before ${FIRST_WITH_MAPPER} the driver does not compile (no mapper interface).`,
};
