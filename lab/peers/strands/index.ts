// The strands peers: strands-agents 1.65.0's MCPClient, the object its agents call, on mcp 2.3.0 as pip resolves
// strands-agents alone (build/venvs/strands). The client is one adapter of the lab's Python driver
// (client.py): `strands` sends the nested request asynchronously on the session its callback is handed;
// `strands-sync` calls strands' own list_tools_sync() from inside the callback, which blocks the loop it waits on.
import type { ClientPeer } from "../../plan/peer.js";
import { STRANDS_ENV } from "../python/envs.js";
import { pythonClient } from "../python/peer.js";
import { pythonDist, sdkLabel } from "../installed.js";

const SDK = sdkLabel("strands-agents {} (on mcp {})", pythonDist(STRANDS_ENV, "strands-agents"), pythonDist(STRANDS_ENV, "mcp"));

export const STRANDS_CLIENT: ClientPeer = pythonClient({
  name: "strands",
  sdk: SDK,
  meaning: "strands-agents 1.65.0's MCPClient(elicitation_callback=...): its session runs on a background thread's own loop (mcp_client.py:1632-1644) on mcp 2.3.0's ClientSession, whose dispatcher spawns each inbound request; the callback's nested tools/list goes through the session it is handed (strands has no async list_tools)",
  era: "auto",
}, STRANDS_ENV, "strands/client.py");

export const STRANDS_SYNC_CLIENT: ClientPeer = pythonClient({
  name: "strands-sync",
  sdk: SDK,
  meaning: "the same MCPClient, its callback calling strands' own list_tools_sync(): that blocks on .result() with no timeout (mcp_client.py:757) the background loop the callback runs on, so the request is never sent; the lab's bound ends the session",
  era: "auto",
}, STRANDS_ENV, "strands/client.py", ["--sync"]);
