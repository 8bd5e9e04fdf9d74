// Bounds: no wait in the lab is open-ended. The numbers, and `withBound`, the one helper that enforces them.
export const CALL_TIMEOUT_MS = 15_000;
export const SESSION_BOUND_MS = 30_000;
/** A child may take its 5 s grace, the kill wait and the drain wait: 15 s bounds them all. */
export const TRANSPORT_CLOSE_BOUND_MS = 15_000;

export async function withBound<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within its bound of ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, bound]);
  } finally {
    clearTimeout(timer);
  }
}
