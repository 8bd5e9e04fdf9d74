// A frame waiting unread on the pipe of a client in another process (issue 41, item 6): py1,
// kotlin-0.14 and every client whose loop the lab cannot see from inside. The lab sees when it wrote
// the frame to the client's pipe (the wire's time) and, from the driver's events, when the client's
// loop read it: the driver's own read of that frame (frame.dispatched naming it, where the driver
// records one), else, for the reply of a nested request that deadlocked, the SDK's late-reply word
// (py1's message handler note, an unknown-id error, a debug log). It is drawn like the serial
// model's held frames, only when structure says it waited: on the pipe while a callback ran, and
// read only after that callback left. A frame read at once draws nothing, whatever its delay.
import { failedNested } from "../check/card-requests.js";
import { lateReport } from "../check/late-reply.js";
import type { TimelineEvent, WireFrame } from "../history/timeline.js";

export interface Unread {
  /** when the lab wrote it to the client's pipe (the wire's time) */
  onPipe: number;
  /** when the client's loop read it, and the event that says so */
  read: number;
  readSeq: number;
  readBy: "the driver's read" | "the SDK's late-reply report";
  /** the callback that held the client's loop meanwhile */
  behindId: unknown;
  behindMethod: unknown;
  /** read after its requester had given up */
  late: boolean;
}

/** The SDK's word that a reply came for a request it no longer waits for (each driver's way of recording it). */
const lateWord = (e: TimelineEvent) => lateReport(e) !== undefined;

/** Each unread frame by its wire index; empty for a client the lab records from inside (its queue tells). */
export function unreadFrames(events: readonly TimelineEvent[], wire: readonly WireFrame[]): Map<number, Unread> {
  const out = new Map<number, Unread>();
  const client = events.filter((e) => e.side === "client");
  if (client.some((e) => e.kind === "frame.arrived")) return out;
  const failed = failedNested({ events: [...events], wire: [...wire] });
  const stuck = failed?.deadlock ? failed : undefined;
  const lateRead = stuck?.failed && client.find((e) => e.seq > stuck.failed!.seq && lateWord(e));
  const callbacks = client.filter((e) => e.kind === "callback.entered").map((entered) => ({
    entered,
    left: client.find((e) => e.kind === "callback.left" && e.seq > entered.seq && e.detail?.n === entered.detail?.n),
  }));
  for (const f of wire.filter((w) => w.to === "client")) {
    const own = client.find((e) => e.kind === "frame.dispatched" && e.frame === f.index);
    const read = own ?? (f.index === stuck?.reply?.index ? lateRead : undefined);
    if (!read) continue;
    // on the pipe while a callback ran, read only after that callback left
    const holder = callbacks.find(({ entered, left }) => entered.t <= f.t && left !== undefined && f.t < left.t && left.seq < read.seq);
    if (!holder) continue;
    out.set(f.index, {
      onPipe: f.t,
      read: read.t,
      readSeq: read.seq,
      readBy: own ? "the driver's read" : "the SDK's late-reply report",
      behindId: holder.entered.id,
      behindMethod: holder.entered.method,
      late: f.index === stuck?.reply?.index,
    });
  }
  return out;
}
