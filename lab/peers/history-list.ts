// A registry's release list for a history (issue 46), cached for a day under build/history/ in a file named by
// the SDK and the registry asked: the one owner of that cache for every HistorySource.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BUILD_DIR } from "../paths.js";
import type { ReleaseList } from "../plan/history.js";
import { writeStamp } from "./cached-build.js";

/** LAB_HISTORY_DIR: another cache, as bench's fresh run uses (lab/bench/history.ts); else build/history/. */
export const HISTORY_DIR = process.env.LAB_HISTORY_DIR ?? join(BUILD_DIR, "history");
const LIST_FOR_MS = 24 * 3600_000;

/** The list `ask` reads from `registry` (newest last), or the cached one while it is a day old at most; when
 *  `ask` cannot read it: the cached list however old, else its problem (one line). */
export function cachedReleaseList(sdk: string, registry: string, ask: () => string[] | { problem: string }, now = new Date()): ReleaseList {
  const file = join(HISTORY_DIR, `${sdk}-releases-${createHash("sha256").update(registry).digest("hex").slice(0, 12)}.json`);
  const cached = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { versions: string[]; listed: string }) : undefined;
  if (cached && now.getTime() - Date.parse(cached.listed) < LIST_FOR_MS) return { ...cached, cached: true };
  const versions = ask();
  if ("problem" in versions) return cached ? { ...cached, cached: true } : versions;
  mkdirSync(HISTORY_DIR, { recursive: true });
  writeStamp(file, JSON.stringify({ versions, listed: now.toISOString() }));
  return { versions, listed: now.toISOString(), cached: false };
}
