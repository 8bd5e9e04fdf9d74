// What the CLIENT's side of a recorded session says about the probes, to hold the server's own
// verdict against (the probe itself sees only the server's side; lab/peers/ts1/probe-judge.ts).
// Pure functions of the timeline and the wire, for any client peer: an in-process client's
// frames are recorded as it sends them, a client in another process has its replies recorded
// where the lab reads them and its callback events on the same monotonic clock.
import type { TimelineEvent, WireFrame } from "../history/timeline.js";
import type { ProbedMethod } from "../plan/tool-suite.js";
import { peakCallbacks } from "./verify.js";

export type ClientSideLoop = "concurrent" | "serial" | "no_ping_reply" | "no_callback";

export interface ClientSideProbe {
  call: string;
  /** the callback of this call (elicitation or sampling, as probed) left (answered) at this time */
  callbackLeftAt: number | null;
  /** replies to the server's pings recorded during this call, before / after the callback left */
  pingRepliesBefore: number;
  pingRepliesAfter: number;
  /** ping replies on the wire before the client's reply to this call's first probed request, in
   *  the order the lab recorded the frames (the order the server reads them) */
  pingRepliesBeforeAnswer: number | null;
  /** what the client's timeline shows: a ping answered while the callback ran, or none */
  loop: ClientSideLoop;
  /** most callbacks of this call running at once */
  peakCallbacks: number;
  callbacks: number;
}

/** The span of one call on the client's side: from call.started to its tool.result. */
function callSpan(events: TimelineEvent[], call: string): { from: number; to: number } | undefined {
  const started = events.find((e) => e.kind === "call.started" && e.detail?.call === call);
  const ended = events.find((e) => e.kind === "tool.result" && e.detail?.call === call);
  return started && ended ? { from: started.t, to: ended.t } : undefined;
}

export function clientSideProbe(record: { events: TimelineEvent[]; wire: WireFrame[] }, call: string, method: ProbedMethod = "elicitation/create"): ClientSideProbe {
  const ofCall = record.events.filter((e) => e.side === "client" && (e.kind === "callback.entered" || e.kind === "callback.left") && e.detail?.call === call);
  const left = ofCall.find((e) => e.kind === "callback.left");
  const span = callSpan(record.events, call);
  const pingReplies = span
    ? record.wire.filter((f) => f.from === "client" && f.label.method === "ping" && f.label.origin === "server" && (f.label.frameType === "result" || f.label.frameType === "error") && f.t >= span.from && f.t <= span.to)
    : [];
  const asked = span ? record.wire.find((f) => f.from === "server" && f.label.method === method && f.label.frameType === "request" && f.t >= span.from && f.t <= span.to) : undefined;
  const answer = asked && record.wire.find((f) => f.from === "client" && f.replyTo === asked.index);
  const before = left ? pingReplies.filter((f) => f.t < left.t).length : 0;
  const after = left ? pingReplies.filter((f) => f.t > left.t).length : 0;
  const loop: ClientSideLoop = !left ? "no_callback" : pingReplies.length === 0 ? "no_ping_reply" : before > 0 ? "concurrent" : "serial";
  return {
    call,
    callbackLeftAt: left?.t ?? null,
    pingRepliesBefore: before,
    pingRepliesAfter: after,
    pingRepliesBeforeAnswer: answer ? pingReplies.filter((f) => f.index < answer.index).length : null,
    loop,
    peakCallbacks: peakCallbacks(ofCall),
    callbacks: ofCall.filter((e) => e.kind === "callback.entered").length,
  };
}
