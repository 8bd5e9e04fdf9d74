// What the TypeScript driver core (driver.ts) and its adapters share: the adapter's shape, and the
// events file a session's EventSink writes (DriverEvent lines, lab/plan/driver-events.ts). Apart from
// driver.ts, which runs its main() when loaded.
import { appendFileSync, writeFileSync } from "node:fs";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { SessionPlan } from "../../plan/behaviour.js";
import { DriverEvent } from "../../plan/driver-events.js";
import type { EventSink } from "../perform.js";

/** What a peer's adapter module exports as `adapter`. */
export interface TsAdapter {
  /** the name its lines on stderr begin with */
  prog: string;
  /** what the framework's public API cannot do, said before anything is sent */
  refusal?(plan: SessionPlan): string | undefined;
  /** the whole session over `transport`; the errors that ended it (none: it ran) */
  run(plan: SessionPlan, transport: Transport, rec: EventSink): Promise<string[]>;
}

const KINDS = new Set<string>(DriverEvent.shape.kind.options);

/** An EventSink writing DriverEvent lines, each appended at once (a killed driver leaves what it saw).
 *  A timeline kind the driver contract lacks (an in-process peer's sdk.error) goes as a note naming it. */
export function eventsFile(file: string): EventSink {
  writeFileSync(file, "");
  return {
    event: (_side, kind, fields = {}) => {
      const known = KINDS.has(kind);
      const detail = known ? fields.detail : { event: kind, ...fields.detail };
      const line: DriverEvent = {
        t_ns: Number(process.hrtime.bigint()),
        kind: (known ? kind : "note") as DriverEvent["kind"],
        ...(fields.id !== undefined && fields.id !== null && { id: fields.id }),
        ...(fields.method !== undefined && { method: fields.method }),
        ...(detail !== undefined && { detail: detail as Record<string, unknown> }),
      };
      appendFileSync(file, `${JSON.stringify(line)}\n`);
    },
  };
}
