// The JVM drivers' AppCDS archives (lab/peers/jvm/launch.ts, cds.ts): the launch carries
// -XX:SharedArchiveFile exactly when the archive is there; an archive the JVM cannot use keeps the
// driver's stdout (the MCP stream) clean; and the set-up's archives are current and really used.
import "./support/child-pids.js";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { buildProblem } from "../lab/peers/cached-build.js";
import { jvmJar } from "../lab/peers/jvm/build.js";
import { JVM_CDS_BUILD } from "../lab/peers/jvm/cds.js";
import { JAVA_CLIENT, JAVA_SYNC_CLIENT, KOTLIN_014_CLIENT, KOTLIN_CLIENT } from "../lab/peers/jvm/index.js";
import { JVM_FLAGS, JVM_LAUNCHES, jvmArchive, jvmEntry, jvmFlags, jvmLaunch } from "../lab/peers/jvm/launch.js";
import { needs } from "./support/needs.js";

const BOUND_MS = 60_000;
const archiveFlag = (args: readonly string[]) => args.filter((a) => a.startsWith("-XX:SharedArchiveFile="));
const java = (args: string[]) => spawnSync("java", args, { encoding: "utf8", timeout: BOUND_MS });

test("the launch carries -XX:SharedArchiveFile exactly when the archive exists; without it the flags are JVM_FLAGS as before", () => {
  const dir = mkdtempSync(join(tmpdir(), "lab-cds-"));
  try {
    const archive = join(dir, "kotlin.jsa");
    const launch = jvmLaunch("kotlin");
    assert.equal(jvmFlags(launch, archive), JVM_FLAGS);
    writeFileSync(archive, "any bytes: the JVM judges the archive itself");
    const flags = jvmFlags(launch, archive);
    assert.equal(archiveFlag(flags), [`-XX:SharedArchiveFile=${archive}`]);
    assert.ok(flags.includes("-Xshare:auto"), "auto: an archive the JVM cannot use is ignored, never fatal");
    rmSync(archive);
    assert.equal(jvmFlags(launch, archive), JVM_FLAGS);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // and each peer's real command follows its own archive in build/jvm/
  for (const peer of [KOTLIN_014_CLIENT, KOTLIN_CLIENT, JAVA_CLIENT, JAVA_SYNC_CLIENT]) {
    if (peer.driver.kind !== "process") throw new Error(`${peer.name} is not a process driver`);
    const { args } = peer.driver.command("plan.json", "events.jsonl");
    const archive = jvmArchive(peer.name);
    assert.equal(archiveFlag(args), existsSync(archive) ? [`-XX:SharedArchiveFile=${archive}`] : [], peer.name);
  }
});

needs(JAVA_CLIENT)("an archive the JVM cannot use (made for another copy of the jar) leaves stdout empty: the JVM's warning goes to stderr", () => {
  const dir = mkdtempSync(join(tmpdir(), "lab-cds-"));
  try {
    const jar = join(dir, "java.jar");
    const stale = join(dir, "stale.jsa");
    copyFileSync(jvmJar("java"), jar);
    // a real dynamic archive, for the copy: the driver's usage start (exit 2) is enough to write one
    const made = java([`-XX:ArchiveClassesAtExit=${stale}`, "-Xlog:disable", "-jar", jar]);
    assert.ok(existsSync(stale), `no archive made: ${made.stderr}`);
    const r = java([...jvmFlags(jvmLaunch("java"), stale), ...jvmEntry(jvmLaunch("java"))]);
    assert.is(r.status, 2, r.stderr); // the usage line: the driver ran as without an archive
    assert.is(r.stdout, "", "the driver's stdout carries only MCP");
    assert.match(r.stderr, /Unable to use shared archive/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// the set-up's archives: a build of their own (jvm-cds), made after the jars
needs([KOTLIN_014_CLIENT, { name: "jvm-cds", unavailable: () => buildProblem(JVM_CDS_BUILD) }])("the set-up's archives are current, and the JVM loads each driver's classes from its own", () => {
  for (const launch of JVM_LAUNCHES) {
    const r = java([...jvmFlags(launch), "-Xlog:class+load=info:stdout", ...jvmEntry(launch)]);
    assert.is(r.status, 2, r.stderr);
    // "(top)": the dynamic archive on top of the JDK's base one
    assert.ok(r.stdout.includes("source: shared objects file (top)"), `${launch.name}: no class came from ${jvmArchive(launch.name)}`);
  }
});

test("a missing archive makes the jvm-cds build due, in one line naming it (the set-up makes it again)", () => {
  const missing = { ...JVM_CDS_BUILD, outputs: [...JVM_CDS_BUILD.outputs, "/nonexistent/build/jvm/none.jsa"] };
  assert.match(buildProblem(missing) ?? "", /^jvm-cds is not built \(.*none\.jsa missing\)/);
  // a rebuilt jar is a changed input: the archive is made again for it
  assert.match(buildProblem({ ...JVM_CDS_BUILD, inputs: [...JVM_CDS_BUILD.inputs, "package.json"] }) ?? "", /^jvm-cds's build is older than its sources/);
});

test.run();
