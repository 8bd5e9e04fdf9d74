// `serve --once`: the probe as one step of a client's own test suite. The server ends once the
// client has had both probes answered (probe_receive_loop, then probe_fan_out), or when the
// client ends its session, or at its limit; it writes the verdicts as JSON (--report FILE) and
// exits 0 for a concurrent receive loop, 1 for a serial one, 2 when inconclusive or not run.
import { renameSync, writeFileSync } from "node:fs";
import type { ProbeListener } from "./probe-tools.js";

export const ONCE_LIMIT_MS = { default: 120_000, min: 1_000, max: 600_000 };
export const ONCE_EXIT = { concurrent: 0, serial: 1, other: 2 } as const;

export type Ended = "both probes answered" | "the client ended the session" | "the limit";

export interface OnceReport {
  verdict: string;
  exitCode: number;
  ended: Ended;
  receiveLoop: Record<string, unknown> | null;
  fanOut: Record<string, unknown> | null;
}

export interface Once {
  listener: ProbeListener;
  /** After each frame the server sent: the run ends once the last probe's result is out. */
  sent(message: unknown): void;
  end(why: Ended): void;
}

export function probeOnce(report: string | undefined, limitMs: number, exit: (code: number) => void): Once {
  const results: { receive_loop?: Record<string, unknown>; fan_out?: Record<string, unknown> } = {};
  let complete = false;
  let ended = false;
  const end = (why: Ended) => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    const verdict = String(results.receive_loop?.verdict ?? "not_run");
    const exitCode = verdict === "concurrent" ? ONCE_EXIT.concurrent : verdict === "serial" ? ONCE_EXIT.serial : ONCE_EXIT.other;
    const doc: OnceReport = { verdict, exitCode, ended: why, receiveLoop: results.receive_loop ?? null, fanOut: results.fan_out ?? null };
    if (report) {
      try {
        writeFileSync(`${report}.tmp`, `${JSON.stringify(doc, null, 2)}\n`);
        renameSync(`${report}.tmp`, report);
      } catch (error) {
        process.stderr.write(`serve --once: could not write ${report}: ${String(error)}\n`);
        return exit(ONCE_EXIT.other);
      }
    }
    process.stderr.write(`serve --once: receive loop ${verdict} (${why}); exit ${exitCode}\n`);
    exit(exitCode);
  };
  // Bounded: a client that never calls the probes, or never closes, still ends the run.
  const timer = setTimeout(() => end("the limit"), limitMs);
  return {
    listener: (probe, result) => {
      results[probe] = result;
      complete = results.receive_loop !== undefined && results.fan_out !== undefined;
    },
    sent: (message) => {
      const m = message as { id?: unknown; result?: { structuredContent?: { probe?: unknown } } };
      if (complete && m.id !== undefined && m.result?.structuredContent?.probe !== undefined) end("both probes answered");
    },
    end,
  };
}
