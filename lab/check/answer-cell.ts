// The history's samplingAnswer row (lab/cli/history.ts): did the client's answer to a server request sent during a
// tool call reach the wire while that call was still open? Pure, read from the wire's order alone.
import { isRequest } from "../history/frames.js";
import type { TimelineEvent, WireFrame } from "../history/timeline.js";
import { requestsFrom } from "./card-requests.js";
import { replyTo } from "./verify.js";

/** "completes": the answer to the server's first `method` request is on the wire before the tool call's result;
 *  "deadlocks": it came only after that result (the server had given up on it) or never, though the callback
 *  answered (mcp before 1.8.1 over HTTP: the answer waits behind the call's open POST). */
export function answerCell(run: { events: TimelineEvent[]; wire: WireFrame[] }, method: string): { outcome: string; detail: string } {
  const asked = requestsFrom(run.wire, "server", method)[0];
  if (!asked) return { outcome: "not run", detail: `the server sent no ${method}` };
  const call = run.wire.find((f) => f.from === "client" && isRequest(f.label) && f.label.method === "tools/call" && f.index < asked.index);
  const result = call && replyTo(run.wire, call);
  const answer = replyTo(run.wire, asked);
  if (answer && (!result || answer.index < result.index)) return { outcome: "completes", detail: "answered on the wire before the call's result" };
  const left = run.events.some((e) => e.kind === "callback.left" && e.method === method);
  const whose = left ? "the callback answered, but its answer" : "its answer";
  return { outcome: "deadlocks", detail: `${whose} ${answer ? "reached the wire only after the call's result (the server had given up)" : "never reached the wire"}` };
}

/** A nested request the callback sent that neither failed nor completed and never reached the wire: its send was
 *  still waiting when the session ended (mcp 1.8.0 over HTTP: send_request's write, shared/session.py:244, waits
 *  behind the call's open POST and is outside the request's limit, :258). The card reads no such run; the history
 *  calls it "hangs" (nothing but the session's end ended the wait). undefined for any other run. */
export function unsentNested(run: { events: TimelineEvent[]; wire: WireFrame[] }): { outcome: string; detail: string } | undefined {
  const sent = run.events.find((e) => e.kind === "nested.sent");
  if (!sent || run.events.some((e) => e.kind === "nested.ok" || e.kind === "nested.failed")) return undefined;
  if (run.wire.some((f) => f.from === "client" && isRequest(f.label) && f.label.method === sent.method && f.t >= sent.t)) return undefined;
  return { outcome: "hangs", detail: `the nested ${sent.method} never reached the wire; nothing but the session's end ended its wait` };
}
