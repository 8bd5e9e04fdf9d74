// The serial model against the thing it models, on the report card: for each server, the model's
// columns (ts1 and ts2 under `serial`) beside py1 (the real Python SDK 1.29.0 client). Each row
// where they differ is named with the reason the model differs, i.e. what it keeps from the TS
// SDK it wraps; a row with no reason here is an unexplained difference and fails the card.
import { CARD_ROWS, type RowId } from "./card.js";
import type { CellValue } from "./card-cell.js";

export interface CardCells {
  client: string;
  loop: string;
  server: string;
  cells: Partial<Record<RowId, CellValue>>;
}

export interface ModelDifference {
  path: string;
  /** the real client's cell (py1) */
  expected: string;
  /** the model's cell */
  actual: string;
  why: string;
  state: "named" | "unexplained";
  server: string;
  model: string;
  row: RowId;
}

export const REAL_SERIAL_CLIENT = "py1";

/** What the model keeps from the TS SDK where 1.29.0 does otherwise (source lines of both). */
const WHY: Partial<Record<RowId, string>> = {
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

/** Every row where a model column differs from py1 against the same server. */
export function modelDifferences(columns: readonly CardCells[]): ModelDifference[] {
  const out: ModelDifference[] = [];
  for (const model of columns.filter((c) => c.loop === "serial")) {
    const real = columns.find((c) => c.client === REAL_SERIAL_CLIENT && c.loop === "sdk" && c.server === model.server);
    // only within one era: a model that negotiated 2026-07-28 sends no server-to-client request to compare
    if (!real || model.cells.protocol === undefined || model.cells.protocol.value !== real.cells.protocol?.value) continue;
    for (const { id } of CARD_ROWS) {
      const [m, r] = [model.cells[id], real.cells[id]];
      if (!m || !r || m.value === r.value) continue;
      const why = WHY[id];
      out.push({
        path: `card.${model.server}.${model.client}-serial.${id}`,
        expected: String(r.value),
        actual: String(m.value),
        why: why ?? "no reason is known: the model and the real 1.29.0 client disagree here",
        state: why ? "named" : "unexplained",
        server: model.server,
        model: model.client,
        row: id,
      });
    }
  }
  return out;
}
