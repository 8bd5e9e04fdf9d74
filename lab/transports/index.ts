// The transports a session can run over, by name, with what each adds to the verdicts.
import { openMemoryTransport } from "./memory.js";
import type { OpenTransport } from "../session/session.js";
import { ensureChildBuilt, lifecycleProblems, openStdioTransport } from "./stdio.js";

export interface TransportEntry {
  open: OpenTransport;
  /** problems found in the transport's own evidence (e.g. a child that did not exit cleanly) */
  problems(evidence: Record<string, unknown>): string[];
  /** one-time preparation before the first session, so it never lands inside a timeline */
  prepare?(): Promise<void>;
}

export const TRANSPORTS: Record<string, TransportEntry> = {
  memory: { open: openMemoryTransport, problems: () => [] },
  stdio: { open: openStdioTransport, problems: lifecycleProblems, prepare: ensureChildBuilt },
};

export const TRANSPORT_NAMES = () => Object.keys(TRANSPORTS);
