// The TypeScript client driver core, run in its own process (under build/node22's node, index.ts):
// it reads the plan, opens the driver's own stdin/stdout as the session's MCP transport, runs the
// peer's adapter on them and writes what happened as DriverEvent lines (lab/plan/driver-events.ts),
// the contract every process driver speaks (lab/peers/python/lab_driver.py is the Python one).
// An adapter knows its framework only: `run` is the same function its in-process peer ran, with the
// events file in place of the lab's Recorder.
//   driver.ts --adapter MODULE.ts --plan PLAN --events EVENTS
// Exit 0: the session ran; 1: it failed (its reasons on stderr); 2: a bad argument, plan or refusal.
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { SessionPlan } from "../../plan/behaviour.js";
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

const fail = (prog: string, line: string, code: number): never => {
  process.stderr.write(`${prog}: ${line}\n`);
  process.exit(code);
};

async function main(): Promise<void> {
  let values: { adapter?: string; plan?: string; events?: string };
  try {
    ({ values } = parseArgs({ options: { adapter: { type: "string" }, plan: { type: "string" }, events: { type: "string" } } }));
  } catch (error) {
    return fail("ts-driver", (error as Error).message, 2);
  }
  if (!values.adapter || !values.plan || !values.events) return fail("ts-driver", "usage: driver.ts --adapter MODULE --plan PLAN --events EVENTS", 2);
  const { adapter } = (await import(pathToFileURL(values.adapter).href)) as { adapter: TsAdapter };
  let plan: SessionPlan;
  try {
    plan = SessionPlan.parse(JSON.parse(readFileSync(values.plan, "utf8")));
  } catch (error) {
    const issue = (error as { issues?: { path: PropertyKey[]; message: string }[] }).issues?.[0];
    return fail(adapter.prog, `bad plan ${values.plan}: ${issue ? `${issue.path.join(".") || "(root)"}: ${issue.message}` : (error as Error).message}`, 2);
  }
  const refused = adapter.refusal?.(plan);
  if (refused !== undefined) return fail(adapter.prog, `plan ${plan.scenario} refused: ${refused}`, 2);
  const rec = eventsFile(values.events);
  const errors = await adapter.run(plan, new StdioServerTransport(), rec);
  if (errors.length > 0) fail(adapter.prog, `session failed: ${errors.join("; ")}`, 1);
  process.exit(0);
}

// no top-level await: tsx may load this entry as CommonJS under Node 22 (its require of ESM)
main().catch((error: unknown) => fail("ts-driver", String((error as Error)?.stack ?? error), 1));
