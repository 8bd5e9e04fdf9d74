// HTTP's own parity allowance. Over stdio one pipe carries everything in order. Over Streamable
// HTTP every client message is a POST of its own (often on its own connection), and the server's
// messages come on several SSE streams: nothing orders two POSTs in flight at the same time, nor
// two streams. So the server may read two client frames in the other order than memory did, and
// the lab allows exactly that: arrivals (and the dispatches that follow them) may swap, but only
// for a pair whose POSTs overlapped, as the client's own HTTP evidence shows. A POST whose
// response was back before the next began was read first: the server records a frame's arrival
// before it answers the POST (202, or the headers of its SSE response).
import { httpOf, type HttpEvidence, type HttpRequestRecord, type TransportEvidence } from "../plan/evidence.js";
import { SERVER_SIDE_ALLOWANCES } from "./parity.js";
import { type AllowedDifference, type PairEvidence, type ParityEvent } from "./parity-types.js";

export const HTTP_POSTS_REASON =
  "two client frames whose POSTs were in flight at the same time may reach the server in either order (separate HTTP requests, no order between them); only such pairs may swap";

/** Does this frame name (from the HTTP evidence) name the frame of this event? Replies by id alone. */
const names = (f: { frameType: string; id?: unknown; method?: string }, event: ParityEvent) =>
  f.frameType === event.frameType && f.id === event.id && (f.frameType === "result" || f.frameType === "error" || f.method === event.method);

/**
 * The client side (a rule an expectation names: http-streams): two frames from the server may
 * trade places only if the evidence shows them on different response streams.
 */
export function streamEvidence(evidence: HttpEvidence): PairEvidence {
  const streams = (event: ParityEvent) => evidence.requests.filter((r) => r.streamed?.some((f) => names(f, event))).map((r) => r.n);
  return {
    differentStreams: (a, b) => {
      const [sa, sb] = [streams(a), streams(b)];
      return sa.length > 0 && sb.length > 0 && !sa.some((n) => sb.includes(n));
    },
  };
}

/** The client-side pair evidence of a run, if it went over HTTP. */
export function pairEvidenceFor(transportEvidence: TransportEvidence): PairEvidence | undefined {
  const http = httpOf(transportEvidence);
  return http ? streamEvidence(http) : undefined;
}

/** The POSTs that carried this client frame (a reply is named by its id, a request or notification by its method too). */
function postsCarrying(event: ParityEvent, evidence: HttpEvidence): HttpRequestRecord[] {
  return evidence.requests.filter(
    (r) =>
      r.method === "POST" &&
      r.carries.some((f) => names(f, event)),
  );
}

const end = (r: HttpRequestRecord) => r.tResponse ?? Number.POSITIVE_INFINITY;
export const overlapped = (a: HttpRequestRecord, b: HttpRequestRecord) => a !== b && a.t < end(b) && b.t < end(a);

/** May these two client frames reach the server in either order? Only if their POSTs overlapped. */
export function postsOverlapped(evidence: HttpEvidence): (a: ParityEvent, b: ParityEvent) => boolean {
  return (a, b) => postsCarrying(a, evidence).some((x) => postsCarrying(b, evidence).some((y) => overlapped(x, y)));
}

/** The server-side allowances for a run over HTTP: the usual floating arrivals, plus the swap. */
export function httpServerSideAllowances(evidence: HttpEvidence): readonly AllowedDifference[] {
  const reorderable = postsOverlapped(evidence);
  return SERVER_SIDE_ALLOWANCES.map((rule) => ({ ...rule, reorderable, reorderReason: HTTP_POSTS_REASON }));
}

/** Which server-side allowances apply to a run's child record: HTTP's own, or the pipe's. */
export function serverSideAllowancesFor(transportEvidence: TransportEvidence): readonly AllowedDifference[] {
  const http = httpOf(transportEvidence);
  return http ? httpServerSideAllowances(http) : SERVER_SIDE_ALLOWANCES;
}
