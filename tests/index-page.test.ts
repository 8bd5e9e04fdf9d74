// run-output/index.html as text, from real runs: every run listed with its outcome in words,
// failing checks named, evidence escaped, nothing outside the page referred to, card.json
// shown when present and skipped otherwise. tests/index-page-browser.test.ts opens it in Chromium.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readIndexInput } from "../lab/cli/index-page.js";
import { writeJsonAtomic } from "../lab/cli/output.js";
import { contractRow, loadContractExpectation } from "../lab/check/contract.js";
import { runContractCase } from "../lab/session/contract.js";
import { renderIndexPage, type IndexInput } from "../lab/render/index-page.js";
import { runOutcome } from "../lab/render/outcome.js";
import { renderSvg, svgFileName } from "../lab/render/svg.js";
import { writeRunSvgs } from "../lab/cli/svg-files.js";
import { runCase, type CaseReport } from "../lab/session/pipeline.js";
import { readVersions } from "../lab/peers/versions.js";
import { findScenario } from "../scenarios/index.js";
import { findContractCase } from "../scenarios/contract/index.js";
import { copy } from "./support/runs.js";

const versions = readVersions();
const memory = { transports: ["memory"], repeat: 1 };
let shared: Promise<{ nested: CaseReport; contract: CaseReport }> | undefined;
/** One real nested case (sdk, memory) and one real contract case, made once. */
function real() {
  shared ??= (async () => ({
    nested: await runCase(findScenario("nested")!, "sdk", { ...memory, onDeadlock: "wait" }, versions),
    contract: await runContractCase(findContractCase("accept_valid")!, loadContractExpectation("accept_valid"), memory, versions),
  }))();
  return shared;
}

function input(nested: CaseReport, contract?: CaseReport): IndexInput {
  const svg = svgFileName(nested.scenario, nested.column, "", "memory", 1);
  return {
    cases: [{ file: "nested.sdk.json", report: nested, svgs: { [svg]: renderSvg(nested.runs[0]!) } }],
    ...(contract
      ? { contract: { file: "contract.json", ok: contract.ok, cases: [contract], rows: contract.runs.map((run) => ({ case: contract.scenario, transport: run.transport, repeat: run.repeat, ...contractRow(contract.scenario, run), ok: run.ok })) } }
      : {}),
    skipped: [],
  };
}

/** A real report whose one check failed, as a wrong expectation would make it. */
function failing(report: CaseReport, detail = "$.first.value: expected integer 22, got integer 21"): CaseReport {
  const bad = copy(report);
  const run = bad.runs[0]!;
  run.verdicts[2] = { check: run.verdicts[2]!.check, ok: false, details: [detail] };
  run.ok = false;
  bad.ok = false;
  return bad;
}

const attrs = (html: string, name: string) => [...html.matchAll(new RegExp(`\\s${name}="([^"]*)"`, "g"))].map((m) => m[1]!);

test("every run is listed once, with its outcome in words, and a failing run names its failing check", async () => {
  const { nested, contract } = await real();
  const bad = failing(nested);
  const html = renderIndexPage(input(bad, contract));
  assert.is(attrs(html, "data-outcome").length, bad.runs.length + contract.runs.length);
  assert.equal(attrs(html, "data-outcome"), ["fail", "pass"]);
  assert.match(html, "2 runs</strong>: 1 passed, 1 failed");
  const check = bad.runs[0]!.verdicts[2]!.check;
  assert.match(html, `fails: ${check}`);
  assert.match(html, /<nav aria-label="failing runs">.*nested · sdk · memory · #1<\/a>: results \(type-aware\)/s);
  assert.match(html, "FAIL</span> <span class=\"check\">results (type-aware)</span><pre>$.first.value: expected integer 22, got integer 21</pre>");
  // The same page from the passing report says so, and lists no failing run.
  const good = renderIndexPage(input(nested));
  assert.not.match(good, "failing runs");
  assert.match(good, "Every run holds its hand-written expectations");
  assert.match(good, /What happened: 1 completed/);
});

test("the contract table comes from contract.json's rows, each row linked to its run", async () => {
  const { nested, contract } = await real();
  const html = renderIndexPage(input(nested, contract));
  const row = html.match(/<tr><th scope="row"><a href="#([^"]+)">accept_valid<\/a><\/th>(.*?)<\/tr>/);
  assert.ok(row, "a row for accept_valid");
  assert.match(row[2]!, /<td>memory<\/td><td>1<\/td><td>accept<\/td><td>calculated<\/td><td>true<\/td><td>21<\/td>/);
  assert.match(html, `<details id="${row[1]}">`);
  assert.match(html, 'data-scenario="contract"');
});

test("evidence text is escaped everywhere it is shown", async () => {
  const { nested } = await real();
  const hostile = `</pre><script>alert(1)</script>"><img src=x onerror=alert(2)>`;
  const bad = failing(nested, hostile);
  bad.runs[0]!.verdicts[3]!.check = hostile;
  bad.runs[0]!.errors = [hostile];
  bad.expectedFile = hostile;
  bad.loopMeaning = hostile;
  const html = renderIndexPage(input(bad));
  assert.is(html.split("<script").length - 1, 1, "the page's own script only");
  assert.not.match(html, "<img src=x");
  assert.not.match(html, "</pre><script>");
  assert.match(html, "&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;");
});

test("the page refers to nothing outside itself: links are anchors, images data: URLs, the SVG the run's own", async () => {
  const { nested, contract } = await real();
  const html = renderIndexPage(input(failing(nested), contract));
  assert.not.match(html, /https?:\/\//);
  for (const href of attrs(html, "href")) assert.ok(/^#[\w.-]+$/.test(href) || /^[\w.-]+\.svg$/.test(href), href);
  const srcs = attrs(html, "src");
  assert.is(srcs.length, 1);
  assert.is(Buffer.from(srcs[0]!.replace("data:image/svg+xml;base64,", ""), "base64").toString("utf8"), renderSvg(nested.runs[0]!));
  assert.match(html, `content="default-src 'none';`);
});

test("the folder reader: case reports and their SVGs, card.json when present, any other shape listed as not shown", async () => {
  const { nested, contract } = await real();
  const dir = mkdtempSync(join(tmpdir(), "lab-index-"));
  try {
    writeJsonAtomic(join(dir, "nested.sdk.json"), nested);
    writeRunSvgs(dir, nested, "");
    writeJsonAtomic(join(dir, "contract.json"), { command: "contract", ok: true, cases: [contract] });
    writeFileSync(join(dir, "broken.json"), "{ not json");
    writeJsonAtomic(join(dir, "other.json"), { scenario: "x", runs: "none" });
    let read = readIndexInput(dir);
    assert.is(read.cases.length, 1);
    assert.is(Object.values(read.cases[0]!.svgs)[0], renderSvg(nested.runs[0]!, { loopMeaning: nested.loopMeaning, onDeadlock: nested.onDeadlock, sdk: nested.versions.sdk, outcome: { ...runOutcome(nested.scenario, nested.runs[0]!), ok: nested.runs[0]!.ok } }));
    assert.is(read.contract?.cases.length, 1);
    assert.is(read.card, undefined);
    assert.equal(read.skipped.map((s) => s.file), ["broken.json", "other.json"]);
    assert.match(read.skipped[1]!.reason, "not the shape the page reads: $.client");
    let html = renderIndexPage(read);
    assert.not.match(html, "Report card");
    assert.match(html, "no table rows");
    assert.match(html, "<code>other.json</code>: not the shape the page reads");

    const cells = [
      { row: "nested", column: "sdk", text: "first = 21", verdict: "pass" },
      { row: "nested", column: "serial", text: "first = cancelled <held>", verdict: false },
    ];
    writeJsonAtomic(join(dir, "card.json"), { cells });
    read = readIndexInput(dir);
    assert.equal(read.card, cells);
    html = renderIndexPage(read);
    assert.match(html, /<h2 id="card-h">Report card<\/h2>/);
    assert.match(html, /<th scope="row">nested<\/th><td>.*PASS<\/span><div>first = 21<\/div><\/td><td>.*FAIL<\/span><div>first = cancelled &lt;held&gt;<\/div>/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
