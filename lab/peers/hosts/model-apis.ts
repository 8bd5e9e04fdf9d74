// The four model APIs the hosts call, as the scripted model speaks them: which tools a request
// offers, whether the conversation already holds a tool's result, and each API's reply (a tool call
// or text), streamed the way each host reads it. Shapes: OpenAI Chat Completions and Responses,
// Anthropic Messages (stream:true), Gemini generateContent / streamGenerateContent?alt=sse.
import type { ModelApi } from "../../plan/model-plan.js";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** a tool the request offers: its name, and the namespace a codex MCP tool sits in */
export interface Offered {
  name: string;
  namespace?: string;
}

/** what to send: a call of one offered tool, or text */
export type Reply = { call: Offered; arguments: Record<string, unknown> } | { text: string };

/** The API a request path names, or undefined (refused). */
export function apiOf(method: string, path: string): ModelApi | undefined {
  if (method !== "POST") return undefined;
  const bare = path.split("?")[0]!;
  if (/\/chat\/completions$/.test(bare)) return "chat";
  if (/\/responses$/.test(bare)) return "responses";
  if (/\/messages$/.test(bare)) return "messages";
  if (/\/models\/[^/]+:(stream)?[gG]enerateContent$/.test(bare)) return "gemini";
  return undefined;
}

/** Every tool the request offers, in its order. */
export function offered(api: ModelApi, body: Json): Offered[] {
  const tools = arr(body.tools).map(obj);
  switch (api) {
    case "chat":
      return tools.flatMap((t) => [str(obj(t.function).name) ?? str(t.name)].filter(isName).map((name) => ({ name })));
    case "responses":
      // codex offers its MCP tools as one namespace tool `mcp__NAME` holding functions
      return tools.flatMap((t) =>
        t.type === "namespace"
          ? arr(t.tools).map(obj).map((f) => str(f.name)).filter(isName).map((name) => ({ name, namespace: str(t.name) }))
          : [str(t.name)].filter(isName).map((name) => ({ name })),
      );
    case "messages":
      return tools.map((t) => str(t.name)).filter(isName).map((name) => ({ name }));
    case "gemini":
      return tools.flatMap((t) => arr(t.functionDeclarations).map(obj).map((f) => str(f.name)).filter(isName).map((name) => ({ name })));
  }
}
const isName = (v: string | undefined): v is string => v !== undefined && v !== "";

/** Does the conversation already hold a tool's result? */
export function holdsResult(api: ModelApi, body: Json): boolean {
  switch (api) {
    case "chat":
      return arr(body.messages).some((m) => obj(m).role === "tool");
    case "responses":
      return arr(body.input).some((i) => /_call_output$/.test(str(obj(i).type) ?? ""));
    case "messages":
      return arr(body.messages).some((m) => arr(obj(m).content).some((b) => obj(b).type === "tool_result"));
    case "gemini":
      return arr(body.contents).some((c) => arr(obj(c).parts).some((p) => obj(p).functionResponse !== undefined));
  }
}

/** The offered tool that is the plan's: its own name, or a host's prefix before it
 *  (claude `mcp__NAME__tool`, opencode `NAME_tool`). */
export function planTool(tools: readonly Offered[], tool: string): Offered | undefined {
  return tools.find((t) => t.name === tool) ?? tools.find((t) => [`_${tool}`, `-${tool}`, `.${tool}`].some((end) => t.name.endsWith(end)));
}

/** Does the request ask for a stream? Gemini says so in its path. */
export function wantsStream(api: ModelApi, path: string, body: Json): boolean {
  return api === "gemini" ? path.includes(":streamGenerateContent") : body.stream === true;
}

/** One server-sent event: `event:` where the API names its events (Responses, Messages). */
const sse = (data: unknown, event?: string): string => `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`;

/** The reply's body, exactly as sent, for request number `seq`. */
export function render(api: ModelApi, reply: Reply, seq: number, model: string, streamed: boolean): string {
  const id = `scripted-${seq}`;
  const args = "call" in reply ? JSON.stringify(reply.arguments) : "";
  switch (api) {
    case "chat": {
      const call = "call" in reply ? [{ index: 0, id: `call_${seq}`, type: "function", function: { name: reply.call.name, arguments: args } }] : undefined;
      const finish = call ? "tool_calls" : "stop";
      const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
      const base = { id, created: 0, model };
      if (!streamed) {
        const message = { role: "assistant", content: "text" in reply ? reply.text : null, ...(call ? { tool_calls: call.map(({ index: _, ...c }) => c) } : {}) };
        return JSON.stringify({ ...base, object: "chat.completion", choices: [{ index: 0, message, finish_reason: finish }], usage });
      }
      const delta = { role: "assistant", ...(call ? { tool_calls: call } : { content: (reply as { text: string }).text }) };
      const chunk = (choices: unknown[], extra: Json = {}) => sse({ ...base, object: "chat.completion.chunk", choices, ...extra });
      return chunk([{ index: 0, delta, finish_reason: null }]) + chunk([{ index: 0, delta: {}, finish_reason: finish }]) + chunk([], { usage }) + "data: [DONE]\n\n";
    }
    case "responses": {
      const item =
        "call" in reply
          ? { type: "function_call", id: `fc_${seq}`, call_id: `call_${seq}`, name: reply.call.name, ...(reply.call.namespace ? { namespace: reply.call.namespace } : {}), arguments: args, status: "completed" }
          : { type: "message", id: `msg_${seq}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: reply.text, annotations: [] }] };
      const usage = { input_tokens: 1, input_tokens_details: { cached_tokens: 0 }, output_tokens: 1, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 2 };
      const response = { id, object: "response", created_at: 0, model, status: "completed", output: [item], usage };
      if (!streamed) return JSON.stringify(response);
      const text = "text" in reply ? sse({ type: "response.output_text.delta", item_id: item.id, output_index: 0, content_index: 0, delta: reply.text }, "response.output_text.delta") : "";
      return (
        sse({ type: "response.created", response: { ...response, status: "in_progress", output: [] } }, "response.created") +
        sse({ type: "response.output_item.added", output_index: 0, item }, "response.output_item.added") +
        text +
        sse({ type: "response.output_item.done", output_index: 0, item }, "response.output_item.done") +
        sse({ type: "response.completed", response }, "response.completed")
      );
    }
    case "messages": {
      const block = "call" in reply ? { type: "tool_use", id: `toolu_${seq}`, name: reply.call.name, input: reply.arguments } : { type: "text", text: reply.text };
      const stop = "call" in reply ? "tool_use" : "end_turn";
      const message = { id, type: "message", role: "assistant", model, content: [block], stop_reason: stop, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } };
      if (!streamed) return JSON.stringify(message);
      const start = block.type === "tool_use" ? { ...block, input: {} } : { type: "text", text: "" };
      const delta = "call" in reply ? { type: "input_json_delta", partial_json: args } : { type: "text_delta", text: reply.text };
      return (
        sse({ type: "message_start", message: { ...message, content: [], stop_reason: null } }, "message_start") +
        sse({ type: "content_block_start", index: 0, content_block: start }, "content_block_start") +
        sse({ type: "content_block_delta", index: 0, delta }, "content_block_delta") +
        sse({ type: "content_block_stop", index: 0 }, "content_block_stop") +
        sse({ type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 1 } }, "message_delta") +
        sse({ type: "message_stop" }, "message_stop")
      );
    }
    case "gemini": {
      const part = "call" in reply ? { functionCall: { name: reply.call.name, args: reply.arguments } } : { text: reply.text };
      const answer = { candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }], usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 }, modelVersion: model, responseId: id };
      return streamed ? sse(answer) : JSON.stringify(answer);
    }
  }
}

/** the model a request names (Gemini: in its path) */
export function modelOf(api: ModelApi, path: string, body: Json): string {
  if (api === "gemini") return /\/models\/([^/:]+):/.exec(path)?.[1] ?? "scripted";
  return str(body.model) ?? "scripted";
}

/** Each API's error body, so a host prints the refusal's reason. */
export function errorBody(api: ModelApi | undefined, message: string): string {
  if (api === "messages") return JSON.stringify({ type: "error", error: { type: "invalid_request_error", message } });
  if (api === "gemini") return JSON.stringify({ error: { code: 400, message, status: "INVALID_ARGUMENT" } });
  return JSON.stringify({ error: { message, type: "invalid_request_error", code: null } });
}
