// What a command leaves on SIGINT/SIGTERM: a command with an invocation under way registers a hook
// that writes the pages of what finished (lab/cli/run-scenarios.ts); lab/run.ts calls it, then exits.
// Kept apart so that the entry point loads nothing heavy to install its handlers.
let hook: ((signal: string) => void) | undefined;

export function onInterrupt(write: (signal: string) => void): void {
  hook = write;
}

export function interruptHook(): ((signal: string) => void) | undefined {
  return hook;
}
