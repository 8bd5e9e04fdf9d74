// Which test files npm test leaves to the full tier (LAB_TESTS=full; .ci/run runs them in its probe
// and parity step). Issue 46 asks npm test for a sample of one SDK's history (py's, in
// history.test.ts); the other SDKs' samples run three releases each through real builds and
// sessions, and .ci/run runs those histories in full besides. npm test names each file it leaves.
export const FULL_TIER_FILES: readonly string[] = ["history-kotlin.test.ts", "history-ts1.test.ts", "history-ts2.test.ts", "history-java.test.ts", "history-go.test.ts", "history-mcp-go.test.ts", "history-rmcp.test.ts", "history-rust-mcp-sdk.test.ts"];

/** LAB_TESTS=full: every file; else the files outside the full tier. */
export const FULL_RUN = process.env.LAB_TESTS === "full";
