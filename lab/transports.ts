// The transports a session can run over, by name, with what each adds to the verdicts.
import { openMemoryTransport } from "./memory-transport.js";
import type { OpenTransport } from "./session.js";

export interface TransportEntry {
  open: OpenTransport;
  /** problems found in the transport's own evidence (e.g. a child that did not exit cleanly) */
  problems(evidence: Record<string, unknown>): string[];
}

export const TRANSPORTS: Record<string, TransportEntry> = {
  memory: { open: openMemoryTransport, problems: () => [] },
};

export const TRANSPORT_NAMES = () => Object.keys(TRANSPORTS);
