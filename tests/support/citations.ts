// The lab's own code cited in the hand-written expectations (a basis's "lab/peers/py1/client.py:100"): every
// such citation must name a file that exists and lines it has, so a move of the code (as the Python peers'
// into lab/peers/python/) cannot leave an expectation pointing at nothing. Returns data: what does not resolve.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const CITE = /\blab\/[\w./-]+?\.(?:py|ts|go|rs|java|kt)\b(?::(\d+)(?:-(\d+))?)?/g;

export interface BadCitation {
  file: string;
  citation: string;
  why: string;
}

function jsonFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? jsonFiles(path) : name.endsWith(".json") ? [path] : [];
  });
}

/** What in `text` (from `file`) cites the project's code wrongly, resolved against `root`. */
export function badCitations(root: string, file: string, text: string, lines = new Map<string, number>()): BadCitation[] {
  const bad: BadCitation[] = [];
  for (const match of text.matchAll(CITE)) {
    const cited = match[0].split(":")[0]!;
    const path = join(root, cited);
    if (!existsSync(path)) {
      bad.push({ file, citation: match[0], why: "no such file" });
      continue;
    }
    if (match[1] === undefined) continue;
    if (!lines.has(path)) lines.set(path, readFileSync(path, "utf8").split("\n").length);
    const last = Number(match[2] ?? match[1]);
    if (last > lines.get(path)!) bad.push({ file, citation: match[0], why: `the file has ${lines.get(path)} lines` });
  }
  return bad;
}

/** Every bad citation of the project's code in expected/. */
export function badCitationsIn(root: string): BadCitation[] {
  const lines = new Map<string, number>();
  return jsonFiles(join(root, "expected")).flatMap((file) => badCitations(root, file.slice(root.length + 1), readFileSync(file, "utf8"), lines));
}
