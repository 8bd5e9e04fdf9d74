// What the lab keeps of HTTP itself, below JSON-RPC: every request the SDK's client transport
// makes (through the fetch the lab hands it), its status, and which response stream each frame
// from the server came on. The SSE bytes pass through untouched; a tap reads the same events the
// SDK reads, so nothing here changes what the SDK sees. Kept as transport evidence, not in frames.
import { JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { classify } from "../history/frames.js";
import type { Recorder } from "../history/timeline.js";
import type { FrameName, HttpEvidence, HttpRequestRecord } from "../plan/evidence.js";

const BODY_KEEP_CHARS = 2_000;

export class HttpLog {
  readonly evidence: HttpEvidence = {
    url: null, sessionId: null, requests: [], frameStreams: [], sseErrors: [], getStreamOpened: false, portReleased: null, port: null,
  };
  private closing = false;
  private readonly pending: { request: HttpRequestRecord; name: FrameName }[] = [];
  private getOpened!: () => void;
  /** every SSE response's end, as its tap reads it */
  private readonly streamEnds: Promise<void>[] = [];
  readonly getOpen = new Promise<void>((resolve) => (this.getOpened = resolve));

  constructor(private readonly recorder: Recorder) {}

  /** From now on, a failing request is one the close aborted. */
  markClosing(): void {
    this.closing = true;
  }

  /** The fetch the SDK's client transport is given: records, then hands back the same bytes. */
  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    const request: HttpRequestRecord = {
      n: this.evidence.requests.length, method: init?.method ?? "GET", t: this.recorder.now(),
      carries: bodyFrames(init?.body), sessionId: headers.get("mcp-session-id"),
    };
    this.evidence.requests.push(request);
    let response: Response;
    try {
      response = await fetch(input, init);
    } catch (error) {
      request.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      if (this.closing) request.duringClose = true;
      throw error;
    }
    request.tResponse = this.recorder.now();
    request.status = response.status;
    request.contentType = response.headers.get("content-type");
    this.evidence.sessionId ??= response.headers.get("mcp-session-id");
    if (response.status >= 400) request.errorBody = (await response.clone().text().catch(() => "")).slice(0, BODY_KEEP_CHARS);
    if (!response.body || !request.contentType?.startsWith("text/event-stream")) return response;
    request.streamed = [];
    request.streamEnded = false;
    if (request.method === "GET" && response.ok) {
      this.evidence.getStreamOpened = true;
      this.getOpened();
    }
    let ended!: () => void;
    this.streamEnds.push(new Promise<void>((resolve) => (ended = resolve)));
    const body = response.body.pipeThrough(sseTap((data) => this.event(request, data), () => ((request.streamEnded = true), (request.tEnd = this.recorder.now()), ended())));
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };

  /** Settles once every SSE stream opened so far has reached its end. */
  streamsEnded(): Promise<void> {
    return Promise.all(this.streamEnds).then(() => undefined);
  }

  /** One SSE event's data, read before the SDK reads the same bytes. */
  private event(request: HttpRequestRecord, data: string): void {
    let message: JSONRPCMessage;
    try {
      const parsed = JSONRPCMessageSchema.safeParse(JSON.parse(data));
      if (!parsed.success) throw new Error(`not a JSON-RPC message: ${parsed.error.message}`);
      message = parsed.data;
    } catch (error) {
      this.evidence.sseErrors.push({ request: request.n, data: data.slice(0, BODY_KEEP_CHARS), reason: error instanceof Error ? error.message : String(error) });
      return;
    }
    const name = nameOf(message);
    request.streamed!.push(name);
    this.pending.push({ request, name });
  }

  /**
   * The SDK handed on a frame that is about to become wire frame `frame`: the tap has read it
   * already (it sees each chunk first), so the first pending event with the same name is it.
   */
  attribute(message: JSONRPCMessage, frame: number): void {
    const name = nameOf(message);
    const i = this.pending.findIndex((p) => sameName(p.name, name));
    if (i === -1) return;
    const { request } = this.pending.splice(i, 1)[0]!;
    this.evidence.frameStreams.push({ frame, request: request.n, via: request.method === "GET" ? "GET" : "POST" });
  }
}

function nameOf(message: unknown): FrameName {
  const c = classify(message);
  return { frameType: c.frameType, ...(c.id !== undefined && { id: c.id }), ...(c.method !== undefined && { method: c.method }) };
}

const sameName = (a: FrameName, b: FrameName) => a.frameType === b.frameType && a.id === b.id && a.method === b.method;

function bodyFrames(body: unknown): FrameName[] {
  if (typeof body !== "string") return [];
  try {
    const parsed: unknown = JSON.parse(body);
    return (Array.isArray(parsed) ? parsed : [parsed]).map(nameOf);
  } catch {
    return [];
  }
}

/**
 * Passes the bytes through and calls `onData` with each event's data, by the SSE rules: lines end
 * in CRLF, LF or CR; a blank line ends an event; `data:` lines join with LF; `:` lines are
 * comments (the server's keep-alives). Only events of type `message` (or none) carry frames.
 */
export function sseTap(onData: (data: string) => void, onEnd: () => void): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  let buffer = "";
  let data: string[] = [];
  let type = "";
  const lines = (text: string, final: boolean) => {
    buffer += text;
    for (;;) {
      const m = /\r\n|\n|\r/.exec(buffer);
      // a CR at the very end may be the first half of a CRLF still on its way
      if (!m || (!final && m[0] === "\r" && m.index === buffer.length - 1)) return;
      line(buffer.slice(0, m.index));
      buffer = buffer.slice(m.index + m[0].length);
    }
  };
  const line = (text: string) => {
    if (text === "") {
      if (data.length > 0 && (type === "" || type === "message")) onData(data.join("\n"));
      data = [];
      type = "";
      return;
    }
    if (text.startsWith(":")) return;
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    const value = colon === -1 ? "" : text.slice(colon + 1).replace(/^ /, "");
    if (field === "data") data.push(value);
    else if (field === "event") type = value;
  };
  return new TransformStream({
    transform(chunk, controller) {
      lines(decoder.decode(chunk, { stream: true }), false);
      controller.enqueue(chunk);
    },
    flush() {
      lines(decoder.decode(), true);
      onEnd();
    },
  });
}

/** The HTTP evidence's own rules for a normal run, as readable violations. */
export function httpProblems(evidence: HttpEvidence | undefined): string[] {
  if (!evidence) return [];
  const problems: string[] = [];
  const what = (r: HttpRequestRecord) => `${r.method} #${r.n}${r.carries.length ? ` (${r.carries.map(frameText).join(", ")})` : ""}`;
  for (const r of evidence.requests) {
    if (r.error !== undefined && !r.duringClose) problems.push(`${what(r)} failed: ${r.error}`);
    if (r.status !== undefined && r.status >= 400) problems.push(`${what(r)} was answered ${r.status}: ${JSON.stringify(r.errorBody ?? "")}`);
  }
  for (const e of evidence.sseErrors) problems.push(`an SSE event on the response to request #${e.request} is not one JSON-RPC message (${e.reason}): ${JSON.stringify(e.data)}`);
  if (evidence.sessionId !== null && !evidence.getStreamOpened) problems.push("the GET stream for the server's own requests never opened");
  if (evidence.portReleased === false) problems.push(`port ${evidence.port} was still listening after the server was stopped`);
  return problems;
}

export const frameText = (f: FrameName) => `${f.frameType === "request" || f.frameType === "notification" ? f.method : f.frameType}${f.id !== undefined ? ` #${f.id}` : ""}`;
