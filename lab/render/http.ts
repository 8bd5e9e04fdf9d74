// The HTTP under a run: each request the client transport made, what it carried, its status, and
// the frames its response stream brought. Reads the run's HTTP evidence only.
import { frameText } from "../transports/http-log.js";
import { type HttpEvidence, type HttpRequestRecord } from "../plan/evidence.js";

export interface HttpRow {
  n: number;
  method: string;
  carries: string;
  status: string;
  /** the frames on its SSE response, in order; "" when it had none */
  stream: string;
}

export function httpRows(evidence: HttpEvidence): HttpRow[] {
  return evidence.requests.map((r: HttpRequestRecord) => ({
    n: r.n,
    method: r.method,
    carries: r.carries.map(frameText).join(", "),
    status: r.status !== undefined ? String(r.status) : r.duringClose ? "aborted by the close" : `failed: ${r.error ?? "no answer"}`,
    stream: r.streamed ? r.streamed.map(frameText).join(", ") || "(none)" : "",
  }));
}

/** Text for the terminal report, after a run's swimlane. */
export function renderHttp(evidence: HttpEvidence): string {
  const rows = httpRows(evidence);
  const width = (pick: (r: HttpRow) => string) => Math.max(0, ...rows.map((r) => pick(r).length));
  const [wm, wc, ws] = [width((r) => r.method), width((r) => r.carries), width((r) => r.status)];
  const port = evidence.port === null ? "" : `, port ${evidence.port}${evidence.portReleased ? " released" : evidence.portReleased === false ? " STILL LISTENING" : ""}`;
  const head = `HTTP: ${rows.length} requests, session ${evidence.sessionId ?? "none"}${port}`;
  const lines = rows.map((r) =>
    `  #${String(r.n).padEnd(3)} ${r.method.padEnd(wm)}  ${r.carries.padEnd(wc)}  ${r.status.padEnd(ws)}${r.stream ? `  stream: ${r.stream}` : ""}`.trimEnd(),
  );
  const bad = evidence.sseErrors.map((e) => `  SSE event on #${e.request} is not JSON-RPC: ${JSON.stringify(e.data)}`);
  return [head, ...lines, ...bad].join("\n");
}
