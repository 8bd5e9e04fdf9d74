// A bound on how many runs a test file starts ahead at once. Runs side by side share this
// process's event loop, where in-process servers keep their timers (a form withdrawn after 250 ms
// while a 500 ms callback runs): a few at a time overlap their waits without delaying those timers.
export function atOnce(limit: number): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  const queue: (() => void)[] = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((resolve) => queue.push(resolve));
    running++;
    try {
      return await work();
    } finally {
      running--;
      queue.shift()?.();
    }
  };
}
