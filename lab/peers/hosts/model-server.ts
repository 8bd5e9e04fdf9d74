// The scripted model: a loopback HTTP server that hosts are pointed at in place of a vendor's API.
// It follows a plan (call the plan's tool, then, once the conversation holds the tool's result,
// a final text; a request with no tools gets plain text), records every request and the body it
// answered, and refuses anything else with one clear error. It binds 127.0.0.1 only, so a host
// that reaches it is on this machine; it stops by its handle or when its bound expires.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import type { ModelApi, ModelEvidence, ModelExchange, ModelPlan } from "../../plan/model-plan.js";
import { apiOf, errorBody, holdsResult, modelOf, offered, planTool, render, wantsStream, type Reply } from "./model-apis.js";

/** the largest request body read; a host's whole conversation fits well below it */
const MAX_BODY = 16 * 1024 * 1024;

export interface ModelServer {
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** what it got and answered so far (a copy) */
  evidence(): ModelEvidence;
  /** stops listening and drops open connections; resolves with the evidence; idempotent */
  stop(): Promise<ModelEvidence>;
  /** resolves once it has stopped, by its handle or by its bound */
  ended: Promise<ModelEvidence>;
}

interface Answer {
  phase: ModelExchange["phase"];
  status: number;
  streamed: boolean;
  body: string;
  api?: ModelApi;
  calledAs?: string;
  refusal?: string;
}

/** What the plan answers to one request (pure: the recording and the socket are the caller's). */
export function answerFor(plan: ModelPlan, method: string, path: string, request: unknown, seq: number): Answer {
  const api = apiOf(method, path);
  const refuse = (status: number, why: string): Answer => refusal(api, status, why);
  if (api === undefined && /^https?:\/\//.test(path)) return refuse(403, `network: the host tried to reach ${path.split("?")[0]} (refused: the lab runs hosts offline)`);
  if (api === undefined) return refuse(404, `no such API: ${method} ${path.split("?")[0]} (it answers POST chat/completions, responses, messages, models/M:streamGenerateContent)`);
  if (request === null || typeof request !== "object" || Array.isArray(request)) return refuse(400, "the request body is not a JSON object");
  const body = request as Record<string, unknown>;
  const tools = offered(api, body);
  const streamed = wantsStream(api, path, body);
  const model = modelOf(api, path, body);
  const send = (phase: Answer["phase"], reply: Reply, calledAs?: string): Answer => ({ phase, status: 200, streamed, body: render(api, reply, seq, model, streamed), api, calledAs });
  if (tools.length === 0) return send("plain", { text: plan.plain });
  if (holdsResult(api, body)) return send("final", { text: plan.final });
  const tool = planTool(tools, plan.tool);
  if (tool === undefined) return refuse(400, `the plan's tool ${plan.tool} is not among the ${tools.length} tools offered (${tools.map((t) => t.name).slice(0, 12).join(", ")})`);
  const calledAs = tool.namespace ? `${tool.namespace}/${tool.name}` : tool.name;
  return send("tool-call", { call: tool, arguments: plan.arguments }, calledAs);
}

/** A refusal in the API's own error shape, so a host prints its reason. */
const refusal = (api: ModelApi | undefined, status: number, why: string): Answer => ({ phase: "refused", status, streamed: false, body: errorBody(api, `scripted model: ${why}`), api, refusal: why });

/** Starts the scripted model on 127.0.0.1 (a free port); it stops itself after `boundMs`. */
export async function startModelServer(plan: ModelPlan, boundMs: number): Promise<ModelServer> {
  const exchanges: ModelExchange[] = [];
  let stoppedBy: ModelEvidence["stoppedBy"];
  const server = createServer((req, res) => void serve(req, res));

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const seq = exchanges.length + 1;
    const method = req.method ?? "";
    const path = req.url ?? "";
    const { text, tooLarge } = await readBody(req);
    let request: unknown = text;
    try {
      request = text === "" ? undefined : JSON.parse(text);
    } catch {
      // kept as text: refused below as not a JSON object
    }
    const answer = tooLarge
      ? refusal(apiOf(method, path), 413, `the request body is over ${MAX_BODY} bytes`)
      : answerFor(plan, method, path, request, seq);
    const remote = req.socket.remoteAddress ?? "";
    exchanges.push({
      seq, method, path, api: answer.api, request: tooLarge ? `(over ${MAX_BODY} bytes)` : request, remote,
      phase: answer.phase, status: answer.status, streamed: answer.streamed, answer: answer.body,
      ...(answer.calledAs ? { calledAs: answer.calledAs } : {}), ...(answer.refusal ? { refusal: answer.refusal } : {}),
    });
    res.writeHead(answer.status, { "content-type": answer.streamed ? "text/event-stream" : "application/json", "cache-control": "no-cache" });
    res.end(answer.body);
  }

  // A host is given this server as its HTTP(S) proxy too: a request for any other address comes
  // here as CONNECT (or an absolute URL) and is refused at once, recorded as a network attempt.
  server.on("connect", (req: IncomingMessage, socket: Duplex) => {
    const why = `network: the host tried to reach ${req.url ?? "?"} (refused: the lab runs hosts offline)`;
    exchanges.push({ seq: exchanges.length + 1, method: "CONNECT", path: req.url ?? "", request: undefined, remote: req.socket.remoteAddress ?? "", phase: "refused", status: 403, streamed: false, answer: "", refusal: why });
    socket.on("error", () => undefined);
    socket.end("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n");
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const evidence = (): ModelEvidence => ({ plan, port, exchanges: exchanges.map((e) => ({ ...e })), ...(stoppedBy ? { stoppedBy } : {}) });
  let ended!: (e: ModelEvidence) => void;
  const endedP = new Promise<ModelEvidence>((resolve) => (ended = resolve));
  const stop = (by: "stop" | "bound"): Promise<ModelEvidence> => {
    if (stoppedBy === undefined) {
      clearTimeout(bound);
      stoppedBy = by;
      server.close(() => ended(evidence()));
      server.closeAllConnections();
    }
    return endedP;
  };
  const bound = setTimeout(() => void stop("bound"), boundMs);
  return { port, url: `http://127.0.0.1:${port}`, evidence, stop: () => stop("stop"), ended: endedP };
}

/** The body as text, read up to MAX_BODY; past it the rest is drained unread. */
function readBody(req: IncomingMessage): Promise<{ text: string; tooLarge: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on("end", () => resolve({ text: Buffer.concat(chunks).toString("utf8"), tooLarge: size > MAX_BODY }));
    req.on("error", () => resolve({ text: Buffer.concat(chunks).toString("utf8"), tooLarge: size > MAX_BODY }));
  });
}
