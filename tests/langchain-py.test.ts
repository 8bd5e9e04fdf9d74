// langchain-mcp-adapters 0.3.2's persistent client.session() on mcp 1.30.0: the session it hands out has no read timeout, so the nested request
// deadlocks until the lab's backstop: one real nested run against ts1, the serial model against it, corrupted copies
// rejected (tests/support/backstop-peer.ts).
import "./support/child-pids.js";
import { test } from "uvu";
import { LANGCHAIN_PY_CLIENT } from "../lab/peers/langchain-py/index.js";
import { backstopPeerTests } from "./support/backstop-peer.js";

backstopPeerTests(LANGCHAIN_PY_CLIENT, "model-vs-langchain-py");

test.run();
