// What a session is asked to do and what it hands back: the pairing a transport is opened with,
// what an opened transport gives the session, and the evidence of one session. The session
// itself runs in lab/session/session.ts; everything below it knows only these types.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { LoopModel, OnDeadlock } from "../history/receive-loop.js";
import type { Recorder, TimelineEvent, WireFrame } from "../history/timeline.js";
import type { TransportEvidence } from "./evidence.js";
import type { ClientPeer, ServerPeer } from "./peer.js";
import type { Scenario } from "./scenario.js";

export interface SessionOptions {
  loop: LoopModel;
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

/**
 * What a transport is opened with: the peers and the scenario. The loop model (loop,
 * onDeadlock) stays with the session, which wraps the client end itself: no opener reads it.
 */
export type TransportPairing = Omit<Pairing, "loop" | "onDeadlock">;

/** What a transport hands the session. */
export interface OpenedTransport {
  /**
   * The client end's carrier, not yet recorded, for a client driver in this process: the session
   * wraps it in the recording transport with its loop model before anything is sent.
   */
  client?: Transport;
  /** for a client driver in another process: settles when that driver has finished */
  driverDone?: Promise<void>;
  /** Closes whatever the transport started and returns its own evidence (e.g. child lifecycle). */
  close(): Promise<TransportEvidence>;
}

export type OpenTransport = (recorder: Recorder, pairing: TransportPairing) => Promise<OpenedTransport>;

export interface SessionEvidence {
  scenario: string;
  loop: LoopModel;
  client: string;
  server: string;
  transport: string;
  repeat: number;
  durationMs: number;
  /** failures of the session itself (not of expectations): bound exceeded, connect failed */
  errors: string[];
  transportEvidence: TransportEvidence;
  events: TimelineEvent[];
  wire: WireFrame[];
  /** attempts run before this one and set aside, each kept whole: a nested request failed with no
   *  reply on the wire, or a form was withdrawn only after its callback answered, which says only
   *  that the server was slow (lab/check/server-slow.ts) */
  earlierAttempts?: EarlierAttempt[];
}

/** One attempt set aside, and why. */
export interface EarlierAttempt {
  why: string;
  evidence: SessionEvidence;
}

/** A session that was repeated, for a report: which, how many attempts in all, why each was set aside. */
export interface RepeatedSession {
  session: string;
  attempts: number;
  why: string[];
}

