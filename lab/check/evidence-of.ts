// What a session's record is verified as: its timeline and wire, the server's own record when it
// kept one in another process, and the errors of the session and its transport. One owner, for the
// pipeline that verifies a fresh run and for `mutate`, which verifies a stored one.
import { serverRecordOf } from "../plan/evidence.js";
import type { SessionEvidence } from "../plan/session.js";
import type { Evidence } from "./verify.js";

export function evidenceOf(session: SessionEvidence, errors: string[] = session.errors): Evidence {
  const child = serverRecordOf(session.transportEvidence);
  return { events: session.events, wire: session.wire, errors, transport: session.transport, ...(child !== undefined && { serverEvents: child && child.events }) };
}
