// The docs' links lead somewhere in this repository, and nothing tracked cites a path outside it
// (issue #25). A link's target must be a file or folder in the working tree that git tracks or
// would track (an ignored, generated file such as run-output/index.html is missing in a fresh
// clone). Anchors (`#...`) are ignored: only the file part of a link is checked.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, normalize, sep } from "node:path";
import { PROJECT_ROOT } from "../lab/paths.js";

/** Files git tracks or would track (not ignored), relative to the root, with `/`. */
function repoFiles(): string[] {
  const out = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], { cwd: PROJECT_ROOT, encoding: "utf8" });
  return out.split("\0").filter((f) => f !== "");
}

/** Every file and every folder above one. */
function known(files: string[]): Set<string> {
  const all = new Set<string>(files);
  for (const f of files) for (let d = dirname(f); d !== "."; d = dirname(d)) all.add(d);
  return all;
}

/** Markdown with fenced code blocks and inline code spans blanked (their text is no link). */
function prose(markdown: string): string {
  const lines = markdown.split("\n");
  let fence: string | undefined;
  const kept = lines.map((line) => {
    const open = /^\s*(```+|~~~+)/.exec(line);
    if (fence !== undefined) {
      if (open && open[1]!.startsWith(fence)) fence = undefined;
      return "";
    }
    if (open) {
      fence = open[1]!;
      return "";
    }
    return line;
  });
  return kept.join("\n").replace(/(`+)[^`]*?\1/g, "");
}

/** The targets of inline links and images, `[x](t "title")`, and of reference definitions. */
export function linkTargets(markdown: string): string[] {
  const text = prose(markdown);
  const targets: string[] = [];
  for (const m of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(m[1]!);
  for (const m of text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)) targets.push(m[1]!);
  return targets;
}

/** A link is relative when it names no scheme (`https:`, `mailto:`) and is not only an anchor. */
const isRelative = (target: string) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith("#");

/** The broken relative links of one Markdown file (`file` relative to the root), each with why. */
export function brokenLinks(file: string, markdown: string, inRepo: Set<string>): string[] {
  const broken: string[] = [];
  for (const target of linkTargets(markdown).filter(isRelative)) {
    const path = decodeURIComponent(target.split("#")[0]!.split("?")[0]!);
    if (path === "") continue;
    if (path.startsWith("/")) {
      broken.push(`${file}: ${target}: an absolute path, not a link inside the repository`);
      continue;
    }
    const resolved = normalize(join(dirname(file), path)).split(sep).join("/").replace(/\/$/, "");
    if (resolved === ".." || resolved.startsWith("../")) broken.push(`${file}: ${target}: leads outside the repository`);
    else if (resolved !== "." && !inRepo.has(resolved)) broken.push(`${file}: ${target}: no such file in the repository (${resolved})`);
  }
  return broken;
}

// Written so that this file does not match itself.
const OUTSIDE: [string, RegExp][] = [
  ["a path to the shared folder beside the clone", /\.\.\/shared\b/],
  ["the lab notes outside the repository", /LAB-?NOTES/],
  ["an absolute path on the machine that wrote it", /(^|[\s`'"(=:])\/(work|root|home)\//],
];

/** Where a text cites a path outside the repository: `file:line: what`. */
export function outsideCitations(file: string, text: string): string[] {
  const found: string[] = [];
  text.split("\n").forEach((line, i) => {
    for (const [what, pattern] of OUTSIDE) if (pattern.test(line)) found.push(`${file}:${i + 1}: ${what}: ${line.trim().slice(0, 120)}`);
  });
  return found;
}

const files = repoFiles();
const inRepo = known(files);
const read = (f: string) => readFileSync(join(PROJECT_ROOT, f));
const isText = (bytes: Buffer) => !bytes.subarray(0, 8000).includes(0);
const DOCS = files.filter((f) => f.endsWith(".md"));

test("the docs this test is about are there to check", () => {
  for (const f of ["README.md", "lab/README.md", "notebooks/README.md", "notebooks/reference/findings.md", "notebooks/reference/manual.md"]) {
    assert.ok(DOCS.includes(f), `${f} is not in the repository`);
  }
  assert.ok(DOCS.filter((f) => f.startsWith("notebooks/")).length >= 10);
});

test("every relative Markdown link resolves to a file or folder in the repository", () => {
  const broken = DOCS.flatMap((f) => brokenLinks(f, read(f).toString("utf8"), inRepo));
  assert.ok(broken.length === 0, `broken links:\n${broken.join("\n")}`);
});

test("no tracked text file cites a path outside the repository", () => {
  const found = files.filter((f) => isText(read(f))).flatMap((f) => outsideCitations(f, read(f).toString("utf8")));
  assert.ok(found.length === 0, `paths outside the repository:\n${found.join("\n")}`);
});

test("the checks fail on a broken link, a link out of the repository and an outside citation", () => {
  const doc = [
    "[fine](findings.md#l1) [folder](../) [web](https://example.org/x.md) [top](#top)",
    "[gone](findings-nobody.md) ![gone too](../pictures/none.svg) [out](../../../elsewhere.md)",
    "`[in code](nowhere.md)`",
    "```md",
    "[in a fence](nowhere.md)",
    "```",
    "[ref]: ../README.md",
    "[bad ref]: ../missing.md",
  ].join("\n");
  const broken = brokenLinks("notebooks/reference/x.md", doc, inRepo);
  assert.equal(broken, [
    "notebooks/reference/x.md: findings-nobody.md: no such file in the repository (notebooks/reference/findings-nobody.md)",
    "notebooks/reference/x.md: ../pictures/none.svg: no such file in the repository (notebooks/pictures/none.svg)",
    "notebooks/reference/x.md: ../../../elsewhere.md: leads outside the repository",
    "notebooks/reference/x.md: ../missing.md: no such file in the repository (notebooks/missing.md)",
  ]);
  // A generated, git-ignored file is no target: a fresh clone does not have it.
  assert.equal(brokenLinks("README.md", "[page](run-output/index.html)", inRepo).length, 1);
  const cite = ["see " + ["..", "shared", "notes.md"].join("/"), "per " + "LAB" + "-NOTES §3", "in `" + "/wo" + "rk/wt/x`", "`src/mcp/shared/session.py`"].join("\n");
  assert.equal(outsideCitations("x.md", cite).map((l) => l.split(": ")[0]), ["x.md:1", "x.md:2", "x.md:3"]);
});

test.run();
