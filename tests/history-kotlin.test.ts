// `history --client kotlin` (issue 46): three releases run for real, the Kotlin driver compiled against each under
// build/history/kotlin/: the first it compiles against (0.8.0, the first with the types package), the boundary
// (0.15.0, the first with concurrent dispatch, kotlin-sdk PR #884, and with a notifications/cancelled handler) and the
// last (0.16.0); their ranges against expected/history/kotlin.json, a corrupted expectation rejected naming its release,
// corrupted withdrawal evidence read as it says, the compiler's first error line kept, and bad input.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, runMain } from "./support/cli.js";
import { needs } from "./support/needs.js";
import { runHistory } from "../lab/cli/history.js";
import { pingCell } from "../lab/check/card.js";
import { PING_WORD, rangesText } from "../lab/check/history.js";
import { assertWithdrawalCorruptions, movedBoundary } from "./support/history.js";
import type { SessionEvidence } from "../lab/plan/session.js";
import { negotiatedProtocol } from "../lab/session/pipeline.js";
import type { HistoryData } from "../lab/plan/history.js";
import { PROJECT_ROOT } from "../lab/paths.js";
import { toolchainVersion } from "../lab/peers/cached-build.js";
import { artifactOf, firstError, KOTLIN_HISTORY } from "../lab/peers/jvm/history.js";

const SAMPLE = ["0.8.0", "0.15.0", "0.16.0"];
const MAVEN = { name: "mvn", unavailable: () => (toolchainVersion(["mvn", "-v"]) ? undefined : "mvn is not on PATH") };
const withMaven = needs(MAVEN);
let sample: Promise<HistoryData> | undefined;
const out = mkdtempSync(join(tmpdir(), "lab-history-kotlin-"));
const ran = () => (sample ??= runHistory({ releases: SAMPLE, listed: "test", outDir: out, expectedDir: join(ROOT, "expected", "history"), source: KOTLIN_HISTORY }));

test.after(() => rmSync(out, { recursive: true, force: true }));

withMaven("three releases: every cell as expected/history/kotlin.json says; nested requests deadlock on 0.8.0 and complete from 0.15.0", async () => {
  const data = await ran();
  assert.equal(data.differences, [], JSON.stringify(data.differences));
  for (const id of ["nested.stdio", "samplingNested.stdio", "rootsNested.stdio"]) assert.is(rangesText(data.ranges[id]!), "deadlocks 0.8.0, completes 0.15.0-0.16.0", id);
  assert.is(rangesText(data.ranges["ping.stdio"]!), "waits 0.8.0, answers 0.15.0-0.16.0");
  assert.is(rangesText(data.ranges["cancel0.stdio"]!), "never aborted 0.8.0, aborted 0.15.0-0.16.0");
});

withMaven("a boundary moved one release on in the expectation fails, naming 0.15.0: concurrent dispatch, the cancel handler", async () => {
  const data = await ran();
  for (const [row, before, after] of [["nested.stdio", "deadlocks", "completes"], ["cancel0.stdio", "never aborted", "aborted"]] as const)
    assert.equal(movedBoundary(data, row, { outcome: before, to: "0.15.0" }, { outcome: after, from: "0.15.1" }), [`${row} 0.15.0 ${before}`]);
});

withMaven("corrupted withdrawal evidence: 0.15.0's id-0 abort removed reads as id 0 ignored, every abort removed as never aborted", async () => {
  await ran();
  assertWithdrawalCorruptions(join(out, "history", "kotlin-0.15.0.cancel0.stdio.json"));
});

withMaven("the boundary's ping verdict is wire order: 0.15.0's real pong moved after its form's answer reads as waits", async () => {
  await ran();
  const run = JSON.parse(readFileSync(join(out, "history", "kotlin-0.15.0.ping.stdio.json"), "utf8")) as SessionEvidence;
  const word = (r: SessionEvidence) => PING_WORD[String(pingCell({ events: r.events, wire: r.wire, negotiatedProtocol: negotiatedProtocol(r) }).value)];
  assert.is(word(run), "answers");
  const late = structuredClone(run);
  const pingAt = late.wire.find((f) => f.from === "server" && f.label.method === "ping")!.index;
  const formAt = late.wire.find((f) => f.from === "server" && f.label.method === "elicitation/create")!.index;
  const pong = late.wire.findIndex((f) => f.replyTo === pingAt);
  const [moved] = late.wire.splice(pong, 1);
  late.wire.splice(late.wire.findIndex((f) => f.replyTo === formAt) + 1, 0, moved!);
  // the frames renumbered in their new order, each reply still naming its request
  const renumber = new Map(late.wire.map((f, i) => [f.index, i]));
  for (const f of late.wire) {
    f.index = renumber.get(f.index)!;
    if (f.replyTo !== undefined) f.replyTo = renumber.get(f.replyTo);
  }
  assert.is(word(late), "waits");
});

test("the artefact per era: kotlin-sdk-jvm before 0.7.0, kotlin-sdk-client-jvm from it", () => {
  assert.equal(["0.6.0", "0.7.0", "0.16.0"].map(artifactOf), ["kotlin-sdk-jvm", "kotlin-sdk-client-jvm", "kotlin-sdk-client-jvm"]);
});

test("a failed compile's cell keeps the compiler's first error, the project's path left out", () => {
  const output = [
    "[INFO] some noise",
    // as kotlin-maven-plugin 2.4.0 printed it here against kotlin-sdk-jvm 0.4.0
    `[ERROR] file://${PROJECT_ROOT}/lab/peers/jvm/kotlin/Callbacks.kt:11:43 Unresolved reference 'types'.`,
    `[ERROR] file://${PROJECT_ROOT}/lab/peers/jvm/kotlin/Main.kt:11:45 Unresolved reference 'types'.`,
    "[ERROR] Failed to execute goal org.jetbrains.kotlin:kotlin-maven-plugin:2.4.0:compile",
  ].join("\n");
  assert.is(firstError(output), "lab/peers/jvm/kotlin/Callbacks.kt:11:43 Unresolved reference 'types'.");
  assert.is(firstError("[ERROR] Failed to execute goal X\n"), "Failed to execute goal X");
});

test("bad input is one line and exit 2: --versions matching no kotlin-sdk release", async () => {
  const none = await runMain(["history", "--client", "kotlin", "--versions", "9.0.0..9.1.0"]);
  assert.is(none.code, 2);
  // with no repository and no cached list, the one line says that instead (it names the metadata's URL)
  assert.match(none.stderr, /matches no release of io\.modelcontextprotocol:kotlin-sdk|no Maven repository: .*kotlin-sdk/);
  assert.is(none.stderr.trim().split("\n").length, 1, none.stderr);
});

test.run();
