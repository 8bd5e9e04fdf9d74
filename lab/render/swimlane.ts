// The terminal swimlane: one line per timeline event, in three lanes (client | wire | server).
// It only reads the timeline.
import type { TimelineEvent } from "../history/timeline.js";

const WIDTH = { time: 9, client: 44, wire: 40 };

export interface SwimlaneOptions {
  color: boolean;
}

const paint = (on: boolean, code: string, text: string) => (on ? `\x1b[${code}m${text}\x1b[0m` : text);

/** "tools/list #3", "result tools/list #3": how every renderer names a frame. */
export function rpc(e: Pick<TimelineEvent, "id" | "frameType" | "method">): string {
  const id = e.id === undefined ? "" : ` #${String(e.id)}`;
  const type = e.frameType === "request" || e.frameType === "notification" || e.frameType === undefined ? "" : `${e.frameType} `;
  return `${type}${e.method ?? "?"}${id}`;
}

function describe(e: TimelineEvent): { lane: "client" | "wire" | "server"; text: string; tone: string } {
  const d = e.detail ?? {};
  switch (e.kind) {
    case "frame.sent":
      return { lane: "wire", text: e.side === "client" ? `──▶ ${rpc(e)}` : `◀── ${rpc(e)}`, tone: "2" };
    case "frame.arrived":
      return d.heldBehind !== undefined
        ? { lane: e.side, text: `queued ${rpc(e)}: HELD behind ${String(d.heldBehindMethod)} #${String(d.heldBehind)}`, tone: "33" }
        : { lane: e.side, text: `arrived ${rpc(e)}`, tone: "2" };
    case "frame.dispatched": {
      const waited = Number(d.waitedMs ?? 0);
      return waited >= 1
        ? { lane: e.side, text: `dispatched ${rpc(e)} after ${waited.toFixed(1)} ms in queue`, tone: "33" }
        : { lane: e.side, text: `dispatched ${rpc(e)}`, tone: "2" };
    }
    case "loop.held":
      return { lane: e.side, text: `LOOP HELD by ${rpc(e)}`, tone: "35" };
    case "loop.released":
      return { lane: e.side, text: `loop released (${String(d.queued)} queued)`, tone: "35" };
    case "reply.late":
      return { lane: e.side, text: `LATE reply ${rpc(e)}: its requester gave up`, tone: "31" };
    case "sdk.error":
      return { lane: e.side, text: `sdk onerror: ${String(d.message).slice(0, 60)}`, tone: "31" };
    case "callback.entered":
      return { lane: e.side, text: `callback #${String(d.n)} entered (${String(d.call)})`, tone: "36" };
    case "callback.left":
      return { lane: e.side, text: `callback #${String(d.n)} answers ${String(d.action ?? `error ${String(d.error)}`)}`, tone: "36" };
    case "nested.sent":
      return { lane: e.side, text: `nested ${e.method} sent from callback`, tone: "36" };
    case "nested.ok":
      return { lane: e.side, text: `nested ${e.method} returned`, tone: "32" };
    case "nested.failed":
      return { lane: e.side, text: `nested ${e.method} FAILED ${String(d.code)} ${String(d.message)}`, tone: "31" };
    case "elicitation.complete":
      return { lane: e.side, text: `elicitation ${String(d.elicitationId)} complete (URL mode, out of band)`, tone: "32" };
    case "call.started":
      return { lane: e.side, text: `── call ${String(d.call)} ──`, tone: "1" };
    case "tool.result":
      return { lane: e.side, text: `result ${String(d.call)}: ${JSON.stringify(d.result ?? d.error)}`, tone: "1" };
    case "cancel.sent":
      return { lane: e.side, text: `CANCELS its ${rpc({ ...e, frameType: "request" })} (notifications/cancelled)`, tone: "33" };
    case "cancel.received":
      return { lane: e.side, text: `cancel of ${rpc({ ...e, frameType: "request" })} to the SDK: handler ${String(d.handler)}`, tone: "33" };
    case "callback.aborted":
      return { lane: e.side, text: `callback #${String(d.n)} ABORTED: form withdrawn (${String(d.call)})`, tone: "31" };
    case "tool.aborted":
      return { lane: e.side, text: `tool ${String(d.tool)} ABORTED: tools/call #${String(e.id)} cancelled`, tone: "33" };
    case "tool.finished":
      return { lane: e.side, text: `tool ${String(d.tool)} finished anyway: ${String(d.status)}, nobody waits`, tone: "31" };
    case "deadlock": {
      const holder = d.holder as { id: unknown; method: unknown };
      const waiting = d.waiting as { id: unknown; method: unknown };
      return {
        lane: e.side,
        text: `DEADLOCK: ${String(holder.method)} #${String(holder.id)} waits for ${String(waiting.method)} #${String(waiting.id)}, whose reply waits behind it (${String(d.action)})`,
        tone: "41;97",
      };
    }
    default:
      return { lane: e.side, text: `${e.kind} ${JSON.stringify(d)}`, tone: "0" };
  }
}

const fit = (text: string, width: number) => (text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width));

export function renderSwimlane(events: TimelineEvent[], options: SwimlaneOptions): string {
  const head = `${"t (ms)".padStart(WIDTH.time)}  ${fit("client", WIDTH.client)} │ ${fit("wire", WIDTH.wire)} │ server`;
  const lines = [head, "─".repeat(head.length + 24)];
  for (const e of events) {
    const { lane, text, tone } = describe(e);
    const time = e.t.toFixed(1).padStart(WIDTH.time);
    // Nothing is cut: a client text too long for its lane runs across the empty lanes.
    if (lane === "client" && text.length > WIDTH.client) {
      lines.push(`${time}  ${paint(options.color, tone, text)}`);
      continue;
    }
    const cells =
      lane === "client"
        ? [fit(text, WIDTH.client), " ".repeat(WIDTH.wire), ""]
        : lane === "wire"
          ? [" ".repeat(WIDTH.client), fit(text, WIDTH.wire), ""]
          : [" ".repeat(WIDTH.client), " ".repeat(WIDTH.wire), text];
    const painted = cells.map((cell) => (cell.trim() === "" ? cell : paint(options.color, tone, cell)));
    lines.push(`${time}  ${painted[0]} │ ${painted[1]} │ ${painted[2]}`.trimEnd());
  }
  return lines.join("\n");
}

/** Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org). */
export function wantsColor(stream: NodeJS.WriteStream): boolean {
  return stream.isTTY === true && !("NO_COLOR" in process.env && process.env.NO_COLOR !== "");
}
