// The probe run: the client calls probe_receive_loop (a form pending while the server pings), then
// probe_fan_out, then calculate. Not one of the CLI's scenarios (its cells are the probe's own verdicts,
// not the card's): the probe tests (tests/support/probe.ts) and history's probe row run it.
import { ACCEPT_VALID, FORM_CAPABILITY, type Scenario } from "../lab/plan/scenario.js";

/** Each callback's think time: the stimulus, as a person would wait before answering. */
export const PROBE_CALLBACK_MS = 300;
export const FAN_OUT_N = 4;
export const ACCEPT_READY = { action: "accept" as const, content: { ready: true } };

/** The probe run every client peer gets: the loop probe, the fan-out probe, then a calculate. */
export const PROBE_SCENARIO: Scenario = {
  name: "probe",
  summary: `probe_receive_loop and probe_fan_out (n=${FAN_OUT_N}) with ${PROBE_CALLBACK_MS} ms callbacks, then calculate`,
  capabilities: FORM_CAPABILITY,
  listToolsFirst: true,
  calls: [
    { label: "loop", tool: "probe_receive_loop", args: {}, callback: { delayMs: PROBE_CALLBACK_MS, answer: ACCEPT_READY } },
    { label: "fan-out", tool: "probe_fan_out", args: { n: FAN_OUT_N }, callback: { delayMs: PROBE_CALLBACK_MS, answer: ACCEPT_READY } },
    { label: "recovery", callback: ACCEPT_VALID },
  ],
};
