// `history --client java` (issue 46): five releases run for real, the Java driver compiled against each under
// build/history/java/: 0.12.1, the last that does not build (no mapper interface), 0.16.0 (the driver's 0.x copy:
// ElicitRequest, McpJsonMapper.getDefault(), elicitation declared as {}), 0.18.5 (its pom names an mcp-core 0.18.5
// Maven Central does not serve), 1.0.2 (the 1.x copy, ElicitFormRequest read as ElicitRequest) and 2.0.1, the java
// peer's own release; their ranges against expected/history/java.json, a moved boundary rejected naming its release,
// corrupted withdrawal evidence read as it says, the release list (newest patch per minor, the left-out ones named),
// the copies, the build's first error kept, and bad input.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, runMain } from "./support/cli.js";
import { needs } from "./support/needs.js";
import { runHistory } from "../lab/cli/history.js";
import { cancelZeroOutcome, rangesText } from "../lab/check/history.js";
import { movedBoundary } from "./support/history.js";
import type { SessionEvidence } from "../lab/plan/session.js";
import type { HistoryData } from "../lab/plan/history.js";
import { PROJECT_ROOT } from "../lab/paths.js";
import { toolchainVersion } from "../lab/peers/cached-build.js";
import { firstError } from "../lab/peers/jvm/history-build.js";
import { driverSources, JAVA_HISTORY, LEFT_OUT, newestPatches, SHIMS } from "../lab/peers/jvm/java-history.js";

const SAMPLE = ["0.12.1", "0.16.0", "0.18.5", "1.0.2", "2.0.1"];
const MAVEN = { name: "mvn", unavailable: () => (toolchainVersion(["mvn", "-v"]) ? undefined : "mvn is not on PATH") };
const withMaven = needs(MAVEN);
let sample: Promise<HistoryData> | undefined;
const out = mkdtempSync(join(tmpdir(), "lab-history-java-"));
const ran = () => (sample ??= runHistory({ releases: SAMPLE, listed: "test", outDir: out, expectedDir: join(ROOT, "expected", "history"), source: JAVA_HISTORY }));

test.after(() => rmSync(out, { recursive: true, force: true }));

withMaven("five releases: every cell as expected/history/java.json says; 0.12.1 and 0.18.5 not run, 0.16.0, 1.0.2 and 2.0.1 complete", async () => {
  const data = await ran();
  assert.equal(data.differences, [], JSON.stringify(data.differences));
  const around = (word: string) => `not run 0.12.1, ${word} 0.16.0, not run 0.18.5, ${word} 1.0.2-2.0.1`;
  for (const id of ["nested.stdio", "samplingNested.stdio"]) assert.is(rangesText(data.ranges[id]!), around("completes"), id);
  assert.is(rangesText(data.ranges["rootsNested.stdio"]!), around("n/a"));
  assert.is(rangesText(data.ranges["ping.stdio"]!), around("answers"));
  assert.is(rangesText(data.ranges["cancel0.stdio"]!), around("never aborted"));
  // 0.12.1 does not compile: the driver's JSON goes through the SDK's mapper interface, which it lacks
  assert.match(data.rows[0]!.cells.find((c) => c.release === "0.12.1")!.detail, /cannot find symbol: class McpJsonMapper/);
  // the not-run cell says why: Maven could not resolve the mcp-core 0.18.5 that mcp 0.18.5's pom names
  const cell = data.rows.find((r) => r.id === "nested.stdio")!.cells.find((c) => c.release === "0.18.5")!;
  assert.match(cell.detail, /^does not resolve: no io\.modelcontextprotocol\.sdk:mcp-core:jar:0\.18\.5 in the repository$/);
});

withMaven("a boundary moved one release on in the expectation fails, naming 0.16.0: the first sampled release that runs", async () => {
  const data = await ran();
  for (const [row, after] of [["nested.stdio", "completes"], ["ping.stdio", "answers"], ["cancel0.stdio", "never aborted"]] as const)
    assert.equal(movedBoundary(data, row, { outcome: "not run", to: "0.16.0" }, { outcome: after, from: "0.17.0" }), [`${row} 0.16.0 not run`]);
});

withMaven("corrupted withdrawal evidence: 2.0.1's run with an abort of form 0 added reads as aborted, of form 1 as id 0 ignored", async () => {
  await ran();
  const run = JSON.parse(readFileSync(join(out, "history", "java-2.0.1.cancel0.stdio.json"), "utf8")) as SessionEvidence;
  const outcome = (r: SessionEvidence) => (cancelZeroOutcome(r) as { outcome: string }).outcome;
  assert.is(outcome(run), "never aborted");
  const abortOf = (r: SessionEvidence, id: number) => {
    const copy = structuredClone(r);
    const entered = copy.events.find((e) => e.side === "client" && e.kind === "callback.entered" && e.id === id)!;
    copy.events.splice(copy.events.indexOf(entered) + 1, 0, { ...entered, kind: "callback.aborted" });
    return copy;
  };
  assert.is(outcome(abortOf(run, 0)), "aborted");
  assert.is(outcome(abortOf(run, 1)), "ignored: id 0 only");
});

test("the releases: the newest patch of each minor, the left-out ones not counted, milestones never listed", () => {
  const listed = ["0.7.0", "0.8.0", "0.8.1", "0.18.4", "0.18.5", "1.0.2", "1.1.4", "1.1.5", "2.0.0", "2.0.1", "2.1.0", "2.2.0"];
  assert.equal(newestPatches(listed), ["0.7.0", "0.8.1", "0.18.5", "1.0.2", "1.1.4", "2.0.1"]);
  assert.equal(Object.keys(LEFT_OUT), ["1.1.5", "2.1.0", "2.2.0"]);
  for (const v of Object.keys(LEFT_OUT)) assert.match(JAVA_HISTORY.which, new RegExp(`${v.replaceAll(".", "\\.")}, no mcp-core-`));
});

test("the driver's copies: 1.x reads ElicitFormRequest as ElicitRequest, 0.13-0.16 also the 0.x mapper and no elicitation modes; 0.12 and 2.x build the lab's own", () => {
  const dir = mkdtempSync(join(tmpdir(), "lab-java-shim-"));
  try {
    const own = join(PROJECT_ROOT, "lab/peers/jvm/java/src/main/java");
    assert.is(driverSources("2.0.1", dir), own);
    assert.is(driverSources("0.12.1", dir), own);
    for (const [release, applied] of [["1.1.4", 1], ["0.17.2", 2], ["0.16.0", 3]] as const) {
      const copy = driverSources(release, join(dir, release));
      assert.is(copy, join(dir, release, "driver"));
      for (const file of ["Main.java", "Sync.java", "Requests.java", "OwnStdio.java", "Host.java", "Json.java"]) {
        const mine = readFileSync(join(own, "lab", file), "utf8");
        assert.ok(existsSync(join(copy, "lab", file)), file);
        const expected = SHIMS.slice(0, applied).reduce((t, s) => t.replaceAll(s.from, s.to), mine);
        assert.is(readFileSync(join(copy, "lab", file), "utf8"), expected, `${release} ${file}`);
      }
    }
    // each rewrite has something to rewrite in the lab's own driver
    const all = ["Main.java", "Sync.java", "OwnStdio.java", "Json.java"].map((f) => readFileSync(join(own, "lab", f), "utf8")).join("\n");
    for (const s of SHIMS) assert.ok(all.includes(s.from), s.from);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a failed build's cell keeps its first error: javac's line with its symbol, or the dependency Maven could not find", () => {
  const javac = [
    "[INFO] some noise",
    // as maven-compiler-plugin 3.13.0 printed it here against mcp 1.1.5, the driver unchanged
    `[ERROR] ${PROJECT_ROOT}/lab/peers/jvm/java/src/main/java/lab/Main.java:[149,45] cannot find symbol`,
    "  symbol:   class ElicitFormRequest",
    "  location: class io.modelcontextprotocol.spec.McpSchema",
  ].join("\n");
  assert.is(firstError(javac), "lab/peers/jvm/java/src/main/java/lab/Main.java:[149,45] cannot find symbol: class ElicitFormRequest");
  const fresh = "[ERROR] Failed to execute goal on project java-history: Could not resolve dependencies for project lab.reentrancy:java-history:jar:0.1.0: Could not find artifact io.modelcontextprotocol.sdk:mcp-core:jar:0.18.5 in central (https://repo.maven.apache.org/maven2) -> [Help 1]";
  const cached = "[ERROR] Failed to execute goal on project java-history: Could not resolve dependencies for project lab.reentrancy:java-history:jar:0.1.0: io.modelcontextprotocol.sdk:mcp-core:jar:0.18.5 was not found in https://repo.maven.apache.org/maven2 during a previous attempt.";
  for (const output of [fresh, cached]) assert.is(firstError(output), "no io.modelcontextprotocol.sdk:mcp-core:jar:0.18.5 in the repository");
});

test("bad input is one line and exit 2: --versions matching no release, an HTTP transport", async () => {
  const none = await runMain(["history", "--client", "java", "--versions", "9.0.0..9.1.0"]);
  assert.is(none.code, 2);
  // with no repository and no cached list, the one line says that instead (it names the metadata's URL)
  assert.match(none.stderr, /matches no release of io\.modelcontextprotocol\.sdk:mcp|no Maven repository: .*sdk\/mcp/);
  assert.is(none.stderr.trim().split("\n").length, 1, none.stderr);
  const http = await runMain(["history", "--client", "java", "--transport", "http"]);
  assert.is(http.code, 2);
  assert.match(http.stderr, /no http history: the Java driver speaks MCP on its own stdin\/stdout only/);
  assert.is(http.stderr.trim().split("\n").length, 1, http.stderr);
});

test.run();
