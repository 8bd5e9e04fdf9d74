// Reads the events a client driver in another process wrote, validates every line against the
// driver vocabulary (lab/plan/driver-events.ts) and adds them to the session's timeline.
// Returns the problems, each naming its line; a file with problems adds nothing.
import { mergeForeignEvents, type Recorder, type TimelineEvent, type WireFrame } from "../history/timeline.js";
import { DriverEvent } from "./driver-events.js";

export function readDriverEvents(text: string, recorder: Recorder, file: string): string[] {
  const problems: string[] = [];
  const events: DriverEvent[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      problems.push(`${file}:${i + 1}: not JSON: ${line.slice(0, 120)}`);
      return;
    }
    const parsed = DriverEvent.safeParse(raw);
    if (!parsed.success) problems.push(`${file}:${i + 1}: not a driver event: ${parsed.error.issues.map((issue) => `${issue.path.join(".") || "$"} ${issue.message}`).join("; ")}`);
    else events.push(parsed.data);
  });
  const dispatched = linkDispatches(events, recorder.wire, file);
  if (problems.length > 0 || typeof dispatched === "string") return [...problems, ...(typeof dispatched === "string" ? [dispatched] : [])];
  mergeForeignEvents(
    recorder,
    events.map(({ t_ns, kind, id, method, detail }, i) => ({
      t_ns: BigInt(t_ns),
      side: "client" as const,
      kind,
      // A read frame is told as the lab's own wire frame tells it (its label, its index).
      fields: dispatched.get(i) ?? {
        // An embedded input request's key (2026-07-28) names no server request: no origin.
        ...(id !== undefined && { id, ...(detail?.embedded !== true && { origin: "server" as const }) }),
        ...(method !== undefined && { method }),
        ...(detail !== undefined && { detail }),
      },
    })),
  );
  return [];
}

/**
 * The driver's n-th frame.dispatched is the n-th frame the lab put on the driver's stdin (a pipe
 * keeps order): each is linked to that wire frame, and must carry its id and method. Returns the
 * linked fields by event index, or the one problem (the driver read a frame the lab never sent).
 */
function linkDispatches(events: DriverEvent[], wire: readonly WireFrame[], file: string): Map<number, Omit<TimelineEvent, "seq" | "t" | "side" | "kind">> | string {
  const inbound = wire.filter((f) => f.to === "client");
  const linked = new Map<number, Omit<TimelineEvent, "seq" | "t" | "side" | "kind">>();
  let n = 0;
  for (const [i, e] of events.entries()) {
    if (e.kind !== "frame.dispatched") continue;
    const frame = inbound[n++];
    const { label } = frame ?? {};
    if (!frame || !label || (e.id ?? label.id) !== label.id || (e.method ?? label.method) !== label.method) {
      const read = JSON.stringify({ id: e.id, method: e.method });
      return `${file}: frame.dispatched #${n} ${read} is not the frame the lab sent the client #${n} (${frame ? JSON.stringify({ id: label?.id, method: label?.method }) : "none"})`;
    }
    linked.set(i, { ...label, frame: frame.index });
  }
  return linked;
}
