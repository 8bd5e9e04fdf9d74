// The loop model is the session's: a transport opener is handed the peers and the scenario, never
// `loop` or `onDeadlock`, and the session itself wraps the client end it returns. A serial
// run through a spying opener still deadlocks, so the model was applied above the transport.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { runSession } from "../lab/session/session.js";
import { openMemoryTransport } from "../lab/transports/memory.js";
import type { OpenTransport } from "../lab/plan/session.js";
import { findScenario } from "../scenarios/index.js";

test("the opener sees no loop model; the session applies it (serial deadlocks, sdk completes)", async () => {
  const seen: string[][] = [];
  const spy: OpenTransport = (recorder, pairing) => (seen.push(Object.keys(pairing).sort()), openMemoryTransport(recorder, pairing));
  const nested = findScenario("nested")!;
  const serial = await runSession(nested, spy, "memory", { loop: "serial", onDeadlock: "wait" });
  const sdk = await runSession(nested, spy, "memory", { loop: "sdk" });
  for (const keys of seen) assert.ok(!keys.includes("loop") && !keys.includes("onDeadlock"), keys.join(","));
  assert.equal(seen[0], ["client", "scenario", "server"]);
  const failed = (r: typeof serial) => r.events.filter((e) => e.kind === "nested.failed").length;
  assert.equal(serial.errors, []);
  assert.ok(failed(serial) > 0, "under serial the nested request fails at its limit");
  assert.is(failed(sdk), 0, "under sdk it completes");
  // the serial loop handed the nested reply to the SDK only after the callback left
  const left = serial.events.find((e) => e.kind === "callback.left")!;
  const reply = serial.events.find((e) => e.kind === "frame.dispatched" && e.side === "client" && e.method === "tools/list" && e.frameType === "result" && e.seq > serial.events.find((x) => x.kind === "callback.entered")!.seq);
  assert.ok(reply && reply.seq > left.seq, "the nested reply was dispatched after the callback left");
});

test.run();
