// The TypeScript SDK's 2.x release history (issue 46): every 2.x release of @modelcontextprotocol/client the npm
// registry lists (prereleases left out; the newest patch of each minor once there are more than 15), each
// installed once into build/history/ts2/<version>/ by npm (lab/peers/npm-history.ts, shared with ts1; 2.4.0 is
// the lab's own install), and the ts2 client driver run in this process on that release's Client
// (lab/peers/ts2/history-client.ts). The server is the ts1 one, as for every history.
import { compareReleases, everyFormRow, type HistorySource, type ReleaseList } from "../../plan/history.js";
import { newestPerMinor, npmHistory } from "../npm-history.js";
import { PACKAGE, ts2HistoryClient } from "./history-client.js";

/** Past this many releases, one per minor. */
export const EVERY_RELEASE_UP_TO = 15;

/** Every 2.x release, or the newest patch of each minor when there are more than EVERY_RELEASE_UP_TO. */
export function ts2Pick(all: readonly string[]): string[] {
  const every = all.filter((v) => /^2\.\d+\.\d+$/.test(v)).sort(compareReleases);
  return every.length > EVERY_RELEASE_UP_TO ? newestPerMinor(every, 2) : every;
}

const HISTORY = npmHistory("ts2", PACKAGE, ts2Pick);

export const ts2Releases = (now = new Date()): ReleaseList => HISTORY.releases(now);
/** Where the release's node_modules/ is: the lab's own, or build/history/ts2/<version>/. */
export const ts2HistoryPrefix = HISTORY.prefix;

/** `history --client ts2`. */
export const TS2_HISTORY: HistorySource = {
  sdk: "ts2",
  title: "@modelcontextprotocol/client 2.x (TypeScript SDK v2)",
  package: PACKAGE,
  which: `Every 2.x release of @modelcontextprotocol/client the npm registry listed, prereleases left out (the newest patch of each minor past ${EVERY_RELEASE_UP_TO})`,
  releases: () => ts2Releases(),
  install: HISTORY.install,
  client: (version) => ts2HistoryClient(version, ts2HistoryPrefix(version)),
  // elicitation, sampling and roots handlers in every 2.x (setRequestHandler by method name)
  behaviours: everyFormRow(),
  transports: ["stdio"],
  noTransport: "the history runs each release's Client in this process against the ts1 server's stdio child; no HTTP row yet",
  installNote: `Each by npm install --ignore-scripts into build/history/ts2/<version>/ (or the lab's own node_modules where it is the release), its dependencies resolved at install; run in the lab's process, the Client imported from that folder.`,
};
