// "Not run" reasons, grouped: one line per reason (at most LINE characters) with the pairings it
// covers, so forty pairings skipped for one cause read as one line; the full text goes to the store.
import type { NotRun } from "./matrix.js";

export const LINE = 200;

export interface Group {
  why: string;
  subjects: string[];
}

/** The reasons in the order first met, each with every subject it covers. */
export function groupNotRun(items: NotRun[]): Group[] {
  const groups = new Map<string, string[]>();
  for (const { subject, why } of items) groups.set(why, [...(groups.get(why) ?? []), subject]);
  return [...groups].map(([why, subjects]) => ({ why, subjects }));
}

/** Cuts `text` to `max` characters, the cut marked. */
export function cut(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** One line per group: `not run: <n> pairing(s) (<first subjects>): <reason>`, at most LINE characters. */
export function notRunLines(groups: Group[]): string[] {
  return groups.map(({ why, subjects }) => {
    const who = subjects.length === 1 ? subjects[0]! : `${subjects.length} (${subjects.slice(0, 2).join(", ")}${subjects.length > 2 ? ", …" : ""})`;
    const head = `not run: ${who}: `;
    return head.length >= LINE - 20 ? cut(`not run: ${subjects.length}: ${why}`, LINE) : cut(`${head}${why}`, LINE);
  });
}

/** The full text, for <invocation>/not-run.txt. */
export function notRunText(groups: Group[]): string {
  return groups.map(({ why, subjects }) => `${why}\n${subjects.map((s) => `  - ${s}`).join("\n")}\n`).join("\n");
}
