// Runs one scenario as one fresh session: a client peer against a server peer over a transport,
// recording both sides. The transport connects the two (lab/transports/); the client driver
// runs the plan (lab/peers/). What comes back is the evidence, whatever happened.
import { Recorder } from "../history/timeline.js";
import { ObservedTransport } from "../transports/observed.js";
import type { TransportEvidence } from "../plan/evidence.js";
import type { OpenedTransport, OpenTransport, Pairing, SessionEvidence, SessionOptions } from "../plan/session.js";
import { SESSION_BOUND_MS, TRANSPORT_CLOSE_BOUND_MS, withBound } from "../plan/bounds.js";
import type { Scenario } from "../plan/scenario.js";


export async function runSession(
  scenario: Scenario,
  openTransport: OpenTransport,
  transportName: string,
  options: SessionOptions,
  repeat = 1,
): Promise<SessionEvidence> {
  const { TS1_CLIENT, TS1_SERVER } = await import("../peers/ts1/index.js");
  const pairing: Pairing = { ...options, client: options.client ?? TS1_CLIENT, server: options.server ?? TS1_SERVER, scenario };
  // the server's SDK, loaded before the timeline begins (a no-op once loaded)
  await pairing.server.load?.();
  if (pairing.client.driver.kind === "in-process") await pairing.client.driver.load?.();
  const recorder = new Recorder();
  const errors: string[] = [];
  let transportEvidence: TransportEvidence = { kind: "unopened" };
  let opened: OpenedTransport | undefined;
  try {
    const { loop, onDeadlock, ...transportPairing } = pairing;
    opened = await openTransport(recorder, transportPairing);
    const driver = pairing.client.driver;
    // The loop model is the session's: it wraps the client end the transport opened.
    const client = () => new ObservedTransport("client", opened!.client!, recorder, { loop, ...(onDeadlock && { onDeadlock }) });
    const work = driver.kind === "in-process" ? driver.run(scenario, client(), recorder) : opened.driverDone!;
    await withBound(work, options.boundMs ?? SESSION_BOUND_MS, `session ${scenario.name}`);
  } catch (error) {
    errors.push(String(error instanceof Error ? error.message : error));
  } finally {
    if (opened) {
      try {
        transportEvidence = await withBound(opened.close(), TRANSPORT_CLOSE_BOUND_MS, "closing the transport");
      } catch (error) {
        errors.push(`closing transport: ${String(error)}`);
      }
    }
  }
  // a driver's events file that broke the vocabulary fails the session, each problem naming its line
  if (transportEvidence.kind === "relay") errors.push(...transportEvidence.driverEvents.problems);
  return {
    scenario: scenario.name,
    loop: options.loop,
    client: pairing.client.name,
    server: pairing.server.name,
    transport: transportName,
    repeat,
    durationMs: recorder.now(),
    errors,
    transportEvidence,
    events: recorder.events,
    wire: recorder.wire,
  };
}
