// The call goes away while its form is open: the client gives up on tools/call a short while
// after the form opened, while the callback (a person filling in the form) takes longer. Does
// the form go away with the call? The limit counts from the form opening, not from the send, so
// the form is open when the client gives up however loaded the machine is.
// `unlinked` asks with plain elicitInput; `linked` passes the call's abort signal on. The
// linked form is the server's request #1 (the unlinked one used #0), so the id-0 defect of the
// TS SDK 1.32.2 client (server-withdraws) does not hide what linking does.
import { VALID_ANSWER } from "../lab/plan/form.js";
import { ACCEPT_VALID, FORM_CAPABILITY, type CallPlan, type Scenario } from "../lab/plan/scenario.js";

/** The client gives up on the call this long after its form opened. */
export const GIVE_UP_AFTER_MS = 150;
/** The callback's think time: three times as long. */
export const CANCEL_CALLBACK_MS = 450;

const givesUp = (label: string, tool: string): CallPlan => ({
  label,
  tool,
  giveUpAfterMs: GIVE_UP_AFTER_MS,
  awaitCallbacks: true,
  callback: { delayMs: CANCEL_CALLBACK_MS, watchAbort: true, answer: { action: "accept", content: { ...VALID_ANSWER } } },
});

/** Why a client pinned to 2026-07-28 (ts2-modern) cannot run this scenario. */
export const NOT_IN_2026 =
  "its subject is a server-to-client elicitation/create (left open when its call is cancelled, or withdrawn with notifications/cancelled), and in 2026-07-28 the server sends none: it asks by input_required results, which the v2 client answers round by round from its local callback (@modelcontextprotocol/client dist/src-CeKsbNLO.mjs:6469-6513), so no form is on the wire to leave open or withdraw (a give-up during a round aborts its local callbacks through the call's own signal, linkedRoundAbort :5203-5219: another claim, not made here)";

const scenario: Scenario = {
  name: "call-cancelled",
  summary: `the client gives up on tools/call ${GIVE_UP_AFTER_MS} ms into a ${CANCEL_CALLBACK_MS} ms form: plain elicitInput, then with the call's signal; then a recovery call`,
  capabilities: FORM_CAPABILITY,
  listToolsFirst: true,
  notForEras: { eras: ["2026-07-28"], why: NOT_IN_2026 },
  calls: [givesUp("unlinked", "calculate"), givesUp("linked", "calculate_linked"), { label: "recovery", callback: ACCEPT_VALID }],
};

export default scenario;
