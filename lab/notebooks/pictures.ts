// A `picture` block: the run's SVG (lab/render/svg.ts), committed beside the notebooks in
// pictures/ and linked from the block. The engine writes the picture when its structure changed
// and `--check` compares it with a fresh run's by structure, never by time: every text of the
// SVG (title, row labels, arrow labels, notes, legend) in document order, with times removed.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { writeAtomic } from "../cli/output.js";
import { eraseVarying } from "./erase.js";
import type { RunOutput } from "./runs.js";

/** Pictures live in this folder beside the notebooks; a block links to them relatively. */
export const PICTURES_DIR = "pictures";

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&apos;": "'" };

/**
 * What an SVG says, in order, with what timing decides erased: each <text>'s content, its times,
 * durations and pids as <n> (erase.ts: versions and limits stay); a text that is only a time
 * (a row's label on the time axis) and a break's note (drawn only for a gap over 40 ms, which a
 * loaded machine can add) are left out. Positions, colours and spacing are not compared.
 */
export function svgStructure(svg: string): string[] {
  return [...svg.matchAll(/<text\b[^>]*>([^<]*)<\/text>/g)]
    .map((m) => eraseVarying(m[1]!.replace(/&[a-z]+;/g, (e) => ENTITIES[e] ?? e)).trim())
    .filter((text) => text !== "" && text !== "<n>" && !/^≈ <n> ms pass here/.test(text));
}

/** The first difference between two pictures' structures, or undefined when they say the same. */
export function pictureDifference(committed: string, fresh: string): { index: number; committed?: string; fresh?: string } | undefined {
  const a = svgStructure(committed);
  const b = svgStructure(fresh);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return { index: i, ...(a[i] !== undefined && { committed: a[i] }), ...(b[i] !== undefined && { fresh: b[i] }) };
  }
  return undefined;
}

/** The block's body: one image per SVG the run wrote, linked into pictures/. */
export function pictureLines(output: RunOutput): string[] {
  return Object.keys(output.svgs ?? {})
    .sort()
    .map((name) => `![the run ${name.replace(/\.svg$/, "")}, as the lab draws it](${PICTURES_DIR}/${name})`);
}

/**
 * Each of the run's pictures against the one committed beside the notebook: check reports the
 * first difference; otherwise a picture whose structure changed (or is missing) is written.
 */
export function syncPictures(notebookDir: string, output: RunOutput, check: boolean): { file: string; committed?: string; fresh?: string }[] {
  const problems: { file: string; committed?: string; fresh?: string }[] = [];
  for (const [name, svg] of Object.entries(output.svgs ?? {})) {
    const path = join(notebookDir, PICTURES_DIR, name);
    const file = `${PICTURES_DIR}/${name}`;
    const committed = existsSync(path) ? readFileSync(path, "utf8") : undefined;
    const difference = committed === undefined ? { index: 0, fresh: "(a picture)" } : pictureDifference(committed, svg);
    if (!difference) continue;
    if (check) problems.push({ file, ...(committed === undefined ? { committed: "(no such file)" } : { committed: difference.committed }), fresh: difference.fresh });
    else {
      mkdirSync(dirname(path), { recursive: true });
      writeAtomic(path, svg);
    }
  }
  return problems;
}
