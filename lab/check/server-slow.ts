// Whether a session says anything about the client, or only that the server was slow, as on a busy
// machine. Three cases, each an order on the wire: a session that failed before the server answered
// the client's initialize (a server child still starting); a callback's nested request that failed with no
// reply on the wire (none came, or it came only after the callback gave up): the server had not
// answered within the nested limit; and a form the server withdrew only after the client's
// callback had answered it: the withdrawal while the callback runs, which the cancellation
// scenarios ask for, never happened. Such an attempt is run again (lab/session/attempts.ts). A
// deadlock is the reply on the wire before the failure, left unread by the client's loop: no load
// can fake that order, and such a session is never run again. Pure: reads the evidence, returns data.
import type { SessionEvidence } from "../plan/session.js";
import { cancelledRequestId, isRequest } from "../history/frames.js";
import { nestedOutcome } from "./card-requests.js";
import { driverFault } from "./driver-fault.js";
import { replyTo } from "./verify.js";

/** The server-to-client requests whose callbacks nest (nested, sampling-nested, roots-nested). */
const CALLBACK_METHODS = ["elicitation/create", "sampling/createMessage", "roots/list"] as const;

/** Why an attempt is set aside, as the reports say it. */
export const NESTED_LATE = "the server had not replied within the nested limit";
export const WITHDRAWAL_LATE = "the server had not withdrawn the form before the callback answered it";
export const START_LATE = "the server had not answered the client's first request when the session failed";

/** The requests a client opens a session with (2026-07-28 clients may ask server/discover first). */
const OPENING_METHODS = ["initialize", "server/discover"];

export interface ServerSlow {
  /** the callback's method, and the method of the request it nested (or the withdrawal) */
  callback: string;
  nested: string;
  /** in words, for the evidence */
  why: string;
}

type Run = Pick<SessionEvidence, "events" | "wire" | "errors" | "transportEvidence">;

/** Undefined when the attempt stands as it is: its nested requests completed, deadlocked or were
 *  answered with an error, its withdrawals came while the callbacks ran, or the session failed
 *  for another reason (which a repeat would hide). */
export function serverSlow(run: Run): ServerSlow | undefined {
  if (run.errors.length > 0 || driverFault(run) !== undefined) return slowStart(run);
  for (const callback of CALLBACK_METHODS) {
    const o = nestedOutcome(run, callback);
    // a nested request that never reached the wire is the client's own doing
    if (!o?.failed || !o.request) continue;
    // the reply on the wire before the failure (nestedOutcome's deadlock, or the server's error
    // reply, read the same way): a fact about the client, never repeated
    if (o.deadlock) continue;
    const nested = String(o.request.label.method);
    const seen = o.reply === undefined ? "no reply came" : "its reply came only after the callback gave up";
    return { callback, nested, why: `${callback}'s nested ${nested} failed and ${seen}: ${NESTED_LATE}` };
  }
  return lateWithdrawal(run);
}

/** A session that failed after the client's opening request reached the wire and before any reply
 *  to it (a server child still starting on a busy machine, while the client's initialize limit ran
 *  out): it says nothing of the client. A client that never sent it is its own doing, not repeated. */
function slowStart(run: Run): ServerSlow | undefined {
  if (run.errors.length === 0 && driverFault(run) === undefined) return undefined;
  const opening = run.wire.find((f) => f.from === "client" && isRequest(f.label) && OPENING_METHODS.includes(String(f.label.method)));
  if (!opening || replyTo(run.wire, opening) !== undefined) return undefined;
  const method = String(opening.label.method);
  return { callback: method, nested: method, why: `${method} got no reply before the session failed: ${START_LATE}` };
}

/** A server's notifications/cancelled for a form whose answer was already on the wire, or whose
 *  callback had already left: whatever the client did with it says nothing of a withdrawal. */
function lateWithdrawal(run: Run): ServerSlow | undefined {
  for (const notice of run.wire.filter((f) => f.from === "server" && f.label.method === "notifications/cancelled")) {
    const id = cancelledRequestId(notice.message);
    const asked = run.wire.find((f) => f.index < notice.index && f.from === "server" && isRequest(f.label) && f.label.method === "elicitation/create" && f.label.id === id);
    if (!asked) continue;
    const answer = replyTo(run.wire, asked);
    const left = run.events.find((e) => e.side === "client" && e.kind === "callback.left" && e.method === "elicitation/create" && e.id === id);
    if ((answer !== undefined && answer.index < notice.index) || (left !== undefined && left.t < notice.t)) {
      return { callback: "elicitation/create", nested: "notifications/cancelled", why: `elicitation/create #${String(id)}: ${WITHDRAWAL_LATE}` };
    }
  }
  return undefined;
}
