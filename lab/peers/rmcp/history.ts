// rmcp's release history (issue 46): the newest patch of every minor of the rmcp crate the crates.io sparse index
// lists (yanked and pre-releases left out), the lab's one rmcp driver (lab/peers/rmcp/) built against each by
// cargo (lab/peers/cargo-history.ts) into build/history/rmcp/<version>/, one build at a time over one shared target
// dir, with the driver's pre_3_4 or pre_2_0 feature for a release that names its types the older way (rmcpFeatures).
// A release the driver does not compile against is a "not run" cell carrying the compiler's first error line.
import { existsSync } from "node:fs";
import { relative } from "node:path";
import { PROJECT_ROOT } from "../../paths.js";
import { compareReleases, formBehaviours, type HistorySource } from "../../plan/history.js";
import type { ClientPeer } from "../../plan/peer.js";
import { cargoHistory } from "../cargo-history.js";
import { hostedBinary } from "../host-driver.js";

/** The first release naming the initialize parameters ClientConfig (rmcp 3.4.1 src/model.rs:1158); before it they
 *  are ClientInfo (3.3.0 model.rs:1123), which the driver's pre_3_4 feature imports under the newer name. */
export const FIRST_WITH_CLIENT_CONFIG = "3.4.1";
/** The first release naming the elicitation types ElicitRequestParams and ElicitResult (rmcp 2.0.0 src/model.rs:2780,
 *  :2844); before it they are CreateElicitationRequestParams and CreateElicitationResult (1.8.0 model.rs:2643, :2704),
 *  which the driver's pre_2_0 feature (pre_3_4 with it) imports under the newer names. */
export const FIRST_WITH_ELICIT_NAMES = "2.0.0";

/** The driver's features a release needs: none from 3.4.1 (the rmcp peer's own build). */
export function rmcpFeatures(release: string): string[] {
  if (compareReleases(release, FIRST_WITH_ELICIT_NAMES) < 0) return ["pre_2_0"];
  return compareReleases(release, FIRST_WITH_CLIENT_CONFIG) < 0 ? ["pre_3_4"] : [];
}

export const RMCP_CARGO = cargoHistory({
  sdk: "rmcp",
  crate: "rmcp",
  driver: "lab/peers/rmcp",
  binary: "rmcp-client",
  features: rmcpFeatures,
});

/** elicitation arrives in 0.6.0 (rmcp 0.6.4 src/model.rs:1413 CreateElicitationRequest; 0.5.0 has none, nor an `elicitation` feature). */
export const FIRST_WITH_ELICITATION = "0.6.0";

/** A client peer on the release's binary: a process per session, or sessions of its `--host` mode (src/host.rs). */
export function rmcpHistoryClient(version: string): ClientPeer {
  const binary = RMCP_CARGO.binaryOf(version);
  return {
    name: `rmcp@${version}`,
    sdk: `rmcp (Rust SDK) ${version}`,
    loops: ["sdk"],
    meaning: `the rmcp ${version} client as shipped, the lab's rmcp driver built against it`,
    era: "2025-11-25",
    unavailable: () => (existsSync(binary) ? undefined : `no driver built at ${relative(PROJECT_ROOT, binary)}`),
    driver: hostedBinary(binary),
  };
}

const noElicitation = `no elicitation before ${FIRST_WITH_ELICITATION} (rmcp model.rs has no CreateElicitationRequest)`;

/** `history --client rmcp`. */
export const RMCP_HISTORY: HistorySource = {
  sdk: "rmcp",
  title: "rmcp (Rust SDK)",
  package: "rmcp",
  which: "The newest patch of every minor of the rmcp crate the crates.io sparse index lists (yanked and pre-releases left out)",
  releases: () => RMCP_CARGO.releases(),
  install: RMCP_CARGO.install,
  // one cargo build at a time: they share one target dir, and cargo's own lock would serialise them anyway
  installsAtOnce: 1,
  client: rmcpHistoryClient,
  behaviours: formBehaviours(FIRST_WITH_ELICITATION, noElicitation, { samplingAnswer: {} }),
  transports: ["stdio"],
  noTransport: "the rmcp driver speaks MCP on its own stdin/stdout (or a host session's connections) only",
  installNote:
    "The lab's rmcp driver (lab/peers/rmcp/src/) built by cargo against each release: its Cargo.toml pinned to the release in build/history/rmcp/<version>/, its Cargo.lock as the start (cargo moves what the release needs), one shared target dir (build/history/rmcp/target), the binary copied out per release. Before 3.4.1 it is built with its pre_3_4 feature (ClientInfo imported as ClientConfig), before 2.0.0 with pre_2_0 too (the elicitation types' older names).",
};
