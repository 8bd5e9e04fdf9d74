// The openai-agents peer's adapter for the TypeScript driver core (lab/peers/node22/driver.ts), which
// runs it under Node 22 in a process of its own: the no-form session over the driver's own stdio.
import { runDriver, type TsAdapter } from "../node22/driver.js";
import { giveUpRefusal, runNoFormSession } from "../no-form/session.js";
import { OPENAI_AGENTS } from "./client.js";

export const adapter: TsAdapter = {
  prog: "openai-agents-driver",
  refusal: (plan) => giveUpRefusal(plan, OPENAI_AGENTS),
  run: (plan, transport, rec) => runNoFormSession(OPENAI_AGENTS, plan, transport, rec),
};

void runDriver(adapter);
