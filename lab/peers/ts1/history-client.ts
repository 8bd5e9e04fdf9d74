// A history release's Client (issue 46): the ts1 client driver (lab/peers/ts1/client.ts) run in this process on
// the Client and schemas of the release installed under its prefix, imported by file URL, so each release runs
// with its own Protocol and zod. The API table says which export the driver uses from which release; loading a
// release checks the table against what it exports, so a wrong row is an error, not a silently skipped row.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ClientPeer } from "../../plan/peer.js";
import { checkedApi, releaseClient, type ApiTable } from "../npm-history.js";
import type { Ts1Api } from "./client.js";

/** ElicitRequestSchema's first release (1.13.0 dist/esm/types.js; 1.12.3 has none). */
export const FIRST_WITH_ELICITATION = "1.13.0";

/** Which export the driver uses from which release (each read in that release's dist/esm/types.js or
 *  dist/types.js; `from: 1.0.0` rows are in every 1.x). */
export const API: ApiTable<keyof Ts1Api> = [
  { from: "1.0.0", name: "Client", why: "client/index.js" },
  { from: "1.0.0", name: "McpError", why: "types.js" },
  { from: "1.0.0", name: "CreateMessageRequestSchema", why: "setRequestHandler(schema, handler): sampling" },
  { from: "1.0.0", name: "ListRootsRequestSchema", why: "setRequestHandler(schema, handler): roots" },
  { from: FIRST_WITH_ELICITATION, name: "ElicitRequestSchema", why: "elicitation (form mode)" },
  // 1.23.0 dist/esm/types.js: URL mode's notifications/elicitation/complete; before it no handler is set
  { from: "1.23.0", name: "ElicitationCompleteNotificationSchema", why: "URL mode's completion notification" },
];
/** Not an export but a shape: the handler's extra carries requestId from 1.11.0 (shared/protocol.js:141
 *  `requestId: request.id`); before it the driver's callback events carry no request id. */
export const FIRST_WITH_REQUEST_ID = "1.11.0";

export const sdkDir = (prefix: string): string => join(prefix, "node_modules", "@modelcontextprotocol", "sdk");
/** The ESM build: dist/esm/ from 1.2.0, dist/ before (1.0.4, 1.1.1 ship only dist/). */
const distDir = (prefix: string): string => (existsSync(join(sdkDir(prefix), "dist", "esm")) ? join(sdkDir(prefix), "dist", "esm") : join(sdkDir(prefix), "dist"));

/** The release's API, checked against the table: an export the table promises and the release lacks (or the
 *  reverse) is an error naming both. */
export async function loadApi(version: string, prefix: string, table = API): Promise<Ts1Api> {
  const dist = distDir(prefix);
  const client = (await import(pathToFileURL(join(dist, "client", "index.js")).href)) as Record<string, unknown>;
  const types = (await import(pathToFileURL(join(dist, "types.js")).href)) as Record<string, unknown>;
  const found: Record<string, unknown> = { ...types, Client: client.Client };
  return checkedApi("@modelcontextprotocol/sdk", version, found, table) as unknown as Ts1Api;
}

/** A client peer on the release (installTs1Release first), its node_modules/ under `prefix`. */
export function ts1HistoryClient(version: string, prefix: string): ClientPeer {
  return releaseClient({
    sdk: "ts1",
    pkg: "@modelcontextprotocol/sdk",
    version,
    packageDir: sdkDir(prefix),
    meaning: `the TypeScript SDK ${version} Client as shipped, run by the ts1 driver in the lab's process`,
    run: async (scenario, transport, recorder) => {
      const api = await loadApi(version, prefix);
      await (await import("./client.js")).runTs1Client(scenario, transport, recorder, api);
    },
  });
}
