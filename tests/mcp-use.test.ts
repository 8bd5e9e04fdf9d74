// mcp-use 1.7.1's MCPClient and MCPSession on mcp 1.30.0: its stdio ClientSession gets no read timeout, so the nested request
// deadlocks until the lab's backstop: one real nested run against ts1, the serial model against it, corrupted copies
// rejected (tests/support/backstop-peer.ts).
import "./support/child-pids.js";
import { test } from "uvu";
import { MCP_USE_CLIENT } from "../lab/peers/mcp-use/index.js";
import { backstopPeerTests } from "./support/backstop-peer.js";

backstopPeerTests(MCP_USE_CLIENT, "model-vs-mcp-use");

test.run();
