// The transports a session can run over, by name, with what each adds to the verdicts.
import { type OpenTransport } from "../plan/session.js";
import { lifecycleProblems } from "./child-process.js";
import { openMemoryTransport } from "./memory.js";
import { openProcessTransport } from "./process.js";
import { openHttpTransport } from "./http.js";
import { openProcessHttp } from "./process-http.js";
import { httpProblems } from "./http-log.js";
import type { TransportEvidence } from "../plan/evidence.js";

export interface TransportEntry {
  open: OpenTransport;
  /** problems found in the transport's own evidence (e.g. a child that did not exit cleanly) */
  problems(evidence: TransportEvidence): string[];
}

export const TRANSPORTS: Record<string, TransportEntry> = {
  memory: { open: openMemoryTransport, problems: () => [] },
  stdio: { open: openProcessTransport, problems: lifecycleProblems },
  // the server's child lifecycle, and HTTP's own rules (statuses, SSE events, the port released)
  // a client driver in another process: the lab serves its server peer (process-http.ts)
  http: { open: (recorder, pairing) => (pairing.client.driver.kind === "process" ? openProcessHttp : openHttpTransport)(recorder, pairing), problems: (evidence) => [...lifecycleProblems(evidence), ...(evidence.kind === "http" ? httpProblems(evidence.http) : [])] },
};

export const TRANSPORT_NAMES = () => Object.keys(TRANSPORTS);
