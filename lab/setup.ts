// `npm ci`'s set-up (prepare): the driver schemas and the builds the README's
// first run needs (the TypeScript stdio children and the py1 venv), each only when its inputs
// changed, one line per build with its time. Every other peer builds on its first use;
// `npx tsx lab/run.ts setup [--strict] [PEER...]` (`npm run setup`) builds them all (or those named) now.
import { setup } from "./cli/setup.js";

if (import.meta.url === `file://${process.argv[1]}`) {
  // A failed build is reported and the rest still runs. Under `npm ci` (prepare) it does not fail the
  // install: the peer shows as unavailable and `peers --strict` fails CI; with --strict it exits 1 here.
  const started = performance.now();
  const ok = await setup("first-run");
  console.log(`set-up: the first run's builds ${ok ? "are ready" : "had failures"} (${((performance.now() - started) / 1000).toFixed(1)} s); every other peer builds on its first use, or now: npx tsx lab/run.ts setup`);
  if (!ok && process.argv.includes("--strict")) process.exitCode = 1;
}
