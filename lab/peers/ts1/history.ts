// The TypeScript SDK's 1.x release history (issue 46): one release per minor of @modelcontextprotocol/sdk (the
// newest patch the registry lists), each installed once into build/history/ts1/<version>/ by npm (its own
// dependencies, resolved at install; lab/peers/npm-history.ts, shared with ts2), and the ts1 client driver run in
// this process on that release's Client, imported by file URL (lab/peers/ts1/history-client.ts says which export
// it uses from which release).
import { formBehaviours, type HistorySource, type ReleaseList } from "../../plan/history.js";
import { newestPerMinor, npmHistory } from "../npm-history.js";
import { FIRST_WITH_ELICITATION, ts1HistoryClient } from "./history-client.js";

export { newestPerMinor };

const PACKAGE = "@modelcontextprotocol/sdk";
const HISTORY = npmHistory("ts1", PACKAGE, (all) => newestPerMinor(all, 1));

/** One release per 1.x minor; the list cached for a day (lab/peers/history-list.ts). */
export const ts1Releases = (now = new Date()): ReleaseList => HISTORY.releases(now);

/** Where the release's node_modules/ is: the lab's own, or build/history/ts1/<version>/. */
export const historyPrefix = HISTORY.prefix;

/** Why the release cannot run here, or undefined once it is installed (installed now if need be). */
export const installTs1Release = HISTORY.install;

const noElicitation = `no ElicitRequestSchema before ${FIRST_WITH_ELICITATION} (types.js)`;

/** `history --client ts1`. */
export const TS1_HISTORY: HistorySource = {
  sdk: "ts1",
  title: "@modelcontextprotocol/sdk 1.x (TypeScript SDK)",
  package: PACKAGE,
  which: "The newest patch of every 1.x minor the npm registry listed",
  releases: () => ts1Releases(),
  install: installTs1Release,
  client: (version) => ts1HistoryClient(version, historyPrefix(version)),
  behaviours: formBehaviours(FIRST_WITH_ELICITATION, noElicitation),
  transports: ["stdio"],
  noTransport: "the history runs each release's Client in this process against the ts1 server's stdio child; no HTTP row yet",
  installNote: `Each by npm install --ignore-scripts into build/history/ts1/<version>/ (or the lab's own node_modules where it is the release), its dependencies resolved at install; run in the lab's process, the Client imported from that folder.`,
};
