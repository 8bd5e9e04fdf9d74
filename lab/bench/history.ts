// A release history's cost (issue 46): `history --client <sdk>` run twice in one bench, both times into a scratch
// history cache (LAB_HISTORY_DIR, lab/peers/history-list.ts): first with the cache empty (fresh: every release
// installed or compiled; the toolchains' own caches, ~/.m2, the uv, Go and cargo caches, stay as they are), then
// again (warm: every release cached). Each run in its own process group, bounded (group.ts).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROJECT_ROOT } from "../paths.js";
import { runGroup } from "./group.js";

export const HISTORY_FRESH_GOAL_MS = 600_000;
export const HISTORY_WARM_GOAL_MS = 90_000;
const BOUND_MS = 1_200_000;
const TSX = join(PROJECT_ROOT, "node_modules", "tsx", "dist", "cli.mjs");

export interface HistoryRun {
  wallMs: number;
  /** null: stopped at the bound */
  exitCode: number | null;
  /** the run's own count line ("mcp (Python SDK): 43 releases, ..."), or its last line when it has none */
  said: string;
}

async function runOnce(sdk: string, cache: string, out: string): Promise<HistoryRun> {
  const env = { ...process.env, LAB_HISTORY_DIR: cache, NO_COLOR: "1" };
  const r = await runGroup(process.execPath, [TSX, "lab/run.ts", "history", "--client", sdk, "--out", out], { cwd: PROJECT_ROOT, env }, BOUND_MS, 100_000);
  const lines = r.output.trim().split("\n");
  // the count line, else the one-line error; Node's own warnings (a child given NODE_OPTIONS) are no figure
  const said = lines.find((l) => / releases?, /.test(l)) ?? lines.find((l) => l.startsWith("error:")) ?? lines.filter((l) => !/warning/i.test(l)).at(-1) ?? "no output";
  return { wallMs: r.wallMs, exitCode: r.exitCode, said };
}

/** Fresh then warm, for one SDK; the scratch cache and run output are removed after. */
export async function benchHistory(sdk: string): Promise<{ fresh: HistoryRun; warm: HistoryRun }> {
  const scratch = mkdtempSync(join(tmpdir(), `lab-history-bench-${sdk}-`));
  try {
    const cache = join(scratch, "history");
    const fresh = await runOnce(sdk, cache, join(scratch, "out"));
    const warm = await runOnce(sdk, cache, join(scratch, "out"));
    return { fresh, warm };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
