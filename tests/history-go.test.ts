// `history --client go` (issue 46): five releases run for real, the Go driver built against each under
// build/history/go/: v1.1.0 (does not compile: the cell keeps the compiler's first error), v1.3.1 (the last whose
// elicitation capability has no json tags, so the ts1 server sends no form), v1.4.1 (the boundary: tags added),
// v1.7.0 (built with -tags gosdk_pre18: its own protocol version, a server/discover probe first) and v1.8.0 (the
// driver as the go peer builds it); their ranges against expected/history/go.json, a moved boundary rejected
// naming its release, and bad input.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, runCli, runMain } from "./support/cli.js";
import { needs } from "./support/needs.js";
import { movedBoundary } from "./support/history.js";
import { runHistory } from "../lab/cli/history.js";
import { rangesText } from "../lab/check/history.js";
import type { HistoryData } from "../lab/plan/history.js";
import type { SessionEvidence } from "../lab/plan/session.js";
import { PROJECT_ROOT } from "../lab/paths.js";
import { toolchainVersion } from "../lab/peers/cached-build.js";
import { firstGoError, newestPatchPerMinor } from "../lab/peers/go-history.js";
import { GO_HISTORY, GO_HISTORY_BUILD } from "../lab/peers/go/history.js";

const SAMPLE = ["1.1.0", "1.3.1", "1.4.1", "1.7.0", "1.8.0"];
const GO = { name: "go", unavailable: () => (toolchainVersion(["go", "version"]) ? undefined : "go is not on PATH") };
const withGo = needs(GO);
let sample: Promise<HistoryData> | undefined;
const out = mkdtempSync(join(tmpdir(), "lab-history-go-"));
const ran = () => (sample ??= runHistory({ releases: SAMPLE, listed: "test", outDir: out, expectedDir: join(ROOT, "expected", "history"), source: GO_HISTORY }));
const evidence = (release: string, row: string) => JSON.parse(readFileSync(join(out, "history", `go-${release}.${row}.json`), "utf8")) as SessionEvidence;

test.after(() => rmSync(out, { recursive: true, force: true }));

withGo("five releases: every cell as expected/history/go.json says; forms arrive from v1.4.1, and every one completes, answers, is aborted", async () => {
  const data = await ran();
  assert.equal(data.differences, [], JSON.stringify(data.differences));
  assert.is(rangesText(data.ranges["nested.stdio"]!), "not run 1.1.0, n/a 1.3.1, completes 1.4.1-1.8.0");
  for (const id of ["samplingNested.stdio", "rootsNested.stdio"]) assert.is(rangesText(data.ranges[id]!), "not run 1.1.0, completes 1.3.1-1.8.0", id);
  assert.is(rangesText(data.ranges["ping.stdio"]!), "not run 1.1.0-1.3.1, answers 1.4.1-1.8.0");
  assert.is(rangesText(data.ranges["cancel0.stdio"]!), "not run 1.1.0-1.3.1, aborted 1.4.1-1.8.0");
});

withGo("v1.1.0's cells keep the compiler's first error, in the driver's own path", async () => {
  const data = await ran();
  const cell = data.rows.find((r) => r.id === "nested.stdio")!.cells.find((c) => c.release === "1.1.0")!;
  assert.match(cell.detail, /^does not compile against the driver: lab\/peers\/go\/[a-z_]+\.go:\d+:\d+: undefined: jsonrpc\.Error$/);
});

withGo("v1.3.1 declares its elicitation capability as {Form, URL} (no json tags), so the server answers 'unsupported'; v1.4.1 as {form}", async () => {
  await ran();
  const caps = (release: string) => (evidence(release, "nested.stdio").wire[0]!.message as unknown as { params: { capabilities: { elicitation: object } } }).params.capabilities.elicitation;
  assert.ok("Form" in caps("1.3.1") && !("form" in caps("1.3.1")), JSON.stringify(caps("1.3.1")));
  assert.ok("form" in caps("1.4.1"), JSON.stringify(caps("1.4.1")));
  const call = evidence("1.3.1", "nested.stdio").wire.find((f) => f.from === "server" && JSON.stringify(f.message).includes("unsupported"));
  assert.ok(call, "the calculate tool answered 'unsupported'");
});

withGo("the build tag per era: v1.7.0 (gosdk_pre18) probes server/discover and falls back to initialize; v1.8.0 asks 2025-11-25 at once", async () => {
  await ran();
  const first = (release: string) => evidence(release, "nested.stdio").wire.filter((f) => f.from === "client").slice(0, 2).map((f) => f.label.method);
  assert.equal(first("1.7.0"), ["server/discover", "initialize"]);
  assert.equal(first("1.8.0"), ["initialize", "notifications/initialized"]);
  assert.equal(SAMPLE.map((v) => GO_HISTORY_BUILD.tags(v).join(",")), ["gosdk_pre18", "gosdk_pre18", "gosdk_pre18", "gosdk_pre18", ""]);
});

withGo("a boundary moved one release on in the expectation fails, naming v1.4.1", async () => {
  const data = await ran();
  assert.equal(movedBoundary(data, "nested.stdio", { outcome: "n/a", to: "1.4.1" }, { outcome: "completes", from: "1.6.1" }), ["nested.stdio 1.4.1 n/a"]);
});

test("the releases: the newest patch of each minor, pre-releases left out, 'v' dropped", () => {
  // the shape `go list -m -versions` prints after the module's name
  const listed = "v1.1.0 v1.2.0 v1.3.1 v1.4.0 v1.4.1 v1.5.0-pre.1 v1.6.0-pre.1 v1.6.0 v1.6.1 v1.10.0".split(" ");
  assert.equal(newestPatchPerMinor(listed), ["1.1.0", "1.2.0", "1.3.1", "1.4.1", "1.6.1", "1.10.0"]);
});

test("a failed build's cell keeps the compiler's first error, named by the driver's path", () => {
  const output = ["go: downloading golang.org/x/tools v0.34.0", "# reentrancy-lab/peers/go", "./callbacks.go:92:24: undefined: jsonrpc.Error", "./main.go:28:20: undefined: jsonrpc.Error"].join("\n");
  assert.is(firstGoError(output, "lab/peers/go"), "lab/peers/go/callbacks.go:92:24: undefined: jsonrpc.Error");
  assert.is(firstGoError(`go: ${PROJECT_ROOT}/x/go.mod: bad\n`, "lab/peers/go"), "go: x/go.mod: bad");
});

test("bad input is one line and exit 2: --versions matching no release, an HTTP transport, no Go module proxy", async () => {
  const none = await runMain(["history", "--client", "go", "--versions", "9.0.0..9.1.0"]);
  assert.is(none.code, 2);
  assert.match(none.stderr, /matches no release of github\.com\/modelcontextprotocol\/go-sdk|no Go module proxy/);
  assert.is(none.stderr.trim().split("\n").length, 1, none.stderr);
  const http = runCli(["history", "--client", "go", "--transport", "http"]);
  assert.is(http.code, 2);
  assert.match(http.stderr, /no http history: the history runs the Go driver over its own stdin\/stdout only/);
  assert.is(http.stderr.trim().split("\n").length, 1, http.stderr);
  // a proxy nothing listens on: its own cache key, so never cached
  const saved = process.env.GOPROXY;
  process.env.GOPROXY = "http://127.0.0.1:9";
  try {
    const r = await runMain(["history", "--client", "go"]);
    assert.is(r.code, 2);
    assert.is(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.match(r.stderr, /no Go module proxy: go list -m -versions github\.com\/modelcontextprotocol\/go-sdk could not read http:\/\/127\.0\.0\.1:9/);
  } finally {
    if (saved === undefined) delete process.env.GOPROXY;
    else process.env.GOPROXY = saved;
  }
});

test.run();
