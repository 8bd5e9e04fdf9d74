// The committed picture of the real 1.29.0 nested run (notebooks/pictures/, shown by the README
// and notebook 01) against a fresh run, by structure: the same texts in the same order, times
// removed. Times alone never differ; a changed label or order does, and --check names it.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runNotebooks } from "../lab/notebooks/index.js";
import { pictureDifference, svgStructure } from "../lab/notebooks/pictures.js";
import { ROOT } from "./support/cli.js";
import { sharedRunner as shared } from "./support/notebook-runs.js";
import { PY1_CLIENT } from "../lab/peers/py1/index.js";
import { needs } from "./support/needs.js";

const RUN = "nested --client py1 --server ts1 --transport stdio --repeat 1";
const NAME = "nested.sdk.py1.ts1.stdio-1.svg";
const committed = readFileSync(join(ROOT, "notebooks", "pictures", NAME), "utf8");

test("the structure is the texts in order: rows, arrow labels, notes; no time", () => {
  const texts = svgStructure(committed);
  const arrows = ["tools/call #2", "elicitation/create #0", "tools/list #3", "result tools/list #3", "result elicitation/create #0", "result tools/call #2"];
  const places = arrows.map((a) => texts.indexOf(a));
  assert.ok(places.every((p, i) => p >= 0 && (i === 0 || p > places[i - 1]!)), `arrows out of order: ${places.join(",")}`);
  const failure = texts.indexOf("TIMEOUT (the SDK's request limit): nested tools/list");
  assert.ok(failure > 0 && texts.indexOf("result tools/list #3") < failure, "the reply is drawn before the failure");
  // its wait, unread on the client's pipe (issue 41, item 6): the band, and the read after the answer
  assert.ok(texts.includes("result tools/list #3 unread on the client's pipe"), "the unread band is drawn");
  assert.ok(texts.indexOf("callback #1 answers cancel") < texts.findIndex((t) => t.startsWith("result tools/list #3 read after")), "read only after the answer");
  assert.not.ok(texts.some((t) => /^\d+\.\d+$|\d+\.\d+ ms\b/.test(t)), "a time survived");
  // what does not vary from run to run stays: the SDKs' versions
  assert.ok(texts.some((t) => t.includes("Python SDK 1.29.0")), "the version was erased");
});

test("times, positions and a break's note alone make no difference; a label or an order does", () => {
  const retimed = committed.replace(/>\d+\.\d+</g, ">4321.9<").replace(/\d+\.\d+ ms\b/g, "4321.9 ms").replace(/ y="[\d.]+"/g, ' y="7"').replace(/≈ [\d.]+ ms pass here \(drawn shorter\)/g, "");
  assert.is(pictureDifference(committed, retimed), undefined);
  const relabelled = committed.replace(">result tools/list #3<", ">result tools/list #9<");
  assert.equal(pictureDifference(committed, relabelled)?.fresh, "result tools/list #9");
  const swapped = committed.replace(">callback #1 answers cancel<", ">SWAP<").replace(">failed 408<", ">callback #1 answers cancel<").replace(">SWAP<", ">failed 408<");
  assert.equal(pictureDifference(committed, swapped)?.committed, "failed 408");
  // a version or a limit is no time
  assert.ok(pictureDifference(committed, committed.replace("Python SDK 1.29.0", "Python SDK 2.3.0")), "a changed version is a difference");
  assert.ok(pictureDifference(committed, committed.replace(/\b0\.5 s\b/, "9.9 s")), "a changed limit is a difference");
});

needs(PY1_CLIENT)("the committed picture matches a fresh run of the real 1.29.0 client by structure", async () => {
  const fresh = (await shared(RUN)).svgs?.[NAME];
  assert.ok(fresh, `the run wrote no ${NAME}`);
  assert.is(pictureDifference(committed, fresh), undefined);
});

needs(PY1_CLIENT)("--check names a corrupted picture; the engine without --check rewrites it from the run", async () => {
  const dir = mkdtempSync(join(tmpdir(), "lab-pictures-"));
  try {
    mkdirSync(join(dir, "pictures"));
    writeFileSync(join(dir, "nb.md"), `# x\n\n<!-- lab:output run="${RUN}" show="picture" -->\n![the run nested.sdk.py1.ts1.stdio-1, as the lab draws it](pictures/${NAME})\n<!-- /lab:output -->\n`);
    cpSync(join(ROOT, "notebooks", "pictures", NAME), join(dir, "pictures", NAME));
    writeFileSync(join(dir, "pictures", NAME), committed.replace(">result tools/list #3<", ">result tools/list #9<"));
    const log: string[] = [];
    const checked = await runNotebooks({ dir, check: true, runner: shared, concurrency: 1, log: (l) => log.push(l) });
    assert.is(checked.code, 1);
    assert.is(checked.mismatches.length, 1, log.join("\n"));
    assert.match(checked.mismatches[0]!.notebook!, `pictures/${NAME}: result tools/list #9`);
    assert.is(checked.mismatches[0]!.fresh, "result tools/list #3");
    await runNotebooks({ dir, check: false, runner: shared, concurrency: 1, log: () => {} });
    assert.is(pictureDifference(committed, readFileSync(join(dir, "pictures", NAME), "utf8")), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
