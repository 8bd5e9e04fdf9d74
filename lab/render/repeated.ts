// The count of sessions run again because the server was slow (lab/session/attempts.ts), as the
// card, a scenario run's summary and soak each say it: one line, then each session by name and why.
import { NESTED_LATE, START_LATE, WITHDRAWAL_LATE } from "../check/server-slow.js";
import type { RepeatedSession } from "../plan/session.js";

export function renderRepeated(sessions: RepeatedSession[]): string[] {
  const n = sessions.length;
  return [
    `${n} session${n === 1 ? "" : "s"} repeated because the server was slow (${START_LATE}, ${NESTED_LATE}, or ${WITHDRAWAL_LATE})`,
    ...sessions.map((s) => `  ${s.session}: ${s.attempts} attempts, the earlier ${s.attempts - 1} kept in its evidence (earlierAttempts): ${[...new Set(s.why)].join("; ")}`),
  ];
}
