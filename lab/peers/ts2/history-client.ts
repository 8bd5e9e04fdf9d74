// A 2.x history release's Client (issue 46): the ts2 client driver (lab/peers/ts2/client.ts, negotiating as the
// SDK does by default: initialize, 2025-11-25) run in this process on the Client and error classes of the
// @modelcontextprotocol/client release installed under its prefix, imported by file URL from its one ESM entry
// (package.json exports["."].import: dist/index.mjs in every 2.x), so each release runs with its own Protocol.
// The API table says which export the driver uses from which release; loading a release checks the table, so a
// wrong row is an error, not a silently skipped row.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { CALL_TIMEOUT_MS } from "../../plan/bounds.js";
import type { ClientPeer } from "../../plan/peer.js";
import { sessionPlan } from "../../plan/scenario.js";
import { checkedApi, releaseClient, type ApiTable } from "../npm-history.js";
import type { Ts2Api } from "./client.js";

export const PACKAGE = "@modelcontextprotocol/client";

/** Every export the driver uses is in every 2.x release (each read in build/history/ts2/<v>/node_modules/
 *  @modelcontextprotocol/client/dist/index.d.mts): none moved between 2.0.0 and 2.4.0. What 2.1.0 and 2.4.0
 *  added (2.4.0's DPoP helpers) the driver does not use. */
export const API: ApiTable<keyof Ts2Api> = [
  { from: "2.0.0", name: "Client", why: "the Client the driver subclasses (observed-client.ts)" },
  { from: "2.0.0", name: "isInputRequiredResult", why: "a 2026-07-28 round's result, seen by the subclass" },
  { from: "2.0.0", name: "ProtocolError", why: "an error response's JSON-RPC code (errors.ts)" },
  { from: "2.0.0", name: "SdkError", why: "a local error's string code, e.g. a timeout (errors.ts)" },
];

const packageDir = (prefix: string): string => join(prefix, "node_modules", ...PACKAGE.split("/"));

/** The release's API, checked against the table: an export the table promises and the release lacks (or the
 *  reverse) is an error naming both. */
export async function loadApi(version: string, prefix: string, table = API): Promise<Ts2Api> {
  const found = (await import(pathToFileURL(join(packageDir(prefix), "dist", "index.mjs")).href)) as Record<string, unknown>;
  return checkedApi(PACKAGE, version, found, table) as unknown as Ts2Api;
}

/** A client peer on the release (its install first), its node_modules/ under `prefix`. */
export function ts2HistoryClient(version: string, prefix: string): ClientPeer {
  return releaseClient({
    sdk: "ts2",
    pkg: PACKAGE,
    version,
    packageDir: packageDir(prefix),
    meaning: `the TypeScript SDK v2 ${version} Client as shipped (legacy negotiation, 2025-11-25), run by the ts2 driver in the lab's process`,
    run: async (scenario, transport, recorder) => {
      const api = await loadApi(version, prefix);
      const { runTs2Session } = await import("./client.js");
      const outcome = await runTs2Session(sessionPlan(scenario, CALL_TIMEOUT_MS), transport, recorder, { negotiation: "legacy", api });
      if (outcome.errors.length > 0) throw new Error(outcome.errors.join("; "));
    },
  });
}
