// Every peer the lab knows, by name. Adding an SDK: write its driver, add one entry here.
// Order is the order of columns in reports and the card.
import type { LoopModel } from "../history/receive-loop.js";
import { AI_SDK_CLIENT } from "./ai-sdk/index.js";
import { FASTMCP_CLIENT, FASTMCP_SERVER } from "./fastmcp/index.js";
import { FAST_AGENT_CLIENT } from "./fast-agent/index.js";
import { GENKIT_CLIENT } from "./genkit/index.js";
import { LANGCHAIN_CLIENT } from "./langchain/index.js";
import { LANGCHAIN_PY_CLIENT } from "./langchain-py/index.js";
import { MASTRA_CLIENT } from "./mastra/index.js";
import { MCP_GO_CLIENT } from "./mcp-go/index.js";
import { MCP_USE_CLIENT } from "./mcp-use/index.js";
import { OPENAI_AGENTS_CLIENT } from "./openai-agents/index.js";
import { OPENAI_AGENTS_PY_CLIENT } from "./openai-agents-py/index.js";
import { GO_CLIENT } from "./go/index.js";
import { GOOGLE_ADK_CLIENT, GOOGLE_ADK_MCP1_CLIENT } from "./google-adk/index.js";
import { JAVA_CLIENT, JAVA_SYNC_CLIENT, KOTLIN_014_CLIENT, KOTLIN_CLIENT, SPRING_AI_CLIENT } from "./jvm/index.js";
import { PY_CLIENT, PY_INLINE_CLIENT, PY_MODERN_CLIENT, PY_SERVER } from "./py/index.js";
import { PY130_CLIENT, PY1_CLIENT, PY1_SERVER } from "./py1/index.js";
import { PYDANTIC_AI_CLIENT, PYDANTIC_AI_MCP1_CLIENT } from "./pydantic-ai/index.js";
import { RMCP_CLIENT } from "./rmcp/index.js";
import { RUST_MCP_SDK_CLIENT } from "./rust-mcp-sdk/index.js";
import { STRANDS_CLIENT, STRANDS_SYNC_CLIENT } from "./strands/index.js";
import { STRANDS_TS_CLIENT } from "./strands-ts/index.js";
import { SEMANTIC_KERNEL_CLIENT } from "./semantic-kernel/index.js";
import { TS1_CLIENT, TS1_SERVER } from "./ts1/index.js";
import { TS2_CLIENT, TS2_MODERN_CLIENT, TS2_SERVER } from "./ts2/index.js";
import type { ClientPeer, ServerPeer } from "../plan/peer.js";

export const CLIENT_PEERS: ClientPeer[] = [TS1_CLIENT, TS2_CLIENT, TS2_MODERN_CLIENT, AI_SDK_CLIENT, MASTRA_CLIENT, LANGCHAIN_CLIENT, OPENAI_AGENTS_CLIENT, GENKIT_CLIENT, PY_CLIENT, PY_INLINE_CLIENT, PY_MODERN_CLIENT, PY1_CLIENT, PY130_CLIENT, FASTMCP_CLIENT, PYDANTIC_AI_CLIENT, PYDANTIC_AI_MCP1_CLIENT, SEMANTIC_KERNEL_CLIENT, FAST_AGENT_CLIENT, LANGCHAIN_PY_CLIENT, MCP_USE_CLIENT, GOOGLE_ADK_CLIENT, GOOGLE_ADK_MCP1_CLIENT, STRANDS_CLIENT, STRANDS_SYNC_CLIENT, STRANDS_TS_CLIENT, OPENAI_AGENTS_PY_CLIENT, GO_CLIENT, MCP_GO_CLIENT, RMCP_CLIENT, RUST_MCP_SDK_CLIENT, KOTLIN_014_CLIENT, KOTLIN_CLIENT, JAVA_CLIENT, JAVA_SYNC_CLIENT, SPRING_AI_CLIENT];
/** The real client peers as listed here, whatever a process registers later (a test's toy). */
export const LISTED_CLIENT_PEERS: readonly ClientPeer[] = [...CLIENT_PEERS];
export const SERVER_PEERS: ServerPeer[] = [TS1_SERVER, TS2_SERVER, PY_SERVER, PY1_SERVER, FASTMCP_SERVER];

export const findClient = (name: string): ClientPeer | undefined => CLIENT_PEERS.find((p) => p.name === name);
export const findServer = (name: string): ServerPeer | undefined => SERVER_PEERS.find((p) => p.name === name);

/** Registers a peer for this process (tests add toy peers; real ones are listed above). */
export function registerClient(peer: ClientPeer): void {
  if (findClient(peer.name)) throw new Error(`a client peer named ${peer.name} exists already`);
  CLIENT_PEERS.push(peer);
}

/** One column of the matrix: a client peer under one loop model, against one server peer. */
export interface Column {
  client: ClientPeer;
  loop: LoopModel;
  server: ServerPeer;
}

/** `sdk`, `serial` for ts1 against ts1 (the names the lab always had); else loop.client.server. */
export function columnId(column: { client: string; loop: string; server: string }): string {
  return column.client === "ts1" && column.server === "ts1" ? column.loop : `${column.loop}.${column.client}.${column.server}`;
}

/** Can this pairing run over this transport? undefined if yes, else why not. `asked`: every transport the run was
 *  asked for; a process client runs over http only when http is asked alone (opt-in: the card and `all` stay as they were). */
export function transportProblem(column: Column, transport: string, asked: readonly string[] = [transport]): string | undefined {
  if (transport === "memory") {
    if (column.client.driver.kind !== "in-process") return `client ${column.client.name} runs in its own process`;
    if (!column.server.inProcess) return `server ${column.server.name} runs only as a child`;
  }
  if (transport === "stdio" && column.client.driver.kind === "in-process" && !column.server.child) return `server ${column.server.name} has no stdio child`;
  if (transport === "http") {
    if (column.client.driver.kind === "process") {
      if (!column.client.driver.http) return `client ${column.client.name} has no HTTP driver`;
      if (!column.server.inProcess) return `server ${column.server.name} cannot be served by the lab (a process client's HTTP session needs it in this process)`;
      if (asked.some((t) => t !== "http")) return `client ${column.client.name} runs over http only when asked alone (--transport http)`;
    } else if (!column.server.http) return `server ${column.server.name} has no HTTP child`;
  }
  return undefined;
}
