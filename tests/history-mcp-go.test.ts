// `history --client mcp-go` (issue 46): seven releases run for real, the mcp-go driver built against each under
// build/history/mcp-go/ with the build tags of the shims it needs: 0.32.0 (does not compile: its cell keeps the
// compiler's first error), 0.39.1 (every shim tag; the sampling row only, the rest n/a), 0.41.0 (no roots handler,
// the form rows run), 0.43.2 (every row, mcpgo_pre1 and mcpgo_pre044), 0.58.0 (the last 0.x), 1.0.0 (the first with
// WithProtocolVersion, no tag) and 1.6.0; their ranges against expected/history/mcp-go.json, a moved boundary and a
// wrong outcome rejected naming their releases, the withdrawn forms' evidence, and bad input.
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

const SAMPLE = ["0.32.0", "0.39.1", "0.41.0", "0.43.2", "0.58.0", "1.0.0", "1.6.0"];
const GO = { name: "go", unavailable: () => (toolchainVersion(["go", "version"]) ? undefined : "go is not on PATH") };
const withGo = needs(GO);
let sample: Promise<HistoryData> | undefined;
const out = mkdtempSync(join(tmpdir(), "lab-history-mcp-go-"));
const ran = () => (sample ??= runHistory({ releases: SAMPLE, listed: "test", outDir: out, expectedDir: join(ROOT, "expected", "history"), source: MCP_GO_HISTORY }));
const evidence = (release: string, row: string) => JSON.parse(readFileSync(join(out, "history", `mcp-go-${release}.${row}.json`), "utf8")) as SessionEvidence;

test.after(() => rmSync(out, { recursive: true, force: true }));

withGo("seven releases: every cell as expected/history/mcp-go.json says; sampling from 0.34, forms from 0.40, roots from 0.43: nested requests complete, pings are answered, withdrawals never abort", async () => {
  const data = await ran();
  assert.equal(data.differences, [], JSON.stringify(data.differences));
  assert.is(rangesText(data.ranges["nested.stdio"]!), "not run 0.32.0, n/a 0.39.1, completes 0.41.0-1.6.0");
  assert.is(rangesText(data.ranges["samplingNested.stdio"]!), "not run 0.32.0, completes 0.39.1-1.6.0");
  assert.is(rangesText(data.ranges["rootsNested.stdio"]!), "not run 0.32.0, n/a 0.39.1-0.41.0, completes 0.43.2-1.6.0");
  assert.is(rangesText(data.ranges["ping.stdio"]!), "not run 0.32.0, n/a 0.39.1, answers 0.41.0-1.6.0");
  assert.is(rangesText(data.ranges["cancel0.stdio"]!), "not run 0.32.0, n/a 0.39.1, never aborted 0.41.0-1.6.0");
  const na = (row: string, release: string) => data.rows.find((r) => r.id === row)!.cells.find((c) => c.release === release)!.detail;
  assert.match(na("nested.stdio", "0.39.1"), /^no elicitation before v0\.40\.0/);
  assert.match(na("rootsNested.stdio", "0.41.0"), /^no roots handler before v0\.43\.0/);
});

withGo("0.32.0's cells keep the compiler's first error, in the driver's own path", async () => {
  const data = await ran();
  const cell = data.rows.find((r) => r.id === "nested.stdio")!.cells.find((c) => c.release === "0.32.0")!;
  assert.match(cell.detail, /^does not compile against the driver: lab\/peers\/mcp-go\/main\.go:\d+:\d+: undefined: transport\.RequestHandler$/);
});

withGo("the withdrawn forms: on 0.41.0, 0.43.2 and 1.6.0 both form callbacks (ids 0 and 1) ran to their end and none saw an abort", async () => {
  await ran();
  for (const release of ["0.41.0", "0.43.2", "1.6.0"]) {
    const events = evidence(release, "cancel0.stdio").events.filter((e) => e.side === "client");
    assert.equal(events.filter((e) => e.kind === "callback.aborted"), [], release);
    const forms = (kind: string) => events.filter((e) => e.kind === kind && e.method === "elicitation/create").map((e) => e.id);
    // ids 0 and 1 withdrawn, then the recovery call's form
    assert.equal(forms("callback.entered").slice(0, 2), [0, 1], release);
    assert.equal(forms("callback.left").sort(), forms("callback.entered").sort(), release);
  }
});

withGo("the build tags per release range: 0.58.0 (mcpgo_pre1) and 1.0.0 initialize at 2025-11-25, 0.43.2 and 0.39.1 (naming the SDK's latest themselves) at 2025-06-18, none probes server/discover", async () => {
  await ran();
  for (const [release, row, version] of [["0.39.1", "samplingNested.stdio", "2025-06-18"], ["0.43.2", "nested.stdio", "2025-06-18"], ["0.58.0", "nested.stdio", "2025-11-25"], ["1.0.0", "nested.stdio", "2025-11-25"]] as const) {
    const first = evidence(release, row).wire[0]!;
    assert.is(first.label.method, "initialize", release);
    assert.is((first.message as unknown as { params: { protocolVersion: string } }).params.protocolVersion, version, release);
  }
  const every = "mcpgo_pre1,mcpgo_pre044,mcpgo_pre043,mcpgo_pre041,mcpgo_pre040";
  assert.equal(SAMPLE.map((v) => MCP_GO_HISTORY_BUILD.tags(v).join(",")), [`${every},mcpgo_pre037`, every, "mcpgo_pre1,mcpgo_pre044,mcpgo_pre043", "mcpgo_pre1,mcpgo_pre044", "mcpgo_pre1", "", ""]);
});

withGo("a corrupted expectation fails naming its release: the elicitation boundary moved past 0.41.0, cancel0 said aborted", async () => {
  const data = await ran();
  assert.equal(movedBoundary(data, "nested.stdio", { outcome: "n/a", to: "0.41.0" }, { outcome: "completes", from: "0.41.1" }), ["nested.stdio 0.41.0 n/a"]);
  const wrong: ExpectedHistory = structuredClone(loadExpectedHistory("mcp-go")!);
  wrong.behaviours["cancel0.stdio"]!.ranges.find((r) => r.outcome === "never aborted")!.outcome = "aborted";
  assert.equal(historyDifferences(data.rows, wrong).map((d) => `${d.behaviour} ${d.release} ${d.expected}`), ["0.41.0", "0.43.2", "0.58.0", "1.0.0", "1.6.0"].map((v) => `cancel0.stdio ${v} aborted`));
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
