// The scripted model's plan and what it records: the loopback model server that hosts (Codex,
// Claude Code, opencode, Qwen Code, Gemini CLI) are pointed at in place of a vendor's API.

/** the four APIs the hosts call: OpenAI Chat Completions and Responses, Anthropic Messages, Gemini */
export type ModelApi = "chat" | "responses" | "messages" | "gemini";

/** First "call `tool` with `arguments`"; once the conversation holds the tool's result, `final`.
 *  A request that offers no tools (a title, a summary) gets `plain`. */
export interface ModelPlan {
  tool: string;
  arguments: Record<string, unknown>;
  final: string;
  plain: string;
}

/** what one reply was: the tool call, the final text, plain text, or a refusal */
export type ModelPhase = "tool-call" | "final" | "plain" | "refused";

/** One request the server got and what it answered, in arrival order. */
export interface ModelExchange {
  seq: number;
  method: string;
  path: string;
  /** undefined when the path is none of the four APIs */
  api?: ModelApi;
  /** the request body as JSON, or its text when it was not JSON */
  request: unknown;
  /** the peer's address: always loopback, the server binds 127.0.0.1 only */
  remote: string;
  phase: ModelPhase;
  status: number;
  /** streamed as server-sent events, or one JSON body */
  streamed: boolean;
  /** the body exactly as sent */
  answer: string;
  /** the tool name as the host offered it (codex: inside namespace `mcp__NAME`) */
  calledAs?: string;
  /** why a request was refused */
  refusal?: string;
}

/** the evidence of one scripted model session */
export interface ModelEvidence {
  plan: ModelPlan;
  port: number;
  exchanges: ModelExchange[];
  /** "stop": its owner stopped it; "bound": its bound expired first */
  stoppedBy?: "stop" | "bound";
}
