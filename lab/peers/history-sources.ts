// Every SDK with a release history (issue 46): `history --client <sdk>` picks one by its sdk name.
// A new source: export a HistorySource (lab/plan/history.ts) from its peer folder and add it here.
import type { HistorySource } from "../plan/history.js";
import { GO_HISTORY } from "./go/history.js";
import { KOTLIN_HISTORY } from "./jvm/history.js";
import { JAVA_HISTORY } from "./jvm/java-history.js";
import { MCP_GO_HISTORY } from "./mcp-go/history.js";
import { PY_HISTORY } from "./python/history.js";
import { RMCP_HISTORY } from "./rmcp/history.js";
import { RUST_MCP_SDK_HISTORY } from "./rust-mcp-sdk/history.js";
import { TS1_HISTORY } from "./ts1/history.js";
import { TS2_HISTORY } from "./ts2/history.js";

export const HISTORY_SOURCES: readonly HistorySource[] = [PY_HISTORY, TS1_HISTORY, TS2_HISTORY, KOTLIN_HISTORY, JAVA_HISTORY, RMCP_HISTORY, GO_HISTORY, MCP_GO_HISTORY, RUST_MCP_SDK_HISTORY];
