// A Mermaid sequenceDiagram of one run, for notebooks (GitHub renders it in Markdown): one
// message per wire frame (`->>` requests and notifications, `-->>` replies), notes for the
// held frame, timeout, deadlock, late reply, callback answers and results, the client loop's
// held span as an activation, and a frame's time in a queue as a shaded rect. It only reads the
// timeline and the wire. Order is time order; Mermaid draws no time scale.
import type { Side, TimelineEvent, WireFrame } from "../history/timeline.js";
import { frameViews, LONG_GAP_MS, moments, type FrameView, type Moment } from "./story.js";

const ALIAS: Record<Side, string> = { client: "C", server: "S" };
const HELD_FILL = "rgba(245, 158, 11, 0.2)";

/**
 * Text safe inside a Mermaid message or note: characters Mermaid reads as syntax become numeric
 * entity codes (`#35;`), which Mermaid renders as the character itself. Tried in Mermaid 11
 * (headless Chromium): a raw `#` drops the rest of the label ("tools/list #3" shows
 * "tools/list"), a raw `;` is a parse error, and "#3;" turns into an entity (\u0003). `:`,
 * `%%` and `<b>` happened to survive; they are encoded anyway, with quotes, braces and `&`.
 */
export function mermaidText(text: string): string {
  return text.replace(/[#;:%<>"'&{}\\]/g, (ch) => `#${ch.charCodeAt(0)};`).replace(/[\r\n]+/g, " ");
}

const lines = (parts: readonly string[]) => parts.map(mermaidText).join("<br/>");

function message(f: FrameView): string {
  const reply = f.label.frameType === "result" || f.label.frameType === "error";
  const tags = [f.held ? "held" : "", f.late ? "dispatched late" : "", f.withdrawn === "request" ? "withdrawn" : f.withdrawn === "answer" ? "answers a withdrawn request" : ""].filter(Boolean);
  const text = tags.length ? `${f.text} (${tags.join(", ")})` : f.text;
  return `${ALIAS[f.from]}${reply ? "-->>" : "->>"}${ALIAS[f.to]}: ${mermaidText(text)}`;
}

function note(m: Moment): string[] {
  const me = ALIAS[m.side];
  const beside = m.side === "client" ? `left of ${me}` : `right of ${me}`;
  switch (m.kind) {
    case "call":
      return [`Note over C,S: ${lines(m.lines)}`];
    case "deadlock":
      return [`Note over C,S: ${lines(m.lines)}`];
    case "result":
      return [`Note over ${me}: ${lines(m.lines)}`];
    case "loop.held":
      return [`activate ${me}`, `Note ${beside}: ${lines(m.lines)}`];
    case "loop.released":
      return [`Note ${beside}: ${lines(m.lines)}`, `deactivate ${me}`];
    default:
      return [`Note ${beside}: ${lines(m.lines)}`];
  }
}

export function renderMermaid(run: { events: readonly TimelineEvent[]; wire: readonly WireFrame[] }): string {
  const frames = frameViews(run.events, run.wire);
  const story = [
    ...frames.map((frame) => ({ t: frame.sent, seq: frame.seq, frame })),
    ...moments(run.events, frames).map((moment) => ({ t: moment.t, seq: moment.seq, moment })),
  ].sort((a, b) => a.t - b.t || a.seq - b.seq);

  const out = ["sequenceDiagram", "    participant C as Client", "    participant S as Server"];
  let depth = 1; // indentation only
  let held = 0; // frames currently held in a queue: one rect covers overlapping holds
  let active = 0;
  const push = (line: string) => out.push(`${"    ".repeat(depth)}${line}`);
  let last = story[0]?.t ?? 0;
  for (const item of story) {
    // Mermaid draws no time scale: a long quiet stretch (the 500 ms timeout) gets a note.
    if (item.t - last > LONG_GAP_MS) push(`Note over C,S: ${mermaidText(`... ${(item.t - last).toFixed(1)} ms pass ...`)}`);
    last = item.t;
    if ("frame" in item) {
      push(message(item.frame));
      continue;
    }
    const m = item.moment;
    if (m.kind === "held" && held++ === 0) {
      push(`rect ${HELD_FILL}`);
      depth++;
    }
    for (const line of note(m)) {
      if (line.startsWith("activate ")) active++;
      if (line.startsWith("deactivate ")) {
        // Mermaid refuses to deactivate what is not active.
        if (active === 0) continue;
        active--;
      }
      push(line);
    }
    if (m.kind === "released-held" && held > 0 && --held === 0) {
      depth--;
      push("end");
    }
  }
  while (held-- > 0) {
    depth--;
    push("end");
  }
  return out.join("\n");
}
