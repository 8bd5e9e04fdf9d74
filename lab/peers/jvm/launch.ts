// One owner for how a JVM driver is started: the flags, the jar and main class of each launch, and
// its AppCDS archive (build/jvm/<name>.jsa, made by a training session in the set-up: cds.ts).
// The archive holds the classes a session loads, already parsed and verified, so a start skips that
// work; it is passed only when the file is there and readable, and with -Xshare:auto the JVM itself
// ignores an archive it cannot use (another JDK, a rebuilt jar), so a session runs the same either way.
import { accessSync, constants } from "node:fs";
import { join } from "node:path";
import { JVM_JAR_DIR, jvmJar } from "./build.js";

// C1 only and the default class-data sharing: start-up options, nothing the SDK can observe.
export const JVM_FLAGS = ["-XX:TieredStopAtLevel=1", "-Xshare:auto"];

// The JVM writes its warnings to stdout, and JDK 17 warns there when it cannot use a dynamic archive
// (a jar rebuilt after it: "[warning][cds,dynamic] Unable to use shared archive"): on a driver's stdout,
// the MCP stream, that line is garbage. With an archive, the JVM's log goes to stderr.
export const JVM_LOG_TO_STDERR = ["-Xlog:disable", "-Xlog:all=warning:stderr"];

export interface JvmLaunch {
  /** the peer's name, and its archive's: build/jvm/<name>.jsa */
  name: string;
  /** the Maven module whose jar it runs: build/jvm/<module>.jar */
  module: string;
  /** a second entry point in the same jar (java-sync's lab.Sync); absent: the jar's Main-Class */
  mainClass?: string;
}

// Each launch its own archive: java-sync's entry point loads McpSyncClient and Reactor's schedulers,
// which java's async one never does, so one archive per main class, not per jar.
export const JVM_LAUNCHES: readonly JvmLaunch[] = [
  { name: "kotlin-0.14", module: "kotlin-0.14" },
  { name: "kotlin", module: "kotlin-0.16" },
  { name: "java", module: "java" },
  { name: "java-sync", module: "java", mainClass: "lab.Sync" },
  { name: "spring-ai", module: "spring-ai" },
];

export const jvmArchive = (name: string) => join(JVM_JAR_DIR, `${name}.jsa`);

function readable(file: string): boolean {
  try {
    accessSync(file, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/** The class path and entry point: `-jar JAR` or `-cp JAR MainClass`. */
export const jvmEntry = (launch: JvmLaunch): string[] =>
  launch.mainClass ? ["-cp", jvmJar(launch.module), launch.mainClass] : ["-jar", jvmJar(launch.module)];

/** The JVM's options for a launch: JVM_FLAGS, and the launch's archive when it is there to read. */
export function jvmFlags(launch: JvmLaunch, archive = jvmArchive(launch.name)): string[] {
  return readable(archive) ? [...JVM_FLAGS, `-XX:SharedArchiveFile=${archive}`, ...JVM_LOG_TO_STDERR] : [...JVM_FLAGS];
}

export function jvmLaunch(name: string): JvmLaunch {
  const launch = JVM_LAUNCHES.find((l) => l.name === name);
  if (!launch) throw new Error(`no JVM launch named ${name} (known: ${JVM_LAUNCHES.map((l) => l.name).join(", ")})`);
  return launch;
}
