// run-output/index.html in a real browser: Debian's Chromium, driven by playwright-core, opens the
// page from disk after a real CLI run with one failing run in it (a wrong value in a temporary
// copy of expected/). It counts the runs, filters to the failing one, opens its own page with the
// keyboard, finds its failing check and its diagram (the SVG file beside it, under the page's
// CSP), checks both pages fit a phone's width, and checks that no request left file://. It looks
// for cut text and sideways overflow on the index and the run page at 1400 px and 400 px, and in
// a run's SVG and card.svg (each text inside its cell or box). Screenshots: run-output/browser/.
// Without chromium on PATH the test is skipped (uvu counts it); in CI (CI=true, where .ci/run
// installs Chromium) a missing browser fails it.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { pathToFileURL } from "node:url";
import { RUN_OUTPUT_DIR } from "../lab/paths.js";
import { renderCardSvg } from "../lab/render/card.js";
import { cardFromExpected, loadExpectedCards } from "../lab/check/card-expected.js";
import { CLIENT_PEERS, SERVER_PEERS } from "../lab/peers/registry.js";
import { cutText, svgCut } from "./support/page-fit.js";
import { ROOT, runMain } from "./support/cli.js";
import { needs } from "./support/needs.js";

/** Debian's Chromium, found on PATH (so hiding it from PATH shows what a machine without it does). */
const CHROMIUM = (process.env.PATH ?? "").split(delimiter).map((d) => join(d, "chromium")).find((p) => existsSync(p)) ?? "chromium";
const SCREENSHOT_DIR = join(RUN_OUTPUT_DIR, "browser");
// Headless, no sandbox (root in CI), and every background network feature off.
const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

{
  const chromiumMissing = () => (existsSync(CHROMIUM) ? undefined : `${CHROMIUM} is missing: .ci/run should have installed it (apt-get install chromium)`);
  needs({ name: "chromium", unavailable: chromiumMissing })("index page in Chromium: every run listed, a filter, a failing run's page opened by keyboard, no request off file://", async () => {
    const { chromium } = await import("playwright-core");
    const expected = mkdtempSync(join(tmpdir(), "lab-page-expected-"));
    const out = mkdtempSync(join(tmpdir(), "lab-page-out-"));
    let browser: Awaited<ReturnType<typeof chromium.launch>> | undefined;
    try {
      cpSync(join(ROOT, "expected"), expected, { recursive: true });
      const file = join(expected, "nested.sdk.json");
      const doc = JSON.parse(readFileSync(file, "utf8"));
      doc.results.first.value = 22; // wrong on purpose: the sdk run fails, the serial run passes
      writeFileSync(file, JSON.stringify(doc));
      const r = await runMain(["nested", "--repeat", "1", "--transport", "memory", "--expected", expected, "--out", out]);
      assert.is(r.code, 1, r.stderr);

      const started = performance.now();
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS, timeout: 30_000 });
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const requests: string[] = [];
      context.on("request", (request) => requests.push(request.url()));
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      const pageErrors: string[] = [];
      page.on("pageerror", (error) => pageErrors.push(error.message));
      await page.goto(pathToFileURL(join(out, "latest", "index.html")).href);

      // Every run in the folder, and the count the page states.
      assert.is(await page.locator("[data-run]").count(), 2);
      assert.is(await page.locator("#total").textContent(), "2 runs");
      assert.is(await page.locator("#shown").textContent(), "2 of 2 runs shown");

      // Filter to the failed runs: only the sdk run is left, one line that says FAIL.
      await page.selectOption('select[name="outcome"]', "fail");
      const shown = page.locator("[data-run]:visible");
      assert.is(await shown.count(), 1);
      assert.is(await page.locator("#shown").textContent(), "1 of 2 runs shown");
      assert.is(await shown.getAttribute("data-peers"), "sdk");
      assert.match((await shown.textContent()) ?? "", "FAIL");

      // The serial run says on its line what happened: a deadlock, as the lab predicts.
      const serial = page.locator('[data-run][data-peers="serial"]');
      assert.match((await serial.textContent()) ?? "", /deadlocked until the SDK's request limit \(0\.5 s, error -32001\), as expected/);
      for (const file of ["index.html", "nested.sdk.memory-1.html"]) {
        const html = readFileSync(join(out, "latest", file), "utf8");
        assert.not.match(html, ROOT, `${file} shows no absolute path of the repository`);
        assert.not.match(html, out, `${file} shows no absolute path of its own folder`);
      }

      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOT_DIR, "index-desktop.png"), fullPage: true });
      // Nothing cut and nothing wider than the window, every run shown, at 1400 px and at 400 px.
      await page.selectOption('select[name="outcome"]', "");
      for (const width of [1400, 400]) {
        await page.setViewportSize({ width, height: 900 });
        assert.equal(await page.evaluate(cutText), [], `cut text at ${width} px`);
        assert.ok(await page.evaluate((w) => document.documentElement.scrollWidth <= w, width), `the page is no wider than ${width} px`);
      }
      await page.setViewportSize({ width: 1280, height: 900 });

      // Open the failing run's own page from the keyboard: its failing check in words, its diagram.
      await page.selectOption('select[name="outcome"]', "fail");
      await shown.locator("a.name").focus();
      await Promise.all([page.waitForURL(/nested\.sdk\.memory-1\.html$/), page.keyboard.press("Enter")]);
      const check = page.locator("ul.verdicts li.bad");
      assert.is(await check.count(), 1);
      assert.ok(await check.isVisible());
      const text = (await check.textContent()) ?? "";
      assert.match(text, "FAIL results (type-aware)");
      assert.match(text, "$.first.value: expected integer 22, got integer 21");
      // The SVG file beside the page, allowed by its CSP (img-src 'self'), decoded in full.
      const diagram = page.locator(".diagram img");
      await diagram.scrollIntoViewIfNeeded();
      await page.waitForFunction((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 1000, await diagram.elementHandle());
      await page.screenshot({ path: join(SCREENSHOT_DIR, "run-desktop.png"), fullPage: true });
      for (const width of [1400, 400]) {
        await page.setViewportSize({ width, height: 900 });
        assert.equal(await page.evaluate(cutText), [], `cut text on the run page at ${width} px`);
        assert.ok(await page.evaluate((w) => document.documentElement.scrollWidth <= w, width), `the run page is no wider than ${width} px`);
      }
      // A run's SVG and card.svg, inline in a page so that each text's box can be measured.
      const svgPage = await context.newPage();
      const card = renderCardSvg(cardFromExpected(loadExpectedCards(), { clients: CLIENT_PEERS.map((p) => p.name), servers: SERVER_PEERS.map((p) => p.name) }));
      for (const [name, svg] of [["nested.serial.memory-1.svg", readFileSync(join(out, "latest", "nested.serial.memory-1.svg"), "utf8")], ["card.svg", card]] as const) {
        await svgPage.setViewportSize({ width: 1400, height: 900 });
        await svgPage.setContent(`<!doctype html><html><body style="margin:0">${svg.replace(/^<\?xml[^>]*>/, "")}</body></html>`);
        assert.equal(await svgPage.evaluate(svgCut), [], `${name}: a text outside its box`);
        assert.ok(await svgPage.evaluate(() => document.querySelector("svg")!.getBoundingClientRect().width <= 1400), `${name} fits 1400 px`);
        await svgPage.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
      }
      await svgPage.close();
      // At a phone's width nothing but the diagram's own box scrolls sideways, on the run page
      // and on the index.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.evaluate(() => window.scrollTo(0, 0));
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), "the run page is no wider than 390 px");
      await page.screenshot({ path: join(SCREENSHOT_DIR, "run-phone.png") });
      await page.goBack();
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), "the index is no wider than 390 px");
      await page.screenshot({ path: join(SCREENSHOT_DIR, "index-phone.png") });

      assert.equal(pageErrors, []);
      assert.ok(requests.length >= 1);
      assert.equal(requests.filter((url) => !url.startsWith("file://") && !url.startsWith("data:")), [], "no request leaves file://");
      // Control: the listener does see a request that would leave (aborted before it goes out).
      await context.route("http://**", (route) => route.abort());
      await page.evaluate(() => document.body.append(Object.assign(document.createElement("img"), { src: "http://lab.invalid/x.png" })));
      await page.waitForFunction(() => (document.querySelector('img[src^="http:"]') as HTMLImageElement).complete);
      assert.ok(requests.includes("http://lab.invalid/x.png"), "the request listener sees requests off file://");
      console.log(`browser part: ${Math.round(performance.now() - started)} ms; screenshots in ${SCREENSHOT_DIR}`);
    } finally {
      await browser?.close();
      rmSync(expected, { recursive: true, force: true });
      rmSync(out, { recursive: true, force: true });
    }
  });
}

test.run();
