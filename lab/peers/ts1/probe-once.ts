// `serve --once`: the probe as one step of a client's own test suite. The server ends once the
// client has had the probes answered (probe_receive_loop, probe_fan_out, and probe_sampling when
// the client declared sampling), or when the client ends its session, or at its limit; it writes
// the verdicts as JSON (--report FILE) and exits 0 for a concurrent receive loop, 1 for a serial
// one (under either loop probe: a loop can differ by request type), 2 when inconclusive or not run.
import { renameSync, writeFileSync } from "node:fs";
import type { ProbeListener, ProbeName } from "./probe-tools.js";

export const ONCE_LIMIT_MS = { default: 120_000, min: 1_000, max: 600_000 };
export const ONCE_EXIT = { concurrent: 0, serial: 1, other: 2 } as const;

export type Ended = "the probes answered" | "the client ended the session" | "the limit";

export interface OnceReport {
  verdict: string;
  exitCode: number;
  ended: Ended;
  receiveLoop: Record<string, unknown> | null;
  fanOut: Record<string, unknown> | null;
  /** null: not called (the client declared no sampling, or ended first) */
  sampling: Record<string, unknown> | null;
}

/** Serial under either loop probe is serial; else the form probe's verdict, held back to
 *  inconclusive when a sampling probe that ran could not tell. A sampling probe not run (an error
 *  reply, as the AI SDK's -32601) leaves the form probe's verdict alone. */
export function overallVerdict(loop: string, sampling: string | undefined): string {
  if (loop === "serial" || sampling === "serial") return "serial";
  if (loop === "concurrent" && sampling === "inconclusive") return "inconclusive";
  return loop;
}

export interface Once {
  listener: ProbeListener;
  /** After each frame the server sent: the run ends once the last probe's result is out. */
  sent(message: unknown): void;
  end(why: Ended): void;
}

export function probeOnce(report: string | undefined, limitMs: number, exit: (code: number) => void, samplingDeclared: () => boolean): Once {
  const results: Partial<Record<ProbeName, Record<string, unknown>>> = {};
  let complete = false;
  let ended = false;
  const end = (why: Ended) => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    const sampling = results.sampling?.verdict;
    const verdict = overallVerdict(String(results.receive_loop?.verdict ?? "not_run"), sampling === undefined ? undefined : String(sampling));
    const exitCode = verdict === "concurrent" ? ONCE_EXIT.concurrent : verdict === "serial" ? ONCE_EXIT.serial : ONCE_EXIT.other;
    const doc: OnceReport = { verdict, exitCode, ended: why, receiveLoop: results.receive_loop ?? null, fanOut: results.fan_out ?? null, sampling: results.sampling ?? null };
    if (report) {
      try {
        writeFileSync(`${report}.tmp`, `${JSON.stringify(doc, null, 2)}\n`);
        renameSync(`${report}.tmp`, report);
      } catch (error) {
        process.stderr.write(`serve --once: could not write ${report}: ${String(error)}\n`);
        return exit(ONCE_EXIT.other);
      }
    }
    process.stderr.write(`serve --once: receive loop ${verdict}${sampling === undefined ? "" : ` (sampling probe: ${String(sampling)})`} (${why}); exit ${exitCode}\n`);
    exit(exitCode);
  };
  // Bounded: a client that never calls the probes, or never closes, still ends the run.
  const timer = setTimeout(() => end("the limit"), limitMs);
  return {
    listener: (probe, result) => {
      results[probe] = result;
      complete = results.receive_loop !== undefined && results.fan_out !== undefined && (results.sampling !== undefined || !samplingDeclared());
    },
    sent: (message) => {
      const m = message as { id?: unknown; result?: { structuredContent?: { probe?: unknown } } };
      if (complete && m.id !== undefined && m.result?.structuredContent?.probe !== undefined) end("the probes answered");
    },
    end,
  };
}
