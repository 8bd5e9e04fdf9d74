// A test that needs a peer (a build, a venv) never passes by checking nothing. When the peer cannot
// run here, under CI=true (.ci/run, where every peer must run) the test fails, naming the peer and
// why; elsewhere it is registered as uvu's test.skip, so uvu counts it under Skipped, and its name,
// which says the peer and why, is printed as a SKIP line: uvu keeps no skipped test's name, and
// npm test's runner (parallel.ts) lists these lines under its tally.
import { test as uvuTest } from "uvu";

/** what a test can need: a client or server peer, or anything else that says why it cannot run */
export interface Needed {
  name: string;
  unavailable(): string | undefined;
}
type Test = typeof uvuTest;
type Handler = Parameters<Test>[1];

/** LAB_TEST_UNAVAILABLE=rmcp,go: these peers count as unable to run in this process, whatever their
 *  builds say. Test-only: it shows what a missing build does without touching the build that other
 *  runs on this machine use. */
export const UNAVAILABLE_ENV = "LAB_TEST_UNAVAILABLE";
/** the start of the line a named skip prints (parallel.ts reads it) */
export const SKIP_MARK = "  SKIP  ";

/** Why this peer cannot run here, or undefined when it can. */
export function whyNot(peer: Needed): string | undefined {
  const named = (process.env[UNAVAILABLE_ENV] ?? "").split(",").map((name) => name.trim());
  return named.includes(peer.name) ? `${UNAVAILABLE_ENV} names it` : peer.unavailable();
}

/** "<peer> cannot run here: <why>" for the first of `peers` that cannot; undefined when all can. */
export function missingOf(peers: readonly Needed[]): string | undefined {
  for (const peer of peers) {
    const why = whyNot(peer);
    if (why !== undefined) return `${peer.name} cannot run here: ${why}`;
  }
  return undefined;
}

export interface NeedsTest {
  (name: string, handler: Handler): void;
  /** what is missing ("<peer> cannot run here: <why>"), or undefined when every peer can run */
  readonly missing: string | undefined;
}

/**
 * `needs(PEER)("name", fn)` registers `fn` as a test when PEER can run here; else, under CI=true, a
 * test that fails naming the peer and why, and elsewhere a counted skip whose name says both. Work a
 * file starts ahead of its tests (a test.before) checks `.missing` first.
 */
export function needs(peers: Needed | readonly Needed[], on: Test = uvuTest, ci = process.env.CI === "true"): NeedsTest {
  const missing = missingOf([peers].flat());
  const register = (name: string, handler: Handler) => {
    if (missing === undefined) return on(name, handler);
    const named = `${name} [${ci ? "" : "skipped: "}${missing}]`;
    if (ci)
      return on(named, () => {
        throw new Error(`${missing} (CI=true: a peer that cannot run fails the tests that need it)`);
      });
    skipNamed(named, on);
  };
  return Object.assign(register, { missing });
}

/** uvu's test.skip, counted under Skipped, with its name printed (uvu keeps none): a test that is
 *  skipped by design (a verdict not claimed yet), whatever CI says. */
export function skipNamed(name: string, on: Test = uvuTest): void {
  on.skip(name, () => {});
  process.stdout.write(`${SKIP_MARK}${name}\n`);
}
