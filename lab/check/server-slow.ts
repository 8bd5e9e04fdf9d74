// Whether a session's nested request says anything about the client. A callback's nested request
// that failed with no reply on the wire (none came, or it came only after the callback gave up)
// says only that the server had not answered within the nested limit, as on a busy machine: the
// attempt is inconclusive and is run again (lab/session/attempts.ts). A deadlock is the reply on
// the wire before the failure, left unread by the client's loop: no load can fake that order, and
// such a session is never run again. Pure: reads the evidence, returns data.
import type { SessionEvidence } from "../plan/session.js";
import { nestedOutcome } from "./card-requests.js";
import { driverFault } from "./driver-fault.js";

/** The server-to-client requests whose callbacks nest (nested, sampling-nested, roots-nested). */
const CALLBACK_METHODS = ["elicitation/create", "sampling/createMessage", "roots/list"] as const;

/** The one reason an attempt is set aside, as the reports say it. */
export const SERVER_SLOW = "the server had not replied within the nested limit";

export interface ServerSlow {
  /** the callback's method, and the method of the request it nested */
  callback: string;
  nested: string;
  /** in words, for the evidence */
  why: string;
}

type Run = Pick<SessionEvidence, "events" | "wire" | "errors" | "transportEvidence">;

/** Undefined when the attempt stands as it is: its nested requests completed, deadlocked or were
 *  answered with an error, or the session failed for another reason (which a repeat would hide). */
export function serverSlow(run: Run): ServerSlow | undefined {
  if (run.errors.length > 0 || driverFault(run) !== undefined) return undefined;
  for (const callback of CALLBACK_METHODS) {
    const o = nestedOutcome(run, callback);
    // a nested request that never reached the wire is the client's own doing
    if (!o?.failed || !o.request) continue;
    // the reply on the wire before the failure (nestedOutcome's deadlock, or the server's error
    // reply, read the same way): a fact about the client, never repeated
    if (o.deadlock) continue;
    const nested = String(o.request.label.method);
    const seen = o.reply === undefined ? "no reply came" : "its reply came only after the callback gave up";
    return { callback, nested, why: `${callback}'s nested ${nested} failed and ${seen}: ${SERVER_SLOW}` };
  }
  return undefined;
}
