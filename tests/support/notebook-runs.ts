// The notebooks' runs for the tests: each distinct `run` once for the whole test process, made
// by the lab's own main() in this process (what the notebooks test is about is what the blocks
// show, not the process boundary; `cliRunner` itself is exercised by one test of its own).
import { collectRun, runOutDir, type Runner, type RunOutput } from "../../lab/notebooks/runs.js";
import { runMain } from "./cli.js";

const cache = new Map<string, Promise<RunOutput>>();

/** One in-process run per `run` string, shared by every test; never two at once (console capture). */
export const sharedRunner: Runner = (run) => {
  let pending = cache.get(run);
  if (!pending) {
    const before = [...cache.values()];
    pending = Promise.allSettled(before).then(async () => {
      const out = runOutDir();
      const r = await runMain([...run.split(/\s+/), "--out", out]);
      if (r.threw) throw r.threw;
      return collectRun(run, out, { code: r.code, signal: null, stdout: `${r.stdout}\n`, stderr: r.stderr ? `${r.stderr}\n` : "" });
    });
    cache.set(run, pending);
  }
  return pending;
};
