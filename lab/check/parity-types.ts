// The shapes parity compares (lab/check/parity.ts) and reorders (lab/check/reorder.ts): one file
// below both, so neither imports the other's types.
import type { EventKind, TimelineEvent } from "../history/timeline.js";

export interface ParityEvent {
  kind: EventKind;
  side: TimelineEvent["side"];
  id?: number | string;
  origin?: TimelineEvent["origin"];
  method?: string;
  frameType?: TimelineEvent["frameType"];
  detail?: Record<string, unknown>;
}

/** A difference accepted on purpose; `reason` says why it is not a behaviour difference. */
export interface AllowedDifference {
  reason: string;
  kind: EventKind;
  /** detail keys of that kind whose values may differ (everything else must match) */
  detailKeys?: readonly string[];
  /** an event of that kind that may appear in one run only */
  /** "other": only in the transport compared with memory */
  onlyIn?: "memory" | "other";
  /**
   * Events of that kind keep their order among themselves, but their position against the
   * other events is not compared (e.g. when concurrent frames land between the client's steps).
   */
  floating?: boolean;
  /**
   * With `floating`: events of that kind may also change order among themselves, but only for
   * pairs this says may swap (`a` before `b` in memory, after it in the other run). It is built
   * from the other run's own evidence (lab/check/http-parity.ts), never a blanket pass.
   */
  reorderable?: (a: ParityEvent, b: ParityEvent) => boolean;
  /** why such a swap is allowed (reported when one was needed) */
  reorderReason?: string;
  /**
   * Two adjacent segments, each an arrival of this kind and what followed it up to the next
   * arrival or send, may trade places, if the other run's evidence says the two frames came on
   * different streams (PairEvidence). Nothing else may move.
   */
  adjacentSwap?: boolean;
}

/** What the other run's own evidence says about two frames (lab/check/http-parity.ts builds it). */
export interface PairEvidence {
  /** the two frames from the server came on different HTTP response streams */
  differentStreams(a: ParityEvent, b: ParityEvent): boolean;
}

export interface ParityDifference {
  /** "events", or the floating kind whose own order differs */
  sequence: string;
  index: number;
  otherIndex: number;
  memory: ParityEvent | undefined;
  /** the other transport's event (stdio, http, ...) */
  other: ParityEvent | undefined;
}
