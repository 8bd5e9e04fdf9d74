// What a transport hands back about itself, beside the timeline and the wire: one typed union,
// one member per way a session can be carried. A child's lifecycle is always under `server` or
// `driver`; the server's own record (a server that records itself) always under `serverRecord`.
import type { FrameType, RequestId } from "../history/frames.js";
import type { TimelineEvent, WireFrame } from "../history/timeline.js";

/** One stdio child's life as the lab saw it (lab/transports/child-process.ts). */
export type ChildEvidence = {
  command: string;
  args: string[];
  pid: number | null;
  exitCode: number | null;
  signal: string | null;
  /** the child outlived its grace after stdin closed and was killed with SIGKILL */
  forcedKill: boolean;
  /** the child exited before the lab closed it */
  exitedDuringSession: boolean;
  stdoutDrained: boolean;
  stderrDrained: boolean;
  /** stdout lines that were not one JSON-RPC message each (a partial last line included) */
  stdoutErrors: string[];
  stdinErrors: string[];
  /** the last STDERR_KEEP_CHARS characters of stderr */
  stderr: string;
  stderrTruncated: boolean;
  /** the pid of the warm interpreter this run was forked from (lab/transports/forked.ts), instead
   *  of a fresh `command args` */
  forkedFrom?: number;
  /** the pid of the driver host this run was a session of (lab/transports/hosts.md), instead of a
   *  fresh `command args`: `pid` is the host's too */
  hostedIn?: number;
  /** a driver ended its stdout and the lab then ended its stdin, as the server's exit would
   *  (lab/transports/process.ts), before the session's close */
  stdinEndedByPeerExit?: true;
  spawnToInitializedMs?: number;
  /** from the lab closing stdin to the child's exit */
  closeToExitMs?: number;
};

/** A JSON-RPC frame as HTTP evidence names it (no message bodies: those are on the wire). */
export interface FrameName {
  frameType: FrameType;
  id?: RequestId;
  method?: string;
}

export interface HttpRequestRecord {
  n: number;
  method: string;
  /** ms since the session started: request made, response headers in */
  t: number;
  tResponse?: number;
  /** POST: the JSON-RPC frames in the body */
  carries: FrameName[];
  /** the Mcp-Session-Id header this request carried (null: none) */
  sessionId: string | null;
  status?: number;
  contentType?: string | null;
  /** an SSE response: the frames its stream carried, in order */
  streamed?: FrameName[];
  /** the SSE stream reached its end (false: still open, or aborted, when the session closed) */
  streamEnded?: boolean;
  /** ms since the session started: the stream's end was read */
  tEnd?: number;
  /** the body of a response that failed (status >= 400), shortened */
  errorBody?: string;
  /** fetch itself failed (connection refused, reset, aborted) */
  error?: string;
  /** the request was in flight when the lab closed the client transport, which aborts it */
  duringClose?: boolean;
}

export interface HttpEvidence {
  url: string | null;
  /** the session id the server assigned (from the initialize response) */
  sessionId: string | null;
  requests: HttpRequestRecord[];
  /** for each frame the server sent: the request whose response stream carried it (wire index) */
  frameStreams: { frame: number; request: number; via: "POST" | "GET" }[];
  /** SSE events the SDK could not take as a JSON-RPC message */
  sseErrors: { request: number; data: string; reason: string }[];
  /** the GET stream was open before the client's first request after initialize */
  getStreamOpened: boolean;
  /** after the server was stopped, its port was no longer listening (null: not checked) */
  portReleased: boolean | null;
  port: number | null;
}

/** What the run output keeps of the driver's events file: its problems, and its text when it has any. */
export interface DriverEventsEvidence {
  /** the file's name in build/scratch/ (the file itself is removed once read) */
  file: string;
  lines: number;
  /** each names its line; empty when every line was a valid driver event */
  problems: string[];
  /** the file as the driver wrote it (up to EVENTS_KEEP_CHARS), kept only when it has problems */
  text?: string;
  truncated?: boolean;
}

/** What a server that records itself kept of its own side (null: it wrote nothing: it died or misbehaved). */
export interface ServerRecord {
  events: TimelineEvent[];
  wire: WireFrame[];
}

export type TransportEvidence =
  /** the transport failed to open (the session's errors say why) */
  | { kind: "unopened" }
  /** both peers in this process, linked in memory */
  | { kind: "memory" }
  /** a client in this process, its server peer a stdio child */
  | { kind: "stdio"; server: ChildEvidence; serverRecord?: ServerRecord | null }
  /** a client driver in another process: the lab plays its server end, for a server in this
   *  process, or relays each frame to a server child (`server`); `served`: the driver's own HTTP client
   *  talked to the lab's Streamable HTTP server at that URL (port released once it stopped) */
  | { kind: "relay"; driver: ChildEvidence; driverEvents: DriverEventsEvidence; server?: ChildEvidence; served?: { url: string; portReleased: boolean } }
  /** Streamable HTTP: a server child (`server`), or a server in this process (no `server`) */
  | { kind: "http"; http: HttpEvidence; server?: ChildEvidence; serverRecord?: ServerRecord | null };

export type TransportKind = TransportEvidence["kind"];

/** The child lifecycles a transport evidence holds, each with whether it ends by itself. */
export function childrenOf(evidence: TransportEvidence): { role: "server" | "driver"; child: ChildEvidence }[] {
  const out: { role: "server" | "driver"; child: ChildEvidence }[] = [];
  if (evidence.kind === "relay") out.push({ role: "driver", child: evidence.driver });
  if ((evidence.kind === "stdio" || evidence.kind === "relay" || evidence.kind === "http") && evidence.server) out.push({ role: "server", child: evidence.server });
  return out;
}

/** The server's own record: undefined when the server did not record itself (its events are the timeline's). */
export const serverRecordOf = (evidence: TransportEvidence): ServerRecord | null | undefined =>
  evidence.kind === "stdio" || evidence.kind === "http" ? evidence.serverRecord : undefined;

/** The server child's lifecycle, when the server ran as a child. */
export const serverChildOf = (evidence: TransportEvidence): ChildEvidence | undefined =>
  evidence.kind === "stdio" || evidence.kind === "relay" || evidence.kind === "http" ? evidence.server : undefined;

/** The client driver's lifecycle, when the client ran in another process. */
export const driverChildOf = (evidence: TransportEvidence): ChildEvidence | undefined => (evidence.kind === "relay" ? evidence.driver : undefined);

/** What the lab kept of HTTP itself, for an HTTP session. */
export const httpOf = (evidence: TransportEvidence): HttpEvidence | undefined => (evidence.kind === "http" ? evidence.http : undefined);
