// `history --client mcp-go` (issue 46): five releases run for real, the mcp-go driver built against each under
// build/history/mcp-go/: 0.43.2 (the last that does not compile: its cell keeps the compiler's first error), 0.44.1
// (the first that does, with -tags mcpgo_pre1), 0.58.0 (the last 0.x), 1.0.0 (the first with WithProtocolVersion,
// no tag) and 1.6.0; their ranges against expected/history/mcp-go.json, a moved boundary and a wrong outcome
// rejected naming their releases, the withdrawn forms' evidence, and bad input.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, runCli, runMain } from "./support/cli.js";
import { needs } from "./support/needs.js";
import { movedBoundary } from "./support/history.js";
import { runHistory } from "../lab/cli/history.js";
import { historyDifferences, loadExpectedHistory, rangesText } from "../lab/check/history.js";
import type { ExpectedHistory, HistoryData } from "../lab/plan/history.js";
import type { SessionEvidence } from "../lab/plan/session.js";
import { toolchainVersion } from "../lab/peers/cached-build.js";
import { MCP_GO_HISTORY, MCP_GO_HISTORY_BUILD } from "../lab/peers/mcp-go/history.js";

const SAMPLE = ["0.43.2", "0.44.1", "0.58.0", "1.0.0", "1.6.0"];
const GO = { name: "go", unavailable: () => (toolchainVersion(["go", "version"]) ? undefined : "go is not on PATH") };
const withGo = needs(GO);
let sample: Promise<HistoryData> | undefined;
const out = mkdtempSync(join(tmpdir(), "lab-history-mcp-go-"));
const ran = () => (sample ??= runHistory({ releases: SAMPLE, listed: "test", outDir: out, expectedDir: join(ROOT, "expected", "history"), source: MCP_GO_HISTORY }));
const evidence = (release: string, row: string) => JSON.parse(readFileSync(join(out, "history", `mcp-go-${release}.${row}.json`), "utf8")) as SessionEvidence;

test.after(() => rmSync(out, { recursive: true, force: true }));

withGo("five releases: every cell as expected/history/mcp-go.json says; from 0.44.1 nested requests complete, pings are answered, withdrawals never abort", async () => {
  const data = await ran();
  assert.equal(data.differences, [], JSON.stringify(data.differences));
  for (const id of ["nested.stdio", "samplingNested.stdio", "rootsNested.stdio"]) assert.is(rangesText(data.ranges[id]!), "not run 0.43.2, completes 0.44.1-1.6.0", id);
  assert.is(rangesText(data.ranges["ping.stdio"]!), "not run 0.43.2, answers 0.44.1-1.6.0");
  assert.is(rangesText(data.ranges["cancel0.stdio"]!), "not run 0.43.2, never aborted 0.44.1-1.6.0");
});

withGo("0.43.2's cells keep the compiler's first error, in the driver's own path", async () => {
  const data = await ran();
  const cell = data.rows.find((r) => r.id === "nested.stdio")!.cells.find((c) => c.release === "0.43.2")!;
  assert.match(cell.detail, /^does not compile against the driver: lab\/peers\/mcp-go\/main\.go:\d+:\d+: undefined: transport\.ErrTransportClosed$/);
});

withGo("the withdrawn forms: on 0.44.1 and 1.6.0 both form callbacks (ids 0 and 1) ran to their end and none saw an abort", async () => {
  await ran();
  for (const release of ["0.44.1", "1.6.0"]) {
    const events = evidence(release, "cancel0.stdio").events.filter((e) => e.side === "client");
    assert.equal(events.filter((e) => e.kind === "callback.aborted"), [], release);
    const forms = (kind: string) => events.filter((e) => e.kind === kind && e.method === "elicitation/create").map((e) => e.id);
    // ids 0 and 1 withdrawn, then the recovery call's form
    assert.equal(forms("callback.entered").slice(0, 2), [0, 1], release);
    assert.equal(forms("callback.left").sort(), forms("callback.entered").sort(), release);
  }
});

withGo("the build tag per era: 0.58.0 (mcpgo_pre1) and 1.0.0 both initialize at 2025-11-25, neither probes server/discover", async () => {
  await ran();
  for (const release of ["0.58.0", "1.0.0"]) {
    const first = evidence(release, "nested.stdio").wire[0]!;
    assert.is(first.label.method, "initialize", release);
    assert.is((first.message as unknown as { params: { protocolVersion: string } }).params.protocolVersion, "2025-11-25", release);
  }
  assert.equal(SAMPLE.map((v) => MCP_GO_HISTORY_BUILD.tags(v).join(",")), ["mcpgo_pre1", "mcpgo_pre1", "mcpgo_pre1", "", ""]);
});

withGo("a corrupted expectation fails naming its release: the build boundary moved to 0.58.0, cancel0 said aborted", async () => {
  const data = await ran();
  assert.equal(movedBoundary(data, "nested.stdio", { outcome: "not run", to: "0.44.1" }, { outcome: "completes", from: "0.45.0" }), ["nested.stdio 0.44.1 not run"]);
  const wrong: ExpectedHistory = structuredClone(loadExpectedHistory("mcp-go")!);
  wrong.behaviours["cancel0.stdio"]!.ranges.find((r) => r.outcome === "never aborted")!.outcome = "aborted";
  assert.equal(historyDifferences(data.rows, wrong).map((d) => `${d.behaviour} ${d.release} ${d.expected}`), ["0.44.1", "0.58.0", "1.0.0", "1.6.0"].map((v) => `cancel0.stdio ${v} aborted`));
});

test("bad input is one line and exit 2: --versions matching no release, an HTTP transport", async () => {
  const none = await runMain(["history", "--client", "mcp-go", "--versions", "9.0.0..9.1.0"]);
  assert.is(none.code, 2);
  assert.match(none.stderr, /matches no release of github\.com\/mark3labs\/mcp-go|no Go module proxy/);
  assert.is(none.stderr.trim().split("\n").length, 1, none.stderr);
  const http = runCli(["history", "--client", "mcp-go", "--transport", "http"]);
  assert.is(http.code, 2);
  assert.match(http.stderr, /no http history: the history runs the mcp-go driver over its own stdin\/stdout only/);
  assert.is(http.stderr.trim().split("\n").length, 1, http.stderr);
});

test.run();
