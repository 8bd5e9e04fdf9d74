// The serial model beside the real serial clients on the report card, py1 (the real Python SDK 1.29.0)
// and kotlin-0.14 (the Kotlin SDK 0.14.0): from the hand-written cards, every row where they differ is
// named with its reason; a difference in a row the model must get right (the deadlock, fan-out, ping)
// is unexplained, and it fails the card.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { loadExpectedCards } from "../lab/check/card-expected.js";
import { modelDifferences, type CardCells } from "../lab/check/card-model.js";
import type { RowId } from "../lab/check/card.js";

const cards = loadExpectedCards();
const column = (client: string, loop: string, server: string): CardCells => {
  const card = cards.get(`${client}.${loop}.${server}`)!;
  assert.ok(card, `${client}.${loop}.${server} has a card`);
  const cells = Object.fromEntries(Object.entries(card.cells).map(([row, value]) => [row, { value, text: String(value), tone: "safe" as const }]));
  return { client, loop, server, cells: cells as CardCells["cells"] };
};

test("ts1 and ts2 under serial against py1 on every server: the differing rows are the ones the model takes from the TS SDK, each named", () => {
  for (const server of ["ts1", "ts2", "py", "py1", "fastmcp"]) {
    const diffs = modelDifferences([column("ts1", "serial", server), column("ts2", "serial", server), column("py1", "sdk", server)]).filter((d) => d.real === "py1");
    assert.equal(diffs.filter((d) => d.state !== "named"), [], server);
    const rows = new Set(diffs.map((d) => d.row));
    for (const row of ["nestedError", "cancelNotice", "lateReply", "cancelWithdraws"] as RowId[]) assert.ok(rows.has(row), `${server}: ${row} differs and is named`);
    for (const row of ["nested", "peak", "ping", "recovery"] as RowId[]) assert.not.ok(rows.has(row), `${server}: the model agrees with py1 on ${row}`);
    const one = diffs.find((d) => d.row === "nestedError" && d.model === "ts1")!;
    assert.equal([one.expected, one.actual, one.path], ["408 McpError", "-32001", `card.${server}.ts1-serial.py1.nestedError`]);
  }
});

test("ts1 and ts2 under serial against kotlin-0.14 on every server: its own differences (the timeout, the late reply, no notice for a cancelled call), each named", () => {
  for (const server of ["ts1", "ts2", "py", "py1"]) {
    const diffs = modelDifferences([column("ts1", "serial", server), column("ts2", "serial", server), column("kotlin-0.14", "sdk", server)]);
    assert.ok(diffs.every((d) => d.real === "kotlin-0.14"));
    assert.equal(diffs.filter((d) => d.state !== "named"), [], server);
    const rows = new Set(diffs.map((d) => d.row));
    // both deadlock; what ends the wait is the model's TS SDK limit, and 0.14.0's driver backstop (Protocol.kt:505-509)
    for (const row of ["nestedError", "lateReply", "cancelWithdraws", "nested", "samplingNested", "rootsNested"] as RowId[]) assert.ok(rows.has(row), `${server}: ${row} differs and is named`);
    // 0.14.0 sends notifications/cancelled on its own timeout, as the model does (Protocol.kt:510-520)
    for (const row of ["peak", "ping", "recovery", "cancelNotice", "samplingPeak"] as RowId[]) {
      assert.not.ok(rows.has(row), `${server}: the model agrees with kotlin-0.14 on ${row}`);
    }
    const one = diffs.find((d) => d.row === "nestedError" && d.model === "ts1")!;
    assert.equal([one.expected, one.actual, one.path], ["no code TimeoutCancellationException", "-32001", `card.${server}.ts1-serial.kotlin-0.14.nestedError`]);
  }
});

test("ts1 and ts2 under serial against rust-mcp-sdk on every server: both deadlock until the SDK's own limit; only its telling differs, each named", () => {
  for (const server of ["ts1", "ts2", "py", "py1", "fastmcp"]) {
    const diffs = modelDifferences([column("ts1", "serial", server), column("ts2", "serial", server), column("rust-mcp-sdk", "sdk", server)]);
    assert.ok(diffs.every((d) => d.real === "rust-mcp-sdk"));
    assert.equal(diffs.filter((d) => d.state !== "named"), [], server);
    const rows = new Set(diffs.map((d) => d.row));
    // no courtesy cancel on its timeout (message_dispatcher.rs:174-184), the late reply only to tracing (client_runtime.rs:321-323)
    for (const row of ["nestedError", "cancelNotice", "lateReply", "cancelWithdraws"] as RowId[]) assert.ok(rows.has(row), `${server}: ${row} differs and is named`);
    // the same serial loop under the same kind of limit: the deadlock rows, the peaks and the ping agree
    for (const row of ["nested", "samplingNested", "rootsNested", "peak", "ping", "recovery", "samplingPeak"] as RowId[]) {
      assert.not.ok(rows.has(row), `${server}: the model agrees with rust-mcp-sdk on ${row}`);
    }
  }
  // corrupted: a rust-mcp-sdk card whose ping is answered while the callback runs has no reason
  const real = column("rust-mcp-sdk", "sdk", "ts1");
  real.cells.ping = { value: "answered while the callback runs", text: "answered while the callback runs", tone: "safe" };
  const ping = modelDifferences([column("ts1", "serial", "ts1"), real]).find((d) => d.row === "ping");
  assert.ok(ping && ping.state === "unexplained", JSON.stringify(ping));
});

test("against kotlin-0.14, a difference with no reason (the ping row) is unexplained", () => {
  const real = column("kotlin-0.14", "sdk", "ts1");
  real.cells.ping = { value: "answered while the callback runs", text: "answered while the callback runs", tone: "safe" };
  const diffs = modelDifferences([column("ts1", "serial", "ts1"), real]);
  const ping = diffs.find((d) => d.row === "ping");
  assert.ok(ping && ping.state === "unexplained" && ping.real === "kotlin-0.14", JSON.stringify(ping));
  assert.match(ping.why, "Kotlin SDK 0.14.0");
});

test("a model that stopped deadlocking is an unexplained difference", () => {
  const model = column("ts1", "serial", "ts1");
  model.cells.nested = { value: "completes", text: "completes", tone: "safe" };
  const diffs = modelDifferences([model, column("py1", "sdk", "ts1")]);
  const nested = diffs.find((d) => d.row === "nested");
  assert.ok(nested && nested.state === "unexplained", JSON.stringify(nested));
  assert.equal([nested.expected, nested.actual], ["deadlocks until the SDK's request limit", "completes"]);
});

test("against kotlin-0.14, the deadlock rows may differ only in what ended the wait: a model that stopped deadlocking is unexplained", () => {
  const model = column("ts1", "serial", "ts1");
  const named = modelDifferences([model, column("kotlin-0.14", "sdk", "ts1")]).find((d) => d.row === "nested");
  assert.ok(named && named.state === "named", JSON.stringify(named));
  assert.equal([named.expected, named.actual], ["deadlocks until the lab's backstop: no SDK limit on this path", "deadlocks until the SDK's request limit"]);
  model.cells.nested = { value: "completes", text: "completes", tone: "safe" };
  const broken = modelDifferences([model, column("kotlin-0.14", "sdk", "ts1")]).find((d) => d.row === "nested");
  assert.ok(broken && broken.state === "unexplained", JSON.stringify(broken));
});

test("without py1 beside it, nothing is compared", () => {
  assert.equal(modelDifferences([column("ts1", "serial", "ts1")]), []);
});

test.run();
