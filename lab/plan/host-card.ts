// A host on the card: what one run of it showed (HostRow, read from the wire by
// lab/check/host-row.ts) and what its hand-written card says it does (HostCard,
// expected/hosts/<host>.json: from the host's docs, settings and its installed bundle).

/** what a host's initialize declared */
export interface HostDeclares {
  form: boolean;
  url: boolean;
  sampling: boolean;
  roots: boolean;
}

/** the cells a run fills and a card states, compared one by one */
export interface HostCells {
  declares: HostDeclares;
  /** the protocol version the session settled on */
  protocol: string;
  /** what a form got headless: accept / decline / cancel, "never sent" (no form declared), or an error */
  formGot: string;
  /** the receive-loop verdict: the probe's, or "cannot answer a form" when none is declared */
  verdict: string;
  /** where an answerer accepts, how many forms it took at once (the fan-out probe's inference from
   *  four sent at once); else the most forms open at once on the wire */
  formsAtOnce: number;
}

export interface HostRow {
  host: string;
  /** read from its installed package.json */
  version?: string;
  /** the cells, when it ran; else why not ("not run: why") */
  cells?: HostCells;
  notRun?: string;
  /** what it sent before initialize (Claude Code: server/discover with 2026-07-28) */
  triedFirst?: string;
  /** pings the probe sent while the form was open, and how many were answered before the form */
  pingsWhileOpen?: { sent: number; answeredFirst: number };
  /** a request the host sent while the form was open (the answerer's nested one) and when its reply came */
  nested?: string;
  /** a finding: the sites it tried to reach beyond loopback (refused at the lab's proxy), e.g. github.com */
  triedNetwork?: string[];
  /** the requests the scripted model got, by phase (tool-call, final, plain, refused) */
  modelPhases: string[];
  seconds: number;
}

/** one place the card's claim is read from: a file of the installed bundle (or its docs) and a string in it */
export interface HostSource {
  file: string;
  /** a string found in that file that says it */
  says: string;
  /** which cell it supports */
  for: string;
}

/** expected/hosts/<host>.json, written by hand */
export interface HostCard {
  host: string;
  package: string;
  version: string;
  /** it can run here: a host that does not run fails the command only when this is true */
  runs: boolean;
  cells: HostCells;
  sources: HostSource[];
}
