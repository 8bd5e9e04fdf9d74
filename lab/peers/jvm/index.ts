// The JVM client peers: the MCP Kotlin SDK 0.14.0, and today's 0.16.0 (concurrent dispatch since
// 0.15.0, kotlin-sdk PR #884), and the MCP Java SDK 2.0.1, each a driver program in its own process
// (lab/peers/jvm/), built by one Maven build into build/jvm/ (build.ts), or a session of a driver that
// stays up (`--host`, lab/transports/hosts.md). Each speaks MCP on its session's stdin/stdout; the lab
// records the wire on its side of the pipe. `java-sync` is the same SDK's McpSyncClient, a second driver
// class in the java module's jar. `spring-ai` is Spring AI's MCP client, on the Java SDK 2.0.0 (lab/peers/jvm/spring-ai).
import { join } from "node:path";
import { LAB_DIR } from "../../paths.js";
import { buildProblem } from "../cached-build.js";
import { mavenArtifact, sdkLabel, type JarVersion } from "../installed.js";
import type { ClientPeer, ProcessClientDriver, SdkLabel } from "../../plan/peer.js";
import { JVM_BUILD, jvmJar } from "./build.js";
import { jvmEntry, jvmFlags, jvmLaunch } from "./launch.js";

export { JVM_FLAGS } from "./launch.js";

// The SDK's version as the peer's built jar holds it; its module's pom.xml pins it. The Kotlin SDK's
// jars carry no Maven properties (a Gradle build): its core's LIB_VERSION constant says its version.
const KOTLIN_VERSION: JarVersion = { classConstant: "io/modelcontextprotocol/kotlin/sdk/LibVersionKt.class" };
function jvmSdk(template: string, name: string, group: string, artifact: string, where: JarVersion): SdkLabel {
  const { module } = jvmLaunch(name);
  return sdkLabel(template, mavenArtifact(group, artifact, { pom: join(LAB_DIR, "peers", "jvm", module, "pom.xml"), jar: jvmJar(module), in: where }));
}

// The jar and entry point of each peer are its launch's (launch.ts: JVM_LAUNCHES)
function jvmClient(name: string, sdk: SdkLabel, meaning: string): ClientPeer {
  const launch = jvmLaunch(name);
  return {
    name,
    sdk,
    loops: ["sdk"],
    meaning,
    era: "2025-11-25",
    unavailable: () => buildProblem(JVM_BUILD),
    // the archive is looked for at each launch: the set-up may make it after this module loads
    driver: jvmDriver(() => [...jvmFlags(launch), ...jvmEntry(launch)]),
  };
}

/** A JVM driver: a process per session, or a session of its `--host` JVM; `start` gives the JVM's flags and jar. */
export function jvmDriver(start: () => readonly string[]): ProcessClientDriver {
  return {
    kind: "process",
    command: (planFile, eventsFile) => ({
      command: "java",
      args: [...start(), "--plan", planFile, "--events", eventsFile],
      // one JVM runs many sessions, each on its own thread (lab/transports/hosts.md; Host.java, Host.kt)
      host: { args: [...start(), "--host"], argv: ["--plan", planFile, "--events", eventsFile] },
    }),
  };
}

export const KOTLIN_014_CLIENT = jvmClient(
  "kotlin-0.14",
  jvmSdk("io.modelcontextprotocol:kotlin-sdk-client {}", "kotlin-0.14", "io.modelcontextprotocol", "kotlin-sdk-client-jvm", KOTLIN_VERSION),
  "the Kotlin SDK 0.14.0 coroutine Client as shipped: its transport's read loop awaits each inbound request's handler (Protocol.kt:241-249, kotlin-sdk #176)",
);

export const KOTLIN_CLIENT = jvmClient(
  "kotlin",
  jvmSdk("io.modelcontextprotocol:kotlin-sdk-client {}", "kotlin", "io.modelcontextprotocol", "kotlin-sdk-client-jvm", KOTLIN_VERSION),
  "the Kotlin SDK 0.16.0 coroutine Client as shipped: its Protocol launches each inbound handler after initialization, as every release since 0.15.0 does (kotlin-sdk PR #884)",
);

export const JAVA_CLIENT = jvmClient(
  "java",
  jvmSdk("io.modelcontextprotocol.sdk:mcp {}", "java", "io.modelcontextprotocol.sdk", "mcp", { properties: true }),
  "the Java SDK 2.0.1 McpAsyncClient as shipped: its McpClientSession subscribes to each inbound request's handler and returns to reading (McpClientSession.java:152-174), so an async handler's nested request is read while it waits; it sends and handles no notifications/cancelled",
);

export const JAVA_SYNC_CLIENT = jvmClient(
  "java-sync",
  jvmSdk("io.modelcontextprotocol.sdk:mcp {}", "java-sync", "io.modelcontextprotocol.sdk", "mcp", { properties: true }),
  "the Java SDK 2.0.1 McpSyncClient as shipped: McpClient.sync wraps each blocking handler in Mono.fromCallable on Schedulers.boundedElastic (McpClientFeatures.java:206-214), so a handler that blocks on a nested request holds a pool thread, not the reading thread; it sends and handles no notifications/cancelled",
);

// Spring AI's label names both what the jar holds: Spring AI's MCP module and the Java SDK under it
const springAiPom = { pom: join(LAB_DIR, "peers", "jvm", "spring-ai", "pom.xml"), jar: jvmJar("spring-ai"), in: { properties: true } as const };
export const SPRING_AI_CLIENT = jvmClient(
  "spring-ai",
  sdkLabel(
    "org.springframework.ai:spring-ai-mcp {} on io.modelcontextprotocol.sdk:mcp {}",
    mavenArtifact("org.springframework.ai", "spring-ai-mcp", springAiPom),
    mavenArtifact("io.modelcontextprotocol.sdk", "mcp", springAiPom),
  ),
  "Spring AI 2.0.0's MCP client as its auto-configuration builds it: McpClient.sync on the Java SDK 2.0.0, the callbacks @McpElicitation/@McpSampling methods the registry hands to SyncSpec (McpClientAutoConfiguration.java:168-171), which the SDK runs on Schedulers.boundedElastic (McpClientFeatures.java:206-214): the Java SDK's sync dispatch, nothing of Spring's own; it sends and handles no notifications/cancelled",
);
