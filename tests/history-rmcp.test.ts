// `history --client rmcp` (issue 46): four releases run for real, the rmcp driver built by cargo against each
// under build/history/rmcp/: the last that does not build (0.16.0, rmcp's own feature gating), the first that does
// (0.17.0, with its pre_1_0 feature: struct literals, protocol 2025-06-18), the last with pre_3_4 (3.3.0, never
// aborted) and the first with no feature (3.4.1, aborted again); their ranges against expected/history/rmcp.json,
// moved boundaries rejected naming their release, corrupted withdrawal evidence read as it says, the release list,
// the features per release and the compiler's first error line as cargo prints them, and bad input.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, runMain } from "./support/cli.js";
import { needs } from "./support/needs.js";
import { runHistory } from "../lab/cli/history.js";
import { historyDifferences, loadExpectedHistory, rangesText } from "../lab/check/history.js";
import { assertWithdrawalCorruptions, movedBoundary } from "./support/history.js";
import type { HistoryData } from "../lab/plan/history.js";
import { PROJECT_ROOT } from "../lab/paths.js";
import { toolchainVersion } from "../lab/peers/cached-build.js";
import { firstCargoError, indexPath, newestPatchPerMinor, pinnedManifest } from "../lab/peers/cargo-history.js";
import { RMCP_HISTORY, rmcpFeatures, rmcpProtocol } from "../lab/peers/rmcp/history.js";

const SAMPLE = ["0.16.0", "0.17.0", "3.3.0", "3.4.1"];
const CARGO = { name: "cargo", unavailable: () => (toolchainVersion(["cargo", "--version"]) ? undefined : "cargo is not on PATH") };
const withCargo = needs(CARGO);
let sample: Promise<HistoryData> | undefined;
const out = mkdtempSync(join(tmpdir(), "lab-history-rmcp-"));
const ran = () => (sample ??= runHistory({ releases: SAMPLE, listed: "test", outDir: out, expectedDir: join(ROOT, "expected", "history"), source: RMCP_HISTORY }));

test.after(() => rmSync(out, { recursive: true, force: true }));

withCargo("four releases: every cell as expected/history/rmcp.json says; 0.16.0 does not build, 0.17.0 on completes", async () => {
  const data = await ran();
  assert.equal(data.differences, [], JSON.stringify(data.differences));
  for (const id of ["nested.stdio", "samplingNested.stdio", "rootsNested.stdio", "samplingAnswer.stdio"]) assert.is(rangesText(data.ranges[id]!), "not run 0.16.0, completes 0.17.0-3.4.1", id);
  assert.is(rangesText(data.ranges["ping.stdio"]!), "not run 0.16.0, answers 0.17.0-3.4.1");
  assert.is(rangesText(data.ranges["cancel0.stdio"]!), "not run 0.16.0, aborted 0.17.0, never aborted 3.3.0, aborted 3.4.1");
  // the not-run cell carries cargo's first error, in rmcp's own source (cargo's registry path left out)
  const cell = data.rows.find((r) => r.id === "nested.stdio")!.cells.find((c) => c.release === "0.16.0")!;
  assert.match(cell.detail, /^does not compile against the driver: rmcp-0\.16\.0\/src\/task_manager\.rs:10:\d+: error\[E0432\]: unresolved import `crate::RoleServer`/);
});

withCargo("a boundary moved one release on in the expectation fails, naming 0.17.0, and 3.4.1 for the withdrawal's", async () => {
  const data = await ran();
  // movedBoundary takes the first not-run range (0.1.5-0.14.0) and the first range after it (0.17.0-1.4.0)
  for (const [row, after] of [["nested.stdio", "completes"], ["cancel0.stdio", "aborted"]] as const)
    assert.equal(movedBoundary(data, row, { outcome: "not run", to: "0.17.0" }, { outcome: after, from: "1.0.0" }), [`${row} 0.17.0 not run`]);
  // never aborted (3.0.1-3.3.0) moved on past 3.4.1 by hand: movedBoundary takes the first aborted range (0.17.0-1.4.0)
  const moved = structuredClone(loadExpectedHistory("rmcp")!);
  const ranges = moved.behaviours["cancel0.stdio"]!.ranges;
  ranges.find((r) => r.outcome === "never aborted")!.to = "3.4.1";
  ranges.find((r) => r.from === "3.4.1")!.from = "3.5.1";
  assert.equal(historyDifferences(data.rows, moved).map((d) => `${d.behaviour} ${d.release} ${d.expected}`), ["cancel0.stdio 3.4.1 never aborted"]);
});

withCargo("corrupted withdrawal evidence: 3.4.1's id-0 abort removed reads as id 0 ignored, every abort removed as never aborted", async () => {
  await ran();
  assertWithdrawalCorruptions(join(out, "history", "rmcp-3.4.1.cancel0.stdio.json"));
});

test("the release list: the newest patch of every minor, yanked and pre-releases left out; the index's paths", () => {
  const lines = [
    { vers: "0.1.0", yanked: true },
    { vers: "0.1.5", yanked: false },
    { vers: "0.1.10", yanked: false },
    { vers: "1.0.0-alpha", yanked: false },
    { vers: "1.0.0", yanked: false },
    { vers: "3.0.0-beta.2", yanked: false },
    { vers: "1.1.2", yanked: true },
    { vers: "1.1.1", yanked: false },
  ].map((e) => JSON.stringify(e));
  assert.equal(newestPatchPerMinor(lines.join("\n")), ["0.1.10", "1.0.0", "1.1.1"]);
  assert.equal(["rmcp", "rust-mcp-sdk", "syn", "cc"].map(indexPath), ["rm/cp/rmcp", "ru/st/rust-mcp-sdk", "3/s/syn", "2/cc"]);
});

test("the driver's features: pre_1_0, pre_1_2, pre_1_5, pre_2_0, pre_3_4 before 1.0.0, 1.2.0, 1.5.0, 2.0.0, 3.4.1 (each implying the newer), none after", () => {
  const releases = ["0.16.0", "0.17.0", "1.0.0", "1.1.1", "1.2.0", "1.4.0", "1.5.0", "1.8.0", "2.0.0", "3.3.0", "3.4.1", "3.11.0"];
  const features = [["pre_1_0"], ["pre_1_0"], ["pre_1_2"], ["pre_1_2"], ["pre_1_5"], ["pre_1_5"], ["pre_2_0"], ["pre_2_0"], ["pre_3_4"], ["pre_3_4"], [], []];
  assert.equal(releases.map(rmcpFeatures), features);
  assert.equal(releases.map(rmcpProtocol), [...Array(6).fill("2025-06-18"), ...Array(6).fill("2025-11-25")]);
  const manifest = readFileSync(join(PROJECT_ROOT, "lab/peers/rmcp/Cargo.toml"), "utf8");
  assert.match(manifest, /^pre_3_4 = \[\]$/m);
  assert.match(manifest, /^pre_2_0 = \["pre_3_4"\]$/m);
  assert.match(manifest, /^pre_1_5 = \["pre_2_0"\]$/m);
  assert.match(manifest, /^pre_1_2 = \["pre_1_5"\]$/m);
  assert.match(manifest, /^pre_1_0 = \["pre_1_2"\]$/m);
});

test("the pinned manifest: the release's exact version, the driver's own main.rs, nothing else moved", () => {
  const manifest = readFileSync(join(PROJECT_ROOT, "lab/peers/rmcp/Cargo.toml"), "utf8");
  const pinned = pinnedManifest(manifest, "rmcp", "3.4.1", "/abs/src/main.rs");
  assert.match(pinned, /^rmcp = \{ version = "=3\.4\.1", default-features = false, features = \["client", "transport-io"\] \}$/m);
  assert.match(pinned, /^path = "\/abs\/src\/main\.rs"$/m);
  assert.is(pinned.split("\n").length, manifest.split("\n").length);
  assert.throws(() => pinnedManifest("[dependencies]\n", "rmcp", "3.4.1", "/x"), /no exact rmcp pin/);
});

test("a failed build's cell keeps the compiler's first error, the project's and cargo's registry paths left out", () => {
  const output = [
    "   Compiling rmcp v0.1.5",
    // as cargo 1.95 --message-format short printed them here against rmcp 0.1.5 and 1.4.0
    `${homedir()}/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/rmcp-0.1.5/src/model/prompt.rs:4:5: error[E0433]: cannot find module or crate \`base64\` in this scope`,
    `${PROJECT_ROOT}/lab/peers/rmcp/src/host.rs:42:46: error[E0599]: no associated item named \`V_2025_11_25\` found for struct \`ProtocolVersion\` in the current scope`,
    "error: could not compile `rmcp` (lib) due to 1 previous error",
  ].join("\n");
  assert.is(firstCargoError(output), "rmcp-0.1.5/src/model/prompt.rs:4:5: error[E0433]: cannot find module or crate `base64` in this scope");
  assert.is(firstCargoError(output.split("\n").slice(2).join("\n")), "lab/peers/rmcp/src/host.rs:42:46: error[E0599]: no associated item named `V_2025_11_25` found for struct `ProtocolVersion` in the current scope");
  assert.is(firstCargoError("warning: x\nerror: no end within 900 s\n"), "error: no end within 900 s");
});

test("bad input is one line and exit 2: --versions matching no rmcp release", async () => {
  const none = await runMain(["history", "--client", "rmcp", "--versions", "9.0.0..9.1.0"]);
  assert.is(none.code, 2);
  // with no index and no cached list, the one line says that instead (it names the index's URL)
  assert.match(none.stderr, /matches no release of rmcp|no crates\.io index: .*rm\/cp\/rmcp/);
  assert.is(none.stderr.trim().split("\n").length, 1, none.stderr);
  const transport = await runMain(["history", "--client", "rmcp", "--transport", "http"]);
  assert.is(transport.code, 2);
  assert.match(transport.stderr, /no http history: the rmcp driver speaks MCP on its own stdin\/stdout/);
  assert.is(transport.stderr.trim().split("\n").length, 1, transport.stderr);
});

test.run();
