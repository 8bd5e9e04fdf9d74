// Comparing: what may differ between two honest runs is erased before comparing, and the first
// difference that remains is a mismatch, named by file, block and line.
import { eraseVarying } from "./erase.js";
import type { Block } from "./markers.js";

/**
 * What differs between two honest runs is erased, and only that: the time column a swimlane, report
 * or wire table begins with; durations in ms ("after 502.0 ms", "607 ms") and in s as the lab
 * prints them ("(13.5 s)", "built in 2.1 s", "wall time 9.9 s"); what a fan-out's span holds in
 * callbacks ("(1.5 callbacks)", a span divided by a callback's time); pids; temp paths; a moment in ISO form (a release list's listing time); uuids (an
 * HTTP session's id). A limit is kept ("limit 0.5 s", "the 0.5 s limit", "500 ms limit", "(limit
 * 500 ms)"), and so is every other number: versions, counts, ids, values. Two texts whose very
 * presence depends on timing go too: " after N ms in queue" (the swimlane prints it only when a wait
 * reaches 1 ms, so a loaded machine adds it) and Mermaid's "... N ms pass ..." notes (drawn only for
 * gaps over 40 ms). Then runs of spaces collapse to one, a swimlane line's two empty trailing lanes
 * go, and trailing blank lines go.
 */
export function normalise(lines: readonly string[]): string[] {
  return numbered(lines).map(([, text]) => text);
}

/** normalise(), keeping each kept line's index in the input. */
function numbered(lines: readonly string[]): [number, string][] {
  const out = lines
    .map((line, i): [number, string] => [
      i,
      eraseVarying(line)
        .replace(/\s+/g, " ")
        .trim()
        // A client-lane line ends in two empty lanes, unless its text was long enough to run
        // across them (as " after N ms in queue" makes it): the same line either way.
        .replace(/ │ │$/, ""),
    ])
    .filter(([, line]) => !/^Note over C,S: \.\.\. <n> ms pass \.\.\.$/.test(line));
  while (out.length && out[out.length - 1]![1] === "") out.pop();
  return sortServerRuns(out);
}

/** A swimlane line with text in the server lane only (after normalising). */
const SERVER_ONLY = /^<n> │ │ \S/;

/**
 * Over stdio the lab's server reads a chunk that may hold several frames: whether it records the
 * next frame's arrival before or after it dispatched the previous one is the scheduler's choice,
 * not the run's story. So a run of consecutive server-only lines is compared as a set (sorted);
 * its place among the client and wire lines, which carry the lesson's order, still counts.
 */
function sortServerRuns(lines: [number, string][]): [number, string][] {
  const out: [number, string][] = [];
  for (let i = 0; i < lines.length; ) {
    let j = i;
    while (j < lines.length && SERVER_ONLY.test(lines[j]![1])) j++;
    if (j === i) {
      out.push(lines[i]!);
      i++;
      continue;
    }
    out.push(...lines.slice(i, j).sort((a, b) => a[1].localeCompare(b[1])));
    i = j;
  }
  return out;
}

export interface Mismatch {
  file: string;
  block: Block;
  /** 1-based line in the file of the first line that differs */
  line: number;
  notebook: string | undefined;
  fresh: string | undefined;
}

/** The first difference after normalising: the stored line's index in the block, and both texts. */
export function firstDifference(stored: string[], fresh: string[]): { index: number; notebook?: string; fresh?: string } | undefined {
  const a = numbered(stored);
  const b = numbered(fresh);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i]?.[1] === b[i]?.[1]) continue;
    return { index: a[i]?.[0] ?? stored.length, ...(a[i] && { notebook: a[i]![1] }), ...(b[i] && { fresh: b[i]![1] }) };
  }
  return undefined;
}

const describeBlock = (b: Block) =>
  `output block run="${b.run}" show="${b.show}"${b.only ? ` only="${b.only.join(",")}"` : ""} (lines ${b.open}-${b.close})`;

export function describeMismatch(m: Mismatch): string {
  return [
    `${m.file}:${m.line}: ${describeBlock(m.block)} differs from a fresh run`,
    `    notebook: ${m.notebook ?? "(nothing)"}`,
    `    fresh:    ${m.fresh ?? "(nothing)"}`,
  ].join("\n");
}
