// The serial model against the real serial clients, on the report card: for each server, the model's
// columns (ts1 and ts2 under `serial`) beside py1 (the real Python SDK 1.29.0 client, the thing
// modelled), kotlin-0.14 (the Kotlin SDK 0.14.0 client, a second real serial loop) and rust-mcp-sdk (1.1.0, a third). Each row
// where they differ is named with its reason: what the model keeps from the TS SDK it wraps, and
// what that real SDK does its own way; a row with no reason here is unexplained and fails the card.
import { CARD_ROWS, type RowId } from "./card.js";
import type { CellValue } from "./card-cell.js";
import { isDeadlockCell } from "./wait-end.js";

export interface CardCells {
  client: string;
  loop: string;
  server: string;
  cells: Partial<Record<RowId, CellValue>>;
}

export interface ModelDifference {
  path: string;
  /** the real serial client compared with (py1, kotlin-0.14 or rust-mcp-sdk) */
  real: RealSerialClient;
  /** the real client's cell */
  expected: string;
  /** the model's cell */
  actual: string;
  why: string;
  state: "named" | "unexplained";
  server: string;
  model: string;
  row: RowId;
}

export const REAL_SERIAL_CLIENTS = ["py1", "kotlin-0.14", "rust-mcp-sdk"] as const;
export type RealSerialClient = (typeof REAL_SERIAL_CLIENTS)[number];
export const REAL_SERIAL_SDK: Record<RealSerialClient, string> = {
  py1: "the real Python SDK 1.29.0",
  "kotlin-0.14": "the real Kotlin SDK 0.14.0",
  "rust-mcp-sdk": "the real rust-mcp-sdk 1.1.0",
};

/** What the model keeps from the TS SDK where 1.29.0 does otherwise (source lines of both). */
const PY1_WHY: Partial<Record<RowId, string>> = {
  nestedError:
    "the model keeps the TS SDK's request timeout (McpError -32001, sdk shared/protocol.js:741; v2: SdkError REQUEST_TIMEOUT, no code); 1.29.0's send_request raises McpError 408 (mcp/shared/session.py:290-303)",
  cancelNotice: "the model keeps the TS SDK's request(), which sends notifications/cancelled before it rejects (shared/protocol.js:705); 1.29.0 writes nothing (mcp/shared/session.py:310-314)",
  lateReply:
    "the model keeps the TS SDK's _onresponse, which reports an unknown id to onerror (shared/protocol.js:494); 1.29.0 hands a RuntimeError to the message handler (mcp/shared/session.py:513-518, client/session.py:614-619)",
  cancelWithdraws:
    "a call the TS client gives up on sends notifications/cancelled for it (callTool's signal); a 1.29.0 call given up is a cancelled anyio scope, and send_request writes nothing (mcp/shared/session.py:310-314)",
  withdrawAborts: "the same outcome; the model's own loop also says why the abort did not come ('read after its answer', lab/history/receive-loop.ts), which 1.29.0's loop cannot",
  lateAnswer:
    "follows from the rows above: the model tells the server its call is gone, 1.29.0 never does, so its call still gets a result; after a withdrawal, whether the server's own handling is recorded depends on where the card runs that server for each client",
};

/** What the model keeps from the TS SDK where Kotlin 0.14.0 does otherwise (kotlin-sdk-core-jvm 0.14.0 sources, findings-jvm.md). */
const KOTLIN_014_END =
  "both deadlock; what ends the wait differs: the model keeps the TS SDK's request timeout (shared/protocol.js:741); 0.14.0's RequestOptions.timeout bounds only transport.send (Protocol.kt:505-508), not the await (:509), so the SDK sets no limit on the wait and the driver's coroutine withTimeout backstop ends it";
const KOTLIN_014_WHY: Partial<Record<RowId, string>> = {
  nested: KOTLIN_014_END,
  samplingNested: KOTLIN_014_END,
  rootsNested: KOTLIN_014_END,
  nestedError:
    "the model keeps the TS SDK's request timeout (McpError -32001, sdk shared/protocol.js:741; v2: SdkError REQUEST_TIMEOUT, no code); 0.14.0's RequestOptions.timeout bounds only transport.send (Protocol.kt:505-508), not the await (:509), so its own limit never fires and the deadlock ends at the driver's coroutine withTimeout backstop: TimeoutCancellationException, no code",
  lateReply:
    "the model keeps the TS SDK's _onresponse, which reports an unknown id to onerror (shared/protocol.js:494); 0.14.0's onResponse hands it to onError (Protocol.kt:380-386), an empty open function (:200), so it is dropped silently",
  cancelWithdraws:
    "a call the TS client gives up on sends notifications/cancelled for it (callTool's signal); 0.14.0's request() sends one only for its own TimeoutCancellationException (Protocol.kt:510-520), so a call cancelled by its caller writes nothing",
  withdrawAborts:
    "the same outcome; the model's own loop also says why the abort did not come ('read after its answer', lab/history/receive-loop.ts), which 0.14.0 cannot: it has no handler for notifications/cancelled at all (Protocol.kt:213-224)",
  lateAnswer:
    "follows from the rows above: the model tells the server its call is gone, 0.14.0 never does, so its call still gets a result; after a withdrawal, whether the server's own handling is recorded depends on where the card runs that server for each client",
};
/** What the model keeps from the TS SDK where rust-mcp-sdk 1.1.0 does otherwise (~/.cargo/registry sources, findings-rust-mcp-sdk.md):
 *  both wait for the SDK's own limit (-32001), so the deadlock rows agree. */
const RUST_MCP_SDK_WHY: Partial<Record<RowId, string>> = {
  nestedError:
    "the model keeps the TS SDK's request timeout (McpError -32001, sdk shared/protocol.js:741; v2: SdkError REQUEST_TIMEOUT, no code); rust-mcp-sdk 1.1.0's own limit is SdkError -32001 (rust-mcp-transport message_dispatcher.rs:174-184, rust-mcp-schema schema_utils.rs:3472-3477): the same code under its own type",
  cancelNotice:
    "the model keeps the TS SDK's request(), which sends notifications/cancelled before it rejects (shared/protocol.js:705); rust-mcp-sdk 1.1.0's await_timeout returns the error and writes nothing (rust-mcp-transport message_dispatcher.rs:174-184)",
  lateReply:
    "the model keeps the TS SDK's _onresponse, which reports an unknown id to onerror (shared/protocol.js:494); rust-mcp-sdk 1.1.0 hands the late reply to the timed-out request's sender, still pending, and the failed send goes only to tracing::error (client_runtime.rs:239-243, :321-323): dropped silently",
  cancelWithdraws:
    "a call the TS client gives up on sends notifications/cancelled for it (callTool's signal); rust-mcp-sdk 1.1.0's McpClient::request returns no request id (client_runtime.rs:719-723), so a call given up writes nothing",
  withdrawAborts:
    "the same outcome; the model's own loop also says why the abort did not come ('read after its answer', lab/history/receive-loop.ts); rust-mcp-sdk 1.1.0 reads notifications/cancelled in the same main task, only after the running handler returned (client_runtime.rs:215-219)",
  lateAnswer:
    "follows from the rows above: the model tells the server its call is gone, rust-mcp-sdk 1.1.0 never does, so its call still gets a result; after a withdrawal, whether the server's own handling is recorded depends on where the card runs that server for each client",
};
const WHY: Record<RealSerialClient, Partial<Record<RowId, string>>> = { py1: PY1_WHY, "kotlin-0.14": KOTLIN_014_WHY, "rust-mcp-sdk": RUST_MCP_SDK_WHY };

/** Every row where a model column differs from a real serial client against the same server. */
export function modelDifferences(columns: readonly CardCells[]): ModelDifference[] {
  const out: ModelDifference[] = [];
  for (const model of columns.filter((c) => c.loop === "serial")) {
    for (const client of REAL_SERIAL_CLIENTS) {
      const real = columns.find((c) => c.client === client && c.loop === "sdk" && c.server === model.server);
      // only within one era: a model that negotiated 2026-07-28 sends no server-to-client request to compare
      if (!real || model.cells.protocol === undefined || model.cells.protocol.value !== real.cells.protocol?.value) continue;
      out.push(...rowDifferences(model, real, client));
    }
  }
  return out;
}

const DEADLOCK_ROWS = new Set<RowId>(["nested", "samplingNested", "rootsNested"]);

function rowDifferences(model: CardCells, real: CardCells, client: RealSerialClient): ModelDifference[] {
  const out: ModelDifference[] = [];
  for (const { id } of CARD_ROWS) {
    const [m, r] = [model.cells[id], real.cells[id]];
    if (!m || !r || m.value === r.value) continue;
    // a deadlock row may differ only in what ended the wait: both must deadlock
    const why = DEADLOCK_ROWS.has(id) && !(isDeadlockCell(m.value) && isDeadlockCell(r.value)) ? undefined : WHY[client][id];
    out.push({
      path: `card.${model.server}.${model.client}-serial.${client}.${id}`,
      real: client,
      expected: String(r.value),
      actual: String(m.value),
      why: why ?? `no reason is known: the model and ${REAL_SERIAL_SDK[client]} client disagree here`,
      state: why ? "named" : "unexplained",
      server: model.server,
      model: model.client,
      row: id,
    });
  }
  return out;
}
