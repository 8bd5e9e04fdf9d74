// A user's Python agent stack as pip resolves it (the `stack` command): what was asked, what came
// back, and why a set did not resolve. Data only; lab/peers/pip-resolve.ts fills it in.

/** One distribution of a resolved set, its name normalised as PEP 503 says (lower case, "-"). */
export interface ResolvedPackage {
  name: string;
  version: string;
  /** the sha256 of the file pip chose, where its report gives one (the index's URL fragment) */
  sha256?: string;
}

/** A requirement set pip resolved for CPython 3.11: every package it would install. */
export interface StackResolution {
  kind: "resolved";
  /** the requirements as the user gave them, in order */
  requirements: string[];
  /** the interpreter's version and the pip that resolved (pip's own report says which) */
  python: string;
  pip: string;
  /** ISO time of the resolution (a cached one keeps its first time) */
  resolvedAt: string;
  packages: ResolvedPackage[];
}

/** Why a set did not resolve, as one line: a name no index has, a conflict, no index reachable. */
export interface StackRefusal {
  kind: "unknown-package" | "conflict" | "no-network" | "refused";
  requirements: string[];
  line: string;
}

export type StackOutcome = StackResolution | StackRefusal;

/** A framework's distribution and the lab's client peers that drive it, one per mcp generation. */
export interface FrameworkPeers {
  /** the distribution's PEP 503 name */
  dist: string;
  /** what it is, in a few words */
  what: string;
  /** the peer for the set when it resolved mcp 2.x, and when it resolved mcp 1.x */
  mcp2?: string;
  mcp1?: string;
}

/** A framework peer's row on the page "Which Python agent stacks deadlock today" (`docs`): which
 *  venv it runs in and what the page reads there. Every version and pin is read, never typed. */
export interface StackPagePeer {
  peer: string;
  /** the PythonEnv (lab/peers/python/envs.ts) by name */
  env: string;
  /** the framework's distribution, whose version and Requires-Dist the row shows */
  dist: string;
  /** the distribution that carries the mcp requirement when the framework states none itself */
  pinVia?: string;
  /** a neighbouring row that does not deadlock, and the change that leads there */
  instead?: { peer: string; change: string; neighbour?: string };
}

/** One row of that page, as text. */
export interface StackPageRow {
  peer: string;
  framework: string;
  mcpPin: string;
  mcpResolved: string;
  verdict: string;
  todo: string;
}
