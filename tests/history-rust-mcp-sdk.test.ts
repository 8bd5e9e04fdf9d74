// `history --client rust-mcp-sdk` (issue 46): five releases run for real, the rust-mcp-sdk driver built by cargo
// against each under build/history/rust-mcp-sdk/: the last the driver does not compile against before it runs
// (0.8.3, no McpObserver), the first it runs on (0.9.0), 1.0.1 (built with the rust-mcp-transport of its day), the
// last it runs on (1.1.0) and the newest (2.0.0, the 2026-07-28 schema); their ranges against expected/history/rust-mcp-sdk.json, a moved boundary rejected naming
// its release, cargo's resolution failure read as the feature the release lacks, and bad input.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ROOT, runMain } from "./support/cli.js";
import { PROJECT_ROOT } from "../lab/paths.js";
import { needs } from "./support/needs.js";
import { runHistory } from "../lab/cli/history.js";
import { rangesText } from "../lab/check/history.js";
import { movedBoundary } from "./support/history.js";
import type { HistoryData } from "../lab/plan/history.js";
import { toolchainVersion } from "../lab/peers/cached-build.js";
import { firstCargoError } from "../lab/peers/cargo-history.js";
import { RUST_MCP_SDK_CARGO, RUST_MCP_SDK_HISTORY, TRANSPORT_ON_ITS_DAY } from "../lab/peers/rust-mcp-sdk/history.js";

const SAMPLE = ["0.8.3", "0.9.0", "1.0.1", "1.1.0", "2.0.0"];
const CARGO = { name: "cargo", unavailable: () => (toolchainVersion(["cargo", "--version"]) ? undefined : "cargo is not on PATH") };
const withCargo = needs(CARGO);
let sample: Promise<HistoryData> | undefined;
const out = mkdtempSync(join(tmpdir(), "lab-history-rust-mcp-sdk-"));
const ran = () => (sample ??= runHistory({ releases: SAMPLE, listed: "test", outDir: out, expectedDir: join(ROOT, "expected", "history"), source: RUST_MCP_SDK_HISTORY }));

test.after(() => rmSync(out, { recursive: true, force: true }));

withCargo("five releases: every cell as expected/history/rust-mcp-sdk.json says; nested requests deadlock wherever it runs", async () => {
  const data = await ran();
  assert.equal(data.differences, [], JSON.stringify(data.differences));
  for (const id of ["nested.stdio", "samplingNested.stdio", "rootsNested.stdio"]) assert.is(rangesText(data.ranges[id]!), "not run 0.8.3, deadlocks 0.9.0-1.1.0, not run 2.0.0", id);
  assert.is(rangesText(data.ranges["ping.stdio"]!), "not run 0.8.3, waits 0.9.0-1.1.0, not run 2.0.0");
  assert.is(rangesText(data.ranges["samplingAnswer.stdio"]!), "not run 0.8.3, completes 0.9.0-1.1.0, not run 2.0.0");
  assert.is(rangesText(data.ranges["cancel0.stdio"]!), "not run 0.8.3, never aborted 0.9.0-1.1.0, not run 2.0.0");
  const cell = (release: string) => data.rows.find((r) => r.id === "nested.stdio")!.cells.find((c) => c.release === release)!.detail;
  assert.match(cell("0.8.3"), /lab\/peers\/rust-mcp-sdk\/src\/main\.rs:18:\d+: error\[E0432\]: unresolved import `rust_mcp_sdk::McpObserver`/);
  assert.match(cell("2.0.0"), /lab\/peers\/rust-mcp-sdk\/src\/main\.rs:15:\d+: error\[E0432\]: unresolved imports `rust_mcp_sdk::schema::InitializeRequestParams`/);
});

withCargo("1.0.1 runs only as it resolved on its day: rust-mcp-transport 1.0.0 in its lock, no other release pinned", async () => {
  const data = await ran();
  assert.is(data.rows.find((r) => r.id === "nested.stdio")!.cells.find((c) => c.release === "1.0.1")!.outcome, "deadlocks");
  const lock = readFileSync(join(dirname(RUST_MCP_SDK_CARGO.binaryOf("1.0.1")), "Cargo.lock"), "utf8");
  assert.match(lock, /name = "rust-mcp-transport"\nversion = "1\.0\.0"/);
  assert.not.match(lock, /name = "rust-mcp-schema"\nversion = "1\./);
  assert.equal(["0.10.0", "1.0.0", "1.0.1", "1.1.0"].map((r) => TRANSPORT_ON_ITS_DAY(r).length), [0, 1, 1, 0]);
});

withCargo("a boundary moved one release on in the expectation fails, naming 0.9.0", async () => {
  const data = await ran();
  for (const [row, word] of [["nested.stdio", "deadlocks"], ["cancel0.stdio", "never aborted"]] as const)
    assert.equal(movedBoundary(data, row, { outcome: "not run", to: "0.9.0" }, { outcome: word, from: "0.10.0" }), [`${row} 0.9.0 not run`]);
});

test("a release lacking the driver's features: the cell names the feature, not cargo's bare 'failed to select'", () => {
  const output = [
    // as cargo 1.95 printed it here against rust-mcp-sdk 0.1.3
    "error: failed to select a version for `rust-mcp-sdk`.",
    `    ... required by package \`reentrancy-lab-rust-mcp-sdk-client v0.1.0 (${PROJECT_ROOT}/build/history/rust-mcp-sdk/0.1.3)\``,
    "versions that meet the requirements `=0.1.3` are: 0.1.3",
    "",
    "package `reentrancy-lab-rust-mcp-sdk-client` depends on `rust-mcp-sdk` with feature `client` but `rust-mcp-sdk` does not have that feature.",
    " available features: default, macros, rust-mcp-macros",
  ].join("\n");
  assert.is(firstCargoError(output), "package `reentrancy-lab-rust-mcp-sdk-client` depends on `rust-mcp-sdk` with feature `client` but `rust-mcp-sdk` does not have that feature.");
});

test("bad input is one line and exit 2: --versions matching no rust-mcp-sdk release", async () => {
  const none = await runMain(["history", "--client", "rust-mcp-sdk", "--versions", "9.0.0..9.1.0"]);
  assert.is(none.code, 2);
  assert.match(none.stderr, /matches no release of rust-mcp-sdk|no crates\.io index: .*ru\/st\/rust-mcp-sdk/);
  assert.is(none.stderr.trim().split("\n").length, 1, none.stderr);
});

test.run();
