// What the report card costs (issue #13's speed goal: under 90 s on a quiet 2-core machine): the
// whole card run as `tsx lab/run.ts card` makes it, its wall time with its pairing count and the
// card's own limit on sessions at once. A pairing's own time is no figure now: its sessions share
// that limit with every other pairing's, so it counts their wait for a slot.
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
  pairings: number;
  asExpected: number;
  /** the pairings whose card differs from the expected one, by key */
  differing: string[];
}

export async function benchCard(): Promise<CardBench> {
  const out = mkdtempSync(join(tmpdir(), "lab-bench-card-"));
  try {
    const start = performance.now();
    const card = await runCard({ outDir: out, expectedDir: CARD_EXPECTED_DIR });
    const wallMs = performance.now() - start;
    return {
      wallMs,
      sessionsAtOnce: SESSIONS_AT_ONCE,
      pairings: card.columns.length,
      asExpected: card.columns.filter((c) => c.differs.length === 0).length,
      differing: card.columns.filter((c) => c.differs.length > 0).map((c) => c.key),
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
