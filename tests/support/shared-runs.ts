// Runs made once per key and shared by a file's tests, at most `atOnce` at a time (the lab's one
// limiter, lab/session/slots.ts). A run's failure is reported by the test that awaits it; `settled`
// ends when every run asked for so far has, for a test.before that lets them end before its tests
// read them (a test's own synchronous work must not hold up their timers).
import { slots } from "../../lab/session/slots.js";

export function sharedRuns<T>(atOnce = Number.POSITIVE_INFINITY) {
  const made = new Map<string, Promise<T>>();
  const slot = slots(atOnce);
  return {
    get(key: string, make: () => Promise<T>): Promise<T> {
      let run = made.get(key);
      if (!run) {
        run = slot(make);
        run.catch(() => undefined);
        made.set(key, run);
      }
      return run;
    },
    settled: (): Promise<void> => Promise.allSettled(made.values()).then(() => undefined),
  };
}
