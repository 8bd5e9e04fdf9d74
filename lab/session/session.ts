// Runs one scenario as one fresh session: a client peer against a server peer over a transport,
// recording both sides. The transport connects the two (lab/transports/); the client driver
// runs the plan (lab/peers/). What comes back is the evidence, whatever happened.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { DispatchModel, OnDeadlock } from "../history/receive-loop.js";
import { Recorder, type TimelineEvent, type WireFrame } from "../history/timeline.js";
import type { ClientPeer, ServerPeer } from "../peers/types.js";
import { withBound } from "./bound.js";
import { SESSION_BOUND_MS, TRANSPORT_CLOSE_BOUND_MS } from "./bounds.js";
import type { Scenario } from "./scenario.js";

export { CALL_TIMEOUT_MS, SESSION_BOUND_MS, TRANSPORT_CLOSE_BOUND_MS } from "./bounds.js";
export { CLIENT_INFO, errorInfo } from "../peers/ts1/client.js";

export interface SessionOptions {
  dispatch: DispatchModel;
  onDeadlock?: OnDeadlock;
  /** default: ts1 (lab/peers/registry.ts) */
  client?: ClientPeer;
  /** default: ts1 */
  server?: ServerPeer;
  /** the session's bound (default SESSION_BOUND_MS); fault tests shorten it to stay fast */
  boundMs?: number;
}

/** The options a transport is opened with: the peers are always named. */
export interface Pairing extends SessionOptions {
  client: ClientPeer;
  server: ServerPeer;
  scenario: Scenario;
}

/** What a transport hands the session. */
export interface OpenedTransport {
  /** the client end, for a client driver in this process */
  client?: Transport;
  /** for a client driver in another process: settles when that driver has finished */
  driverDone?: Promise<void>;
  /** Closes whatever the transport started and returns its own evidence (e.g. child lifecycle). */
  close(): Promise<Record<string, unknown>>;
}

export type OpenTransport = (recorder: Recorder, pairing: Pairing) => Promise<OpenedTransport>;

export interface SessionEvidence {
  scenario: string;
  dispatch: DispatchModel;
  client: string;
  server: string;
  transport: string;
  repeat: number;
  durationMs: number;
  /** failures of the session itself (not of expectations): bound exceeded, connect failed */
  errors: string[];
  transportEvidence: Record<string, unknown>;
  events: TimelineEvent[];
  wire: WireFrame[];
}

export async function runSession(
  scenario: Scenario,
  openTransport: OpenTransport,
  transportName: string,
  options: SessionOptions,
  repeat = 1,
): Promise<SessionEvidence> {
  const { TS1_CLIENT, TS1_SERVER } = await import("../peers/ts1/index.js");
  const pairing: Pairing = { ...options, client: options.client ?? TS1_CLIENT, server: options.server ?? TS1_SERVER, scenario };
  const recorder = new Recorder();
  const errors: string[] = [];
  let transportEvidence: Record<string, unknown> = {};
  let opened: OpenedTransport | undefined;
  try {
    opened = await openTransport(recorder, pairing);
    const driver = pairing.client.driver;
    const work = driver.kind === "in-process" ? driver.run(scenario, opened.client!, recorder) : opened.driverDone!;
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
  const problems = transportEvidence.sessionErrors;
  if (Array.isArray(problems)) errors.push(...problems.map(String));
  return {
    scenario: scenario.name,
    dispatch: options.dispatch,
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
