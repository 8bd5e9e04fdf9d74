// Runs a SessionPlan on a framework whose MCP client declares no elicitation and hands out a client
// already connected (langchain, openai-agents, genkit): the framework connects, lists and calls
// tools through its own public API (each peer's adapter), and registers no callback, because it
// offers none. The plan's capabilities cannot be declared: the driver notes which were asked for and
// the framework's source line, and the run shows what a server then does (the calculate tool's
// `unsupported` path). What the framework's call API cannot express refuses the plan up front.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { withBound } from "../../plan/bounds.js";
import type { SessionPlan } from "../../plan/behaviour.js";
import type { EventSink } from "../perform.js";

/** What a framework hands back for one tool call, as its public API gives it. */
export interface FrameworkCall {
  /** the call's structured result when the framework passes it on, else what it returned */
  result: unknown;
  isError: boolean;
}

export interface FrameworkSession {
  listTools(): Promise<string[]>;
  callTool(name: string, args: Record<string, unknown>): Promise<FrameworkCall>;
  close(): Promise<void>;
}

export interface NoFormFramework {
  /** the peer's name */
  name: string;
  /** why the client declares what it declares: the framework's source line */
  declares: string;
  /** connects through the framework's public API over the session's transport */
  connect(transport: Transport, plan: SessionPlan, rec: EventSink): Promise<FrameworkSession>;
}

export const NO_FORM_SESSION_BOUND_MS = 60_000;
const CLOSE_BOUND_MS = 10_000;

/** The one refusal, the same for every such framework: a give-up is counted from the form opening,
 *  and with nothing declared no form can open. */
export function giveUpRefusal(plan: SessionPlan, framework: NoFormFramework): string | undefined {
  const call = plan.calls.find((c) => c.giveUpAfterMs !== undefined);
  return call ? `call ${call.label} gives up after ${call.giveUpAfterMs} ms: a give-up is counted from the form opening, and no form can open: ${framework.declares}` : undefined;
}

export function errorInfo(error: unknown): { code: number | null; message: string; type: string } {
  const e = error as { code?: unknown; message?: unknown; name?: unknown } | null;
  return {
    code: typeof e?.code === "number" ? e.code : null,
    message: typeof e?.message === "string" ? e.message : String(error),
    type: typeof e?.name === "string" ? e.name : typeof error,
  };
}

export async function runNoFormSession(framework: NoFormFramework, plan: SessionPlan, transport: Transport, rec: EventSink): Promise<string[]> {
  const refused = giveUpRefusal(plan, framework);
  if (refused) throw new Error(`plan ${plan.scenario} refused: ${framework.name} cannot run it: ${refused}`);
  const errors: string[] = [];
  const asked = Object.keys(plan.capabilities);
  if (asked.length > 0) rec.event("client", "note", { detail: { notDeclared: asked, why: framework.declares } });
  let session: FrameworkSession | undefined;
  try {
    await withBound(
      (async () => {
        session = await framework.connect(transport, plan, rec);
        if (plan.listToolsFirst) await session.listTools();
        for (const call of plan.calls) {
          rec.event("client", "call.started", { detail: { call: call.label } });
          try {
            const { result, isError } = await withBound(session.callTool(call.tool, call.args as Record<string, unknown>), plan.callTimeoutMs, `call ${call.label}`);
            rec.event("client", "tool.result", { detail: { call: call.label, result: (result ?? null) as never, isError } });
          } catch (error) {
            rec.event("client", "tool.result", { detail: { call: call.label, error: errorInfo(error) } });
          }
        }
      })(),
      NO_FORM_SESSION_BOUND_MS,
      `${framework.name} session ${plan.scenario}`,
    );
  } catch (error) {
    errors.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    rec.event("client", "note", { detail: { sessionFailed: errorInfo(error) } });
  } finally {
    try {
      if (session) await withBound(session.close(), CLOSE_BOUND_MS, `${framework.name} close()`);
    } catch (error) {
      errors.push(String(error));
    }
  }
  return errors;
}

/** The structured result of an MCP CallToolResult when there is one, else its content. */
export function fromCallToolResult(r: { structuredContent?: unknown; content?: unknown; isError?: unknown }): FrameworkCall {
  return { result: r.structuredContent ?? r.content ?? null, isError: r.isError === true };
}
