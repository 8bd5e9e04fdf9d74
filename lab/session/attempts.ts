// A session whose nested request failed with no reply on the wire, or whose form was withdrawn only
// after its callback answered, said nothing about the client, only that the server was slow
// (lab/check/server-slow.ts): it is run again, up to MAX_ATTEMPTS in
// all, every attempt kept in the last one's evidence (earlierAttempts). Repeating rather than
// scaling the limit: the cell's meaning stays "this client, this 0.5 s limit", a deadlock stays as
// long as the SDK's limit makes it, and no factor of the load average is needed or trusted. A
// session whose reply was on the wire (a deadlock) is never repeated. The card's sessions and every
// case (all, a scenario, soak, contract) run through here.
import type { EarlierAttempt, RepeatedSession, SessionEvidence } from "../plan/session.js";
import { serverSlow } from "../check/server-slow.js";

/** Attempts of one session at most: a server still slow on the third is the session's result. */
export const MAX_ATTEMPTS = 3;

export async function runConclusive(attempt: () => Promise<SessionEvidence>): Promise<SessionEvidence> {
  const earlier: EarlierAttempt[] = [];
  for (;;) {
    const evidence = await attempt();
    const slow = earlier.length + 1 < MAX_ATTEMPTS ? serverSlow(evidence) : undefined;
    if (!slow) return earlier.length === 0 ? evidence : { ...evidence, earlierAttempts: earlier };
    earlier.push({ why: slow.why, evidence });
  }
}

/** `previous`, still slow on its last attempt or failed (`why`, in the caller's words), given its attempts
 *  again (later, on a quieter machine): the new evidence keeps every earlier attempt, the previous ones first. */
export async function runAgain(previous: SessionEvidence, attempt: () => Promise<SessionEvidence>, why: string): Promise<SessionEvidence> {
  const { earlierAttempts: before = [], ...last } = previous;
  const evidence = await runConclusive(attempt);
  const kept: EarlierAttempt[] = [...before, { why, evidence: last }];
  return { ...evidence, earlierAttempts: [...kept, ...(evidence.earlierAttempts ?? [])] };
}

/** The repeated sessions among `runs`, each named by `name`. */
export function repeatedSessions<R extends SessionEvidence>(runs: R[], name: (run: R) => string): RepeatedSession[] {
  return runs
    .filter((run) => (run.earlierAttempts?.length ?? 0) > 0)
    .map((run) => ({ session: name(run), attempts: run.earlierAttempts!.length + 1, why: run.earlierAttempts!.map((a) => a.why) }));
}
