// The terminal swimlane: one line per timeline event, in three lanes (client | wire | server).
// It only reads the timeline.
import type { TimelineEvent, WireFrame } from "../history/timeline.js";
import { frameViews, moments, rpc, type Moment, type Tone } from "./story.js";

const WIDTH = { time: 9, client: 44, wire: 40 };

export interface SwimlaneOptions {
  color: boolean;
}

const paint = (on: boolean, code: string, text: string) => (on ? `\x1b[${code}m${text}\x1b[0m` : text);


// Tone of a moment (lab/render/story.ts) as an ANSI colour.
const ANSI: Record<Tone, string> = {
  call: "1", callback: "36", ok: "32", failed: "31", timeout: "31", deadlock: "41;97", held: "33",
  late: "31", loop: "35", result: "1", error: "31", plain: "0", cancel: "33",
};

type Line = { lane: "client" | "wire" | "server"; text: string; tone: string };

/**
 * Frame events are this renderer's own (the pictures draw them as arrows); every other event is
 * told in the words of story.ts's moments, the one description the SVG and Mermaid use too.
 */
function describe(e: TimelineEvent, told: Map<number, Moment>): Line | undefined {
  const d = e.detail ?? {};
  const moment = told.get(e.seq);
  switch (e.kind) {
    case "frame.sent":
      return { lane: "wire", text: e.side === "client" ? `──▶ ${rpc(e)}` : `◀── ${rpc(e)}`, tone: "2" };
    case "frame.arrived":
      if (moment) return { lane: e.side, text: moment.lines.join(" "), tone: ANSI[moment.tone] };
      return { lane: e.side, text: `arrived ${rpc(e)}`, tone: "2" };
    case "frame.dispatched":
      if (moment) return { lane: e.side, text: moment.lines.join(" · "), tone: ANSI[moment.tone] };
      return { lane: e.side, text: `dispatched ${rpc(e)}`, tone: "2" };
    default:
      if (moment) return { lane: e.side, text: moment.lines.join(" · "), tone: ANSI[moment.tone] };
      // Kinds no moment tells (an elicitation completed out of band, a late reply told with its dispatch).
      if (e.kind === "reply.late") return undefined;
      return { lane: e.side, text: `${e.kind}${e.method ? ` ${e.method}` : ""}${Object.keys(d).length ? ` ${JSON.stringify(d)}` : ""}`, tone: "0" };
  }
}

const fit = (text: string, width: number) => (text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width));

/** What the server lane's header says when the server ran in another process (stdio). */
export const SERVER_ELSEWHERE = "server: another process, its events are not in this timeline (parity compares its own record)";

export function renderSwimlane(run: { events: readonly TimelineEvent[]; wire: readonly WireFrame[] }, options: SwimlaneOptions): string {
  const { events } = run;
  const told = new Map(moments(events, frameViews(events, run.wire)).map((m) => [m.seq, m]));
  // Over stdio the server is a child process: the parent sees its frames on the wire, never its
  // steps, so the lane stays empty and the header says why.
  const server = events.some((e) => e.side === "server") ? "server" : SERVER_ELSEWHERE;
  const head = `${"t (ms)".padStart(WIDTH.time)}  ${fit("client", WIDTH.client)} │ ${fit("wire", WIDTH.wire)} │ ${server}`;
  const lines = [head, "─".repeat(WIDTH.time + 2 + WIDTH.client + 3 + WIDTH.wire + 3 + "server".length + 24)];
  for (const e of events) {
    const line = describe(e, told);
    if (!line) continue;
    const { lane, text, tone } = line;
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
