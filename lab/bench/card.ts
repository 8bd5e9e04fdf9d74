// What the report card costs (issue #13's speed goal: under 90 s on a quiet 2-core machine): the
// whole card run as `tsx lab/run.ts card` makes it, its wall time next to the sum of its
// pairings' own times (how much running sessions side by side buys), and the pairings that dominate.
// Measured, never asserted in tests; the card's own verdict is reported beside it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { CARD_EXPECTED_DIR } from "../check/card-expected.js";
import { runCard, SESSIONS_AT_ONCE } from "../cli/card.js";

export interface CardBench {
  wallMs: number;
  /** the card's own limit on sessions run at once, over all pairings */
  sessionsAtOnce: number;
  /** the pairings' own times added up (each pairing runs its sessions one after another) */
  sumMs: number;
  pairings: number;
  asExpected: number;
  /** the slowest pairings, slowest first */
  slowest: { key: string; ms: number }[];
}

export async function benchCard(): Promise<CardBench> {
  const out = mkdtempSync(join(tmpdir(), "lab-bench-card-"));
  try {
    const start = performance.now();
    const card = await runCard({ outDir: out, expectedDir: CARD_EXPECTED_DIR });
    const wallMs = performance.now() - start;
    const columns = card.columns.map((c) => ({ key: c.key, ms: c.ms }));
    return {
      wallMs,
      sessionsAtOnce: SESSIONS_AT_ONCE,
      sumMs: columns.reduce((sum, c) => sum + c.ms, 0),
      pairings: card.columns.length,
      asExpected: card.columns.filter((c) => c.differs.length === 0).length,
      slowest: [...columns].sort((a, b) => b.ms - a.ms).slice(0, 4),
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
