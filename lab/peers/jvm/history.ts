// The Kotlin SDK's release history (issue 46): every release of io.modelcontextprotocol:kotlin-sdk or
// kotlin-sdk-client-jvm that Maven Central's maven-metadata.xml lists, the lab's one Kotlin driver (lab/peers/jvm/kotlin/) compiled against each
// by one Maven build per release (lab/peers/jvm/kotlin-history/pom.xml) into build/history/kotlin/<version>/ (history-build.ts),
// at most two compiles at once (installsAtOnce), each under the build lock. A release the driver does not compile against is
// remembered with the compiler's first error line (not retried until the driver or pom changes).
import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import { PROJECT_ROOT } from "../../paths.js";
import type { ClientPeer } from "../../plan/peer.js";
import { atLeast, formBehaviours, type HistorySource, type ReleaseList } from "../../plan/history.js";
import { COMPILES_AT_ONCE, historyJarOf, installMavenRelease, mavenReleases, type MavenHistoryBuild } from "./history-build.js";
import { jvmDriver } from "./index.js";
import { JVM_FLAGS } from "./launch.js";

export { firstError } from "./history-build.js";

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
export const kotlinReleases = (now = new Date()): ReleaseList => mavenReleases("kotlin", LISTED.map((a) => `io.modelcontextprotocol:${a}`), now);

const KOTLIN_BUILD: MavenHistoryBuild = {
  sdk: "kotlin",
  pom: "lab/peers/jvm/kotlin-history/pom.xml",
  driver: "lab/peers/jvm/kotlin",
  jar: "kotlin-history.jar",
  properties: (version) => [`-Dsdk.artifact=${artifactOf(version)}`, `-Dsdk.version=${version}`, `-Ddriver.sources=${join(PROJECT_ROOT, "lab/peers/jvm/kotlin")}`],
};
export const historyJar = (version: string) => historyJarOf(KOTLIN_BUILD, version);

/** Why the release cannot run here (the compiler's first error line, remembered), or undefined once its jar is built. */
export const installKotlinRelease = (version: string): Promise<string | undefined> => installMavenRelease(KOTLIN_BUILD, version);

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
  behaviours: formBehaviours(FIRST_WITH_ELICITATION, noElicitation),
  transports: ["stdio"],
  noTransport: "the Kotlin driver speaks MCP on its own stdin/stdout only",
  installNote: `The lab's Kotlin driver (lab/peers/jvm/kotlin/) compiled by Kotlin 2.4.0 against each release's ${artifactOf("0.7.0")} (kotlin-sdk-jvm before ${FIRST_SPLIT}), one Maven build per release under build/history/kotlin/; its dependencies as the release's pom pins them.`,
};
