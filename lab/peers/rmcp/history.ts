// rmcp's release history (issue 46): the newest patch of every minor of the rmcp crate the crates.io sparse index
// lists (yanked and pre-releases left out), the lab's one rmcp driver (lab/peers/rmcp/) built against each by
// cargo (lab/peers/cargo-history.ts) into build/history/rmcp/<version>/, one build at a time over one shared target
// dir, with the driver's pre_* feature for a release whose API is older (rmcpFeatures: the types' older names, the
// older protocol version, struct literals or the wire form where a builder is newer).
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
/** The first release knowing ProtocolVersion::V_2025_11_25 (rmcp 1.5.0 src/model.rs:155); before it the newest is
 *  V_2025_06_18 (1.4.0 model.rs:155-158; 0.17.0 :153-156), which the driver's pre_1_5 feature asks for instead. */
export const FIRST_WITH_2025_11_25 = "1.5.0";
/** The first release with ListRootsResult::new and Root::new (rmcp 1.2.0 src/model.rs:2434-2436, :2407); 1.0.0-1.1.1
 *  have neither and a non_exhaustive Root (1.0.0 model.rs:2372-2379): pre_1_2 reads the answer from its wire form. */
export const FIRST_WITH_ROOTS_BUILDERS = "1.2.0";
/** The first release with the builders InitializeRequestParams::new, Implementation::new, CallToolRequestParams::new,
 *  CreateElicitationResult::new and CreateMessageResult::new (rmcp 1.0.0 src/model.rs:785, :962, :2802, :2596, :2871);
 *  0.17.0 has none, its structs open (no non_exhaustive): pre_1_0 writes them as struct literals. */
export const FIRST_WITH_BUILDERS = "1.0.0";

/** The driver's features a release needs, each implying the newer ones (lab/peers/rmcp/Cargo.toml): none from 3.4.1
 *  (the rmcp peer's own build). */
export function rmcpFeatures(release: string): string[] {
  const before = (first: string) => compareReleases(release, first) < 0;
  if (before(FIRST_WITH_BUILDERS)) return ["pre_1_0"];
  if (before(FIRST_WITH_ROOTS_BUILDERS)) return ["pre_1_2"];
  if (before(FIRST_WITH_2025_11_25)) return ["pre_1_5"];
  if (before(FIRST_WITH_ELICIT_NAMES)) return ["pre_2_0"];
  return before(FIRST_WITH_CLIENT_CONFIG) ? ["pre_3_4"] : [];
}

/** The protocol version the driver asks for on a release (src/host.rs): what the ts1 server answers with. */
export const rmcpProtocol = (release: string) => (compareReleases(release, FIRST_WITH_2025_11_25) < 0 ? "2025-06-18" : "2025-11-25");

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
    meaning: `the rmcp ${version} client as shipped, the lab's rmcp driver built against it (asking for ${rmcpProtocol(version)})`,
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
    "The lab's rmcp driver (lab/peers/rmcp/src/) built by cargo against each release: its Cargo.toml pinned to the release in build/history/rmcp/<version>/, its Cargo.lock as the start (cargo moves what the release needs), one shared target dir (build/history/rmcp/target), the binary copied out per release. Before 3.4.1 it is built with its pre_3_4 feature (ClientInfo imported as ClientConfig), before 2.0.0 with pre_2_0 too (the elicitation types' older names), before 1.5.0 with pre_1_5 too (protocol 2025-06-18, the newest those know), before 1.2.0 with pre_1_2 too (the roots answer from its wire form), before 1.0.0 with pre_1_0 too (struct literals for the builders 1.0.0 brought).",
};
