// One real nested run per client peer over stdio against the ts1 server, shared by the test files that read it (a
// framework peer's own file, issue 42), and the readings those files make of it.
import { expectationFor } from "../../lab/check/expectations.js";
import { verify } from "../../lab/check/verify.js";
import { readVersions } from "../../lab/peers/versions.js";
import type { ClientPeer } from "../../lab/plan/peer.js";
import { runCase, type RunRecord } from "../../lab/session/pipeline.js";
import { findScenario } from "../../scenarios/index.js";
import * as assert from "uvu/assert";
import { copy } from "./runs.js";

type Evidence = Pick<RunRecord, "events" | "wire">;
const runs = new Map<string, Promise<RunRecord>>();

/** The nested scenario, once per client peer in this process. */
export function nestedRun(client: ClientPeer): Promise<RunRecord> {
  const run = runs.get(client.name) ?? runCase(findScenario("nested")!, "sdk", { client, transports: ["stdio"], repeat: 1, onDeadlock: "wait" }, readVersions()).then((r) => r.runs[0]!);
  runs.set(client.name, run);
  return run;
}

/** The run's failing checks, with their details. */
export const failuresOf = (run: RunRecord) => run.verdicts.filter((v) => !v.ok).map((v) => `${v.check}: ${v.details.join("; ")}`);

/** The checks `run` (real or a corrupted copy) fails against `client`'s nested expectation for ts1. */
export const failedAgainst = (client: string, run: Evidence) =>
  verify({ events: run.events, wire: run.wire, transport: "stdio" }, expectationFor("nested", "sdk", { client, server: "ts1" })!.expectation).filter((v) => !v.ok).map((v) => v.check);

/** How many `method` requests the client sent. */
export const clientRequests = (run: Pick<RunRecord, "wire">, method: string) =>
  run.wire.filter((f) => f.from === "client" && f.label.method === method && f.label.frameType === "request").length;

/** A copy with the first `kind` event moved to just after the first event `after` picks, the timeline renumbered. */
export function movedAfter<T extends Evidence>(run: T, kind: string, after: (e: T["events"][number]) => boolean): T {
  const moved = copy(run);
  moved.events.find((e) => e.kind === kind)!.t = moved.events.find(after)!.t + 0.01;
  moved.events.sort((a, b) => a.t - b.t).forEach((e, i) => (e.seq = i));
  return moved;
}

/** The real run passes `client`'s nested expectation, and the expectation rejects two corruptions of it:
 *  the nested request failed, and its reply moved after the first call's callback answered. */
export function assertRejectsCorrupted(client: string, run: Evidence): void {
  assert.equal(failedAgainst(client, run), [], "the real run itself must pass");
  const failed = copy(run);
  failed.events = failed.events.map((e) => (e.kind === "nested.ok" ? { ...e, kind: "nested.failed" as const, detail: { type: "timed out" } } : e));
  assert.ok(failedAgainst(client, failed).includes("nested requests"), "a nested request that failed was accepted");
  const late = movedAfter(run, "nested.ok", (e) => e.kind === "callback.left" && e.detail?.call === "first");
  assert.ok(failedAgainst(client, late).some((c) => c.startsWith("order: the nested request returns inside the callback")), "a nested reply after the callback answered was accepted");
}
