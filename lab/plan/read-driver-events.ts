// Reads the events a client driver in another process wrote, validates every line against the
// driver vocabulary (lab/plan/driver-events.ts) and adds them to the session's timeline.
// Returns the problems, each naming its line; a file with problems adds nothing.
import { mergeForeignEvents, type Recorder } from "../history/timeline.js";
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
  if (problems.length > 0) return problems;
  mergeForeignEvents(
    recorder,
    events.map(({ t_ns, kind, id, method, detail }) => ({
      t_ns: BigInt(t_ns),
      side: "client" as const,
      kind,
      // An embedded input request's key (2026-07-28) names no server request: no origin.
      fields: { ...(id !== undefined && { id, ...(detail?.embedded !== true && { origin: "server" as const }) }), ...(method !== undefined && { method }), ...(detail !== undefined && { detail }) },
    })),
  );
  return [];
}
