// The TypeScript client driver core, run in its own process under build/node22's node (index.ts):
// it reads the plan, opens the driver's own stdin/stdout as the session's MCP transport, runs the
// peer's adapter on them and writes what happened as DriverEvent lines (lab/plan/driver-events.ts),
// the contract every process driver speaks (lab/peers/python/lab_driver.py is the Python one).
// An adapter knows its framework only: `run` is the same function its in-process peer ran, with the
// events file in place of the lab's Recorder. Each peer's adapter.ts ends in runDriver(adapter) and
// is bundled with esbuild into build/node22/<name>-driver.mjs (index.ts), run as
//   <node22> build/node22/<name>-driver.mjs --plan PLAN --events EVENTS
// Exit 0: the session ran; 1: it failed (its reasons on stderr); 2: a bad argument, plan or refusal.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { SessionPlan } from "../../plan/behaviour.js";
import { eventsFile, type TsAdapter } from "./events.js";

export type { TsAdapter };

const fail = (prog: string, line: string, code: number): never => {
  process.stderr.write(`${prog}: ${line}\n`);
  process.exit(code);
};

/** The driver's whole life, from its arguments to its exit status. */
export async function runDriver(adapter: TsAdapter): Promise<void> {
  try {
    await session(adapter);
  } catch (error) {
    fail(adapter.prog, `session failed: ${String((error as Error)?.stack ?? error)}`, 1);
  }
}

async function session(adapter: TsAdapter): Promise<void> {
  let values: { plan?: string; events?: string };
  try {
    ({ values } = parseArgs({ options: { plan: { type: "string" }, events: { type: "string" } } }));
  } catch (error) {
    return fail(adapter.prog, (error as Error).message, 2);
  }
  if (!values.plan || !values.events) return fail(adapter.prog, "usage: --plan PLAN --events EVENTS", 2);
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
