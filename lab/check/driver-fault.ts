// A client driver runs as its own process; when it misbehaves, the run fails through the
// ordinary verdicts (lifecycle problems, events-file problems, the session bound), and this says
// why in one line, naming the first cause: a hang (it never finished, so the lab closed it, and
// killed it by its handle if it outlived the grace), a non-zero exit, a stdout line that is not
// JSON-RPC, or an events file that does not fit the driver vocabulary. Pure: reads the evidence.
import { EXIT_GRACE_MS } from "../transports/child-process.js";
import type { TransportEvidence } from "../plan/evidence.js";

interface DriverRun {
  errors: string[];
  transportEvidence: TransportEvidence;
}

const lastLine = (text: string) => text.trim().split("\n").at(-1)?.slice(0, 200) ?? "";

export function driverFault(run: DriverRun): string | undefined {
  if (run.transportEvidence.kind !== "relay") return undefined;
  const { driver, driverEvents: events } = run.transportEvidence;
  const who = `client driver (pid ${driver.pid ?? "?"})`;
  const stderr = driver.stderr.trim() ? `; stderr: ${JSON.stringify(lastLine(driver.stderr))}` : "";
  // A driver ends its own session by exiting: one that was still running when the lab closed it hung.
  if (!driver.exitedDuringSession) {
    const bound = run.errors.find((e) => e.includes("did not finish within its bound")) ?? "it did not finish";
    const end = driver.forcedKill
      ? `killed by its handle (SIGKILL) ${EXIT_GRACE_MS} ms after its stdin closed`
      : `it exited ${driver.exitCode === null ? `on ${driver.signal}` : `with code ${driver.exitCode}`} once its stdin closed`;
    return `${who} hung: ${bound}; ${end}${stderr}`;
  }
  if (driver.exitCode !== 0) {
    return `${who} exited ${driver.exitCode === null ? `on signal ${driver.signal ?? "?"}` : `with code ${driver.exitCode}`}${stderr}`;
  }
  if (driver.stdoutErrors.length > 0) {
    return `${who} wrote a stdout line that is not one JSON-RPC message: ${JSON.stringify(driver.stdoutErrors[0]!.slice(0, 200))}`;
  }
  if (events && events.problems.length > 0) {
    return `${who} wrote a bad events file: ${events.problems[0]}${events.problems.length > 1 ? ` (and ${events.problems.length - 1} more)` : ""}`;
  }
  return undefined;
}
