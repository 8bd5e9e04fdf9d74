// The server withdraws its own form: its wait for the answer has a limit shorter than the
// callback, and when it passes the server SDK sends notifications/cancelled for the request.
// The same call twice in one session: `first-request`'s form is the server's request #0,
// `later-request`'s is #1. A client that drops a cancellation of id 0 shows the difference.
import { VALID_ANSWER } from "../lab/plan/form.js";
import { ACCEPT_VALID, FORM_CAPABILITY, type CallPlan, type Scenario } from "../lab/plan/scenario.js";

/** The server's limit on its own elicitation. */
export const WITHDRAW_LIMIT_MS = 250;
/** The callback's think time: twice the server's limit. */
export const WITHDRAW_CALLBACK_MS = 500;

const withdrawn = (label: string): CallPlan => ({
  label,
  tool: "calculate_limited",
  args: { limitMs: WITHDRAW_LIMIT_MS },
  awaitCallbacks: true,
  callback: { delayMs: WITHDRAW_CALLBACK_MS, watchAbort: true, answer: { action: "accept", content: { ...VALID_ANSWER } } },
});

/** Why the claim is not made over Streamable HTTP (yet). */
export const NOT_OVER_HTTP =
  "over HTTP the server's withdrawal (notifications/cancelled) and the call's result travel on different streams (the GET stream and the call's POST stream) that nothing orders, and this scenario also needs the concurrent-arrivals allowance: the parity walk cannot yet combine a floating rule with an adjacent swap on the same kind (frame.arrived), so the claim is not made over http rather than made loosely";

/** Why a client pinned to 2026-07-28 (ts2-modern) cannot run this scenario. */
export const NOT_IN_2026 =
  "its subject is a server-to-client elicitation/create (left open when its call is cancelled, or withdrawn with notifications/cancelled), and in 2026-07-28 the server sends none: it asks by input_required results, which the v2 client answers round by round from its local callback (@modelcontextprotocol/client dist/src-CeKsbNLO.mjs:6469-6513), so no form is on the wire to leave open or withdraw";

const scenario: Scenario = {
  name: "server-withdraws",
  summary: `the server withdraws its form after ${WITHDRAW_LIMIT_MS} ms while a ${WITHDRAW_CALLBACK_MS} ms callback runs: as its request #0, then #1; then a recovery call`,
  capabilities: FORM_CAPABILITY,
  listToolsFirst: true,
  notForEras: { eras: ["2026-07-28"], why: NOT_IN_2026 },
  notOver: { transports: ["http"], why: NOT_OVER_HTTP },
  calls: [withdrawn("first-request"), withdrawn("later-request"), { label: "recovery", callback: ACCEPT_VALID }],
};

export default scenario;
