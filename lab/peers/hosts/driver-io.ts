// What the lab's host drivers (agent-sdk-driver.ts, codex-app-driver.ts, elicitation-hook.ts)
// share: one JSON line per thing they saw on stdout (the host's run keeps it), a bounded wait,
// and how a driver ends.

const started = performance.now();
/** one JSON line on stdout: the event, ms since the driver started, its details */
export const say = (event: string, detail: Record<string, unknown> = {}) => process.stdout.write(`${JSON.stringify({ event, t: Math.round(performance.now() - started), ...detail })}\n`);
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `work`'s value, or why it failed or did not settle within `ms` */
export async function bounded<T>(work: Promise<T>, ms: number): Promise<{ ok: T } | { failed: string }> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<{ failed: string }>((resolve) => (timer = setTimeout(() => resolve({ failed: `no reply within ${ms} ms` }), ms)));
  try {
    return await Promise.race([work.then((ok) => ({ ok }), (error: unknown) => ({ failed: String((error as Error)?.message ?? error) })), limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs a driver's main: exit 0 when it ends, else one line naming the driver and exit 1. */
export function runDriver(name: string, main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${name}: ${String((error as Error)?.message ?? error)}\n`);
      process.exit(1);
    },
  );
}
