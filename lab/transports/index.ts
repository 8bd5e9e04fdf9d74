// The transports a session can run over, by name, with what each adds to the verdicts.
import type { OpenTransport } from "../session/session.js";
import { lifecycleProblems } from "./child-process.js";
import { openMemoryTransport } from "./memory.js";
import { openProcessTransport } from "./process.js";
import { openHttpTransport } from "./http.js";
import { httpProblems, type HttpEvidence } from "./http-log.js";

export interface TransportEntry {
  open: OpenTransport;
  /** problems found in the transport's own evidence (e.g. a child that did not exit cleanly) */
  problems(evidence: Record<string, unknown>): string[];
}

export const TRANSPORTS: Record<string, TransportEntry> = {
  memory: { open: openMemoryTransport, problems: () => [] },
  stdio: { open: openProcessTransport, problems: (evidence) => [...lifecycleProblems(evidence), ...lifecycleProblems((evidence.driver ?? {}) as Record<string, unknown>, { endsItself: true }), ...lifecycleProblems((evidence.server ?? {}) as Record<string, unknown>)] },
  // the server's child lifecycle, and HTTP's own rules (statuses, SSE events, the port released)
  http: { open: openHttpTransport, problems: (evidence) => [...lifecycleProblems(evidence), ...httpProblems(evidence.http as HttpEvidence | undefined)] },
};

export const TRANSPORT_NAMES = () => Object.keys(TRANSPORTS);
