// Every citation of the lab's own code in expected/ resolves: the file exists and has the cited lines.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { PROJECT_ROOT } from "../lab/paths.js";
import { badCitations, badCitationsIn } from "./support/citations.js";

test("every lab/ file and line an expectation cites exists", () => {
  const bad = badCitationsIn(PROJECT_ROOT);
  assert.equal(bad.map((b) => `${b.file}: ${b.citation}: ${b.why}`), []);
});

test("a moved file and a line past a file's end are caught (a real basis, corrupted)", () => {
  const basis = "the server child (lab/peers/python/lab_server.py:77-81; lab/peers/py1/client.py)";
  assert.equal(badCitations(PROJECT_ROOT, "x.json", basis), []);
  assert.equal(badCitations(PROJECT_ROOT, "x.json", basis.replace("python/lab_server.py", "py/vocabulary.py")).map((b) => b.why), ["no such file"]);
  assert.equal(badCitations(PROJECT_ROOT, "x.json", basis.replace(":77-81", ":77-99999")).map((b) => b.why.startsWith("the file has")), [true]);
});

test.run();
