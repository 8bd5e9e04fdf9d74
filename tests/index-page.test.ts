// run-output/index.html and each run's own page as text, from real runs: every run listed on
// one line with its outcome in words and a link to its page, failing checks named there,
// evidence escaped, nothing outside the folder referred to, card.json shown when present and
// skipped otherwise; the index of 700 runs under 2 MB; a serial run's index says deadlock and
// holds no path of this machine. tests/index-page-browser.test.ts opens them in Chromium.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readIndexInput } from "../lab/cli/index-page.js";
import { writeJsonAtomic } from "../lab/cli/output.js";
import { contractRow, loadContractExpectation } from "../lab/check/contract.js";
import { runContractCase } from "../lab/session/contract.js";
import { renderIndexPage, type IndexInput } from "../lab/render/index-page.js";
import { renderRunPages } from "../lab/render/run-page.js";
import { svgFileName } from "../lab/render/svg.js";
import { writeRunSvgs } from "../lab/cli/svg-files.js";
import { runCase, type CaseReport } from "../lab/session/pipeline.js";
import { readVersions } from "../lab/peers/versions.js";
import { findScenario } from "../scenarios/index.js";
import { findContractCase } from "../scenarios/contract/index.js";
import { copy } from "./support/runs.js";
import { runMain } from "./support/cli.js";
import { pathsIn } from "./support/machine-paths.js";

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
    cases: [{ file: "nested.sdk.json", report: nested, svgs: { [svg]: true } }],
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
  // The check's details are on the run's own page, which the line links to.
  const page = renderRunPages(input(bad, contract))[0]!;
  assert.is(page.file, "nested.sdk.memory-1.html");
  assert.match(html, `<a class="name" href="${page.file}">nested</a>`);
  assert.match(page.html, "FAIL</span> <span class=\"check\">results (type-aware)</span><pre>$.first.value: expected integer 22, got integer 21</pre>");
  assert.not.match(html, "<pre>$.first.value");
  // The same page from the passing report says so, and lists no failing run.
  const good = renderIndexPage(input(nested));
  assert.not.match(good, "failing runs");
  assert.match(good, "Every run holds its hand-written expectations");
  assert.match(good, /What happened: 1 completed/);
});

test("the contract table comes from contract.json's rows, each row linked to its run", async () => {
  const { nested, contract } = await real();
  const html = renderIndexPage(input(nested, contract));
  const row = html.match(/<tr><th scope="row"><a href="([^"]+)">accept_valid<\/a><\/th>(.*?)<\/tr>/);
  assert.ok(row, "a row for accept_valid");
  assert.match(row[2]!, /<td>memory<\/td><td>1<\/td><td>accept<\/td><td>calculated<\/td><td>true<\/td><td>21<\/td>/);
  assert.is(row[1], "contract.accept_valid.memory-1.html");
  assert.ok(renderRunPages(input(nested, contract)).some((p) => p.file === row[1] && p.html.includes("contract accept_valid")));
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
  const page = renderRunPages(input(bad))[0]!.html;
  assert.is(html.split("<script").length - 1, 1, "the page's own script only");
  assert.is(page.split("<script").length - 1, 0, "a run page has no script");
  for (const text of [html, page]) {
    assert.not.match(text, "<img src=x");
    assert.not.match(text, "</pre><script>");
    assert.match(text, "&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;");
  }
});

test("the pages refer to nothing outside their folder: the index links run pages, a run page its SVG file", async () => {
  const { nested, contract } = await real();
  const html = renderIndexPage(input(failing(nested), contract));
  assert.not.match(html, /https?:\/\//);
  for (const href of attrs(html, "href")) assert.ok(/^#[\w.-]+$/.test(href) || /^[\w.-]+\.html$/.test(href), href);
  assert.equal(attrs(html, "src"), [], "no picture on the index");
  assert.match(html, `content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'"`);
  const page = renderRunPages(input(nested))[0]!.html;
  assert.not.match(page, /https?:\/\//);
  assert.equal(attrs(page, "src"), ["nested.sdk.memory-1.svg"]);
  assert.equal(attrs(page, "href"), ["index.html", "nested.sdk.memory-1.svg"]);
  assert.match(page, `content="default-src 'none'; img-src 'self'; style-src 'unsafe-inline'"`);
});

test("the index of 700 runs stays under 2 MB: each run's line measured, failing ones too", async () => {
  const { nested } = await real();
  const many = (report: CaseReport, n: number): IndexInput => {
    const copy = { ...report, runs: Array.from({ length: n }, (_, i) => ({ ...report.runs[0]!, repeat: i + 1 })) };
    return { cases: [{ file: "nested.sdk.json", report: copy, svgs: {} }], skipped: [] };
  };
  // A run that fails every check: its line names each one, the longest line a run can have.
  const bad = copy(nested);
  bad.runs[0]!.verdicts = bad.runs[0]!.verdicts.map((v) => ({ ...v, ok: false }));
  bad.runs[0]!.ok = false;
  for (const report of [nested, bad]) {
    const one = Buffer.byteLength(renderIndexPage(many(report, 1)));
    const full = Buffer.byteLength(renderIndexPage(many(report, 700)));
    const perRun = (full - one) / 699;
    // 1,500 bytes a line: 700 runs take 1.05 MB, room left for the card and the contract table.
    assert.ok(perRun <= 1500, `${perRun.toFixed(0)} bytes per run line`);
    assert.ok(full < 2_000_000, `${full} bytes for 700 runs`);
  }
});

test("a serial nested run's index says deadlock in its summary and holds no path of this machine", async () => {
  const out = mkdtempSync(join(tmpdir(), "lab-index-serial-"));
  try {
    const r = await runMain(["nested", "--loop", "serial", "--transport", "stdio", "--repeat", "1", "--out", out]);
    assert.is(r.code, 0, r.stderr);
    const html = readFileSync(join(out, "latest", "index.html"), "utf8");
    assert.match(html, /<p class="happened">What happened: 1 deadlocked[^<]*\.<\/p>/);
    assert.equal(pathsIn(html), []);
    assert.equal(pathsIn(readFileSync(join(out, "latest", "nested.serial.stdio-1.html"), "utf8")), []);
    // The control: the same scanner sees the folder's own path where it is written out.
    assert.equal(pathsIn(`see ${out}/latest/index.html`).map((p) => p.path), [tmpdir()]);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
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
    assert.equal(read.cases[0]!.svgs, { [svgFileName("nested", "sdk", "", "memory", 1)]: true });
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
