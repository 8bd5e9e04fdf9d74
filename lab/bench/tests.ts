// The test suite's time: `npm test` as a reader runs it, in its own process group (it starts uvu
// processes and they start peers), bounded, stopped by that group's own id if the bound passes;
// its wall time next to the goal, with the counts from its one summary (tests/support/parallel.ts).
import { PROJECT_ROOT } from "../paths.js";
import { runGroup } from "./group.js";

const BOUND_MS = 300_000;
export const TESTS_GOAL_MS = 45_000;

export interface TestsBench {
  wallMs: number;
  exitCode: number | null;
  /** stopped at the bound */
  stopped: boolean;
  total: number | undefined;
  passed: number | undefined;
  skipped: number | undefined;
  /** uvu's FAIL lines, each test that failed (a failing suite's time is no figure on its own) */
  failed: string[];
}

/** The counts of the suite's summary ("Total:", "Passed:", "Skipped:", the last of each; undefined
 *  where absent) and the tests that failed. */
export function testCounts(output: string): Pick<TestsBench, "total" | "passed" | "skipped" | "failed"> {
  const last = (word: string) => {
    const all = [...output.matchAll(new RegExp(`^ *${word}: *(\\d+)`, "gm"))];
    return all.length ? Number(all[all.length - 1]![1]) : undefined;
  };
  const failed = output.split("\n").flatMap((line) => (/^\s*FAIL\s/.test(line) ? [line.trim().replace(/\s+/g, " ")] : []));
  return { total: last("Total"), passed: last("Passed"), skipped: last("Skipped"), failed };
}

export async function benchTests(): Promise<TestsBench> {
  const r = await runGroup("npm", ["test", "--silent"], { cwd: PROJECT_ROOT }, BOUND_MS);
  return { wallMs: r.wallMs, exitCode: r.exitCode, stopped: r.stopped, ...testCounts(r.output) };
}
