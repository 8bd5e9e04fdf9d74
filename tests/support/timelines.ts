// Timelines built for renderer tests: the structure of a real run (every event, frame, id and
// their order) on a clock of the test's own, so what a test says about gaps, cuts and bands
// does not depend on how busy the machine was when the run was recorded.
import { type SessionEvidence } from "../../lab/plan/session.js";
import type { TimelineEvent } from "../../lab/history/timeline.js";

export interface Pause {
  /** the pause is inserted before the first event this matches */
  before: (e: TimelineEvent) => boolean;
  ms: number;
}

/**
 * A copy of `evidence` where event i happens `stepMs` after event i-1, plus each pause before
 * the event it names; nothing else moves. A wire frame takes the time of its first event, and
 * each dispatch's waitedMs is recomputed from its own frame's arrival.
 */
export function retimed(evidence: SessionEvidence, pauses: Pause[] = [], stepMs = 0.5): SessionEvidence {
  const copy = structuredClone(evidence);
  const pending = [...pauses];
  let t = 0;
  for (const e of copy.events) {
    const i = pending.findIndex((p) => p.before(e));
    if (i >= 0) t += pending.splice(i, 1)[0]!.ms;
    e.t = Math.round(t * 1000) / 1000;
    t += stepMs;
  }
  if (pending.length) throw new Error(`retimed: ${pending.length} pause(s) matched no event`);
  for (const frame of copy.wire) {
    const first = copy.events.find((e) => e.frame === frame.index);
    if (first) frame.t = first.t;
  }
  for (const e of copy.events) {
    if (e.kind !== "frame.dispatched") continue;
    const arrived = copy.events.find((a) => a.kind === "frame.arrived" && a.frame === e.frame);
    if (arrived) e.detail = { ...e.detail, waitedMs: Math.round((e.t - arrived.t) * 1000) / 1000 };
  }
  return copy;
}

/** The pause a nested request's timeout makes: before the client sends notifications/cancelled. */
export const beforeCancel = (e: TimelineEvent) => e.kind === "frame.sent" && e.method === "notifications/cancelled";
