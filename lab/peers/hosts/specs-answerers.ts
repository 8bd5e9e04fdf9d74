// The hosts whose forms the lab answers: claude-agent-sdk (query() with onElicitation, in a driver
// process of the lab's), claude-code-hook (`claude -p` with an Elicitation hook the lab provides)
// and codex-app (`codex app-server`, the lab's driver its JSON-RPC client). Each answers by the
// plan (answer.ts). A driver is a node process in the host's own group, so it goes with the host.
import type { HostSpec } from "./host-session.js";

/** the hosts with an answerer, in the order `hosts` runs them */
export const ANSWERER_SPECS: readonly HostSpec[] = [];
