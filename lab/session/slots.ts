// At most `size` pieces of work at once; the rest wait their turn, in the order they asked. The
// one limiter of the lab: notebook runs, the card's sessions, all's and contract's cases, the vocabulary's sessions, and the
// tests' runs started ahead (tests/support/shared-runs.ts).
export function slots(size: number): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (work) => {
    if (running >= size) await new Promise<void>((go) => waiting.push(go));
    running++;
    try {
      return await work();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
