// One ClientPeer for each framework that declares no elicitation (lab/peers/no-form/session.ts):
// an in-process driver over the session's transport, its framework module loaded only when it runs
// (a framework installed apart may not be installed yet: `unavailable` says so first).
import { CALL_TIMEOUT_MS } from "../../plan/bounds.js";
import type { ClientPeer, SdkLabel } from "../../plan/peer.js";
import { sessionPlan } from "../../plan/scenario.js";
import { runNoFormSession, type NoFormFramework } from "./session.js";

export function noFormClient(options: { name: string; sdk: SdkLabel; meaning: string; unavailable: () => string | undefined; load: () => Promise<NoFormFramework> }): ClientPeer {
  return {
    name: options.name,
    sdk: options.sdk,
    loops: ["sdk"],
    meaning: options.meaning,
    era: "2025-11-25",
    unavailable: options.unavailable,
    driver: {
      kind: "in-process",
      run: async (scenario, transport, recorder) => {
        const errors = await runNoFormSession(await options.load(), sessionPlan(scenario, CALL_TIMEOUT_MS), transport, recorder);
        if (errors.length > 0) throw new Error(errors.join("; "));
      },
    },
  };
}
