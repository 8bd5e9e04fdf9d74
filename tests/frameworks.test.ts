// The JavaScript frameworks of issue #28, one real nested run each against the ts1 server (in memory;
// mastra and openai-agents, which run under Node 22 in their own process, over stdio):
// mastra declares form elicitation and its form reaches the handler, the nested request completes;
// langchain, openai-agents and genkit declare none, and the server's calculate ends `unsupported`.
// Each passes its expected/nested.sdk.<client>.json; the first card row is read from that evidence;
// corrupted copies are rejected and move the row; plans the frameworks'
// APIs cannot express are refused in one line with the framework's source line.
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { DECLARES_NO_FORM, FORM_ANSWERED, formAnsweredCell, NO_FORM_REACHED } from "../lab/check/card-form.js";
import { nestedCells } from "../lab/check/card.js";
import { GENKIT_CLIENT } from "../lab/peers/genkit/index.js";
import { LANGCHAIN_CLIENT } from "../lab/peers/langchain/index.js";
import { MASTRA_CLIENT } from "../lab/peers/mastra/index.js";
import { giveUpRefusal } from "../lab/peers/no-form/session.js";
import { OPENAI_AGENTS_CLIENT } from "../lab/peers/openai-agents/index.js";
import type { SessionPlan } from "../lab/plan/behaviour.js";
import type { ClientPeer } from "../lab/plan/peer.js";
import type { SessionEvidence } from "../lab/plan/session.js";
import { runSession } from "../lab/session/session.js";
import { openMemoryTransport } from "../lab/transports/memory.js";
import { openProcessTransport } from "../lab/transports/process.js";
import { findScenario } from "../scenarios/index.js";
import { missingOf, needs } from "./support/needs.js";
import { copy } from "./support/runs.js";
import { expectationFor } from "../lab/check/expectations.js";
import { verify } from "../lab/check/verify.js";

const runs = new Map<string, Promise<SessionEvidence>>();
const FRAMEWORKS = [MASTRA_CLIENT, LANGCHAIN_CLIENT, OPENAI_AGENTS_CLIENT, GENKIT_CLIENT];
/** a driver in its own process talks stdio; an in-process one runs in memory */
const carrier = (client: ClientPeer) => (client.driver.kind === "process" ? ([openProcessTransport, "stdio"] as const) : ([openMemoryTransport, "memory"] as const));
const nested = (client: ClientPeer) => {
  let run = runs.get(client.name);
  const [open, transport] = carrier(client);
  if (!run) runs.set(client.name, (run = runSession(findScenario("nested")!, open, transport, { loop: "sdk", client })));
  return run;
};
// The four runs start together when this file's tests begin, and end before the tests read them:
// most of each is the framework's own import and the bridge child's start.
test.before(() => {
  const clients = FRAMEWORKS.filter((client) => missingOf([client]) === undefined);
  return Promise.allSettled(clients.map(nested)).then(() => undefined);
});
const initialize = (run: Pick<SessionEvidence, "wire">) =>
  run.wire.find((f) => f.from === "client" && f.label.method === "initialize")!.message as unknown as { params: { capabilities: Record<string, unknown> } };
/** Corrupts a run into one that declared form elicitation: in initialize, and in the 2026-07-28
 *  _meta of a server/discover probe (openai-agents' 'auto' sends one first, even before initialize). */
function declareForm(run: Pick<SessionEvidence, "wire">): void {
  for (const f of run.wire.filter((w) => w.from === "client")) {
    const params = (f.message as { params?: { capabilities?: unknown; _meta?: Record<string, unknown> } }).params;
    if (f.label.method === "initialize" && params) params.capabilities = { elicitation: { form: {} } };
    else if (params?._meta?.["io.modelcontextprotocol/clientCapabilities"] !== undefined) params._meta["io.modelcontextprotocol/clientCapabilities"] = { elicitation: { form: {} } };
  }
}
/** The checks of expected/nested.sdk.<client>.json that the evidence fails. */
const failed = (client: string, run: Pick<SessionEvidence, "events" | "wire">) =>
  verify({ events: run.events, wire: run.wire, transport: carrier(FRAMEWORKS.find((c) => c.name === client)!)[1] }, expectationFor("nested", "sdk", { client, server: "ts1" })!.expectation).filter((v) => !v.ok).map((v) => v.check);
const statuses = (run: SessionEvidence) => run.events.filter((e) => e.kind === "tool.result").map((e) => (e.detail?.result as { status?: string } | null)?.status);

for (const [client, declared] of [
  [LANGCHAIN_CLIENT, {}],
  [OPENAI_AGENTS_CLIENT, {}],
  [GENKIT_CLIENT, { roots: { listChanged: true } }],
] as const) {
  needs(client)(`${client.name} nested against ts1: declares no elicitation, no form is sent, calculate ends unsupported`, async () => {
    const run = await nested(client);
    assert.equal(run.errors, []);
    assert.equal(initialize(run).params.capabilities, declared);
    assert.not.ok(run.wire.some((f) => f.label.method === "elicitation/create"));
    assert.equal(statuses(run), ["unsupported", "unsupported"]);
    assert.ok(run.events.some((e) => e.kind === "note" && Array.isArray(e.detail?.notDeclared)), "the driver notes what it could not declare");
    assert.is(formAnsweredCell(run).value, DECLARES_NO_FORM);
    assert.equal(failed(client.name, run), [], "passes expected/nested.sdk.<client>.json");
    // corrupted: a form on the wire that the client could never have been sent
    const asked = copy(run);
    const call = asked.wire.find((f) => f.from === "client" && f.label.method === "tools/call")!;
    asked.wire.push({ ...call, index: asked.wire.length, from: "server", to: "client", message: { jsonrpc: "2.0", id: 0, method: "elicitation/create", params: {} }, label: { ...call.label, method: "elicitation/create" } });
    assert.ok(failed(client.name, asked).includes("frames on the wire"), failed(client.name, asked).join("; "));
    // corrupted: had it declared a form, the row would say the form never reached a handler
    const claimed = copy(run);
    declareForm(claimed);
    assert.is(formAnsweredCell(claimed).value, NO_FORM_REACHED);
  });
}

needs(MASTRA_CLIENT)("mastra nested against ts1: declares { form: {} }, the form reaches inputRequests, the nested request completes", async () => {
  const run = await nested(MASTRA_CLIENT);
  assert.equal(run.errors, []);
  assert.equal(initialize(run).params.capabilities.elicitation, { form: {} });
  assert.is(formAnsweredCell(run).value, FORM_ANSWERED);
  assert.is(nestedCells({ ...run, negotiatedProtocol: "2025-11-25" }).nested.value, "completes");
  assert.equal(statuses(run), ["calculated", "calculated"]);
  assert.equal(failed("mastra", run), [], "passes expected/nested.sdk.mastra.json");
  // corrupted: the nested request returning only after the callback answered (a serial loop's story)
  const late = copy(run);
  late.events.find((e) => e.kind === "nested.ok")!.t = late.events.find((e) => e.kind === "callback.left" && e.detail?.call === "first")!.t + 0.01;
  late.events.sort((a, b) => a.t - b.t).forEach((e, i) => (e.seq = i));
  assert.ok(failed("mastra", late).some((c) => c.startsWith("order: the nested request returns inside the callback")), failed("mastra", late).join("; "));
  // corrupted: no callback entered, or nothing declared
  const unreached = copy(run);
  unreached.events = unreached.events.filter((e) => e.kind !== "callback.entered");
  assert.is(formAnsweredCell(unreached).value, NO_FORM_REACHED);
  const undeclared = copy(run);
  delete initialize(undeclared).params.capabilities.elicitation;
  assert.is(formAnsweredCell(undeclared).value, DECLARES_NO_FORM);
});

const PLAN: SessionPlan = {
  scenario: "refusals",
  capabilities: { elicitation: { form: {} } },
  listToolsFirst: false,
  callTimeoutMs: 5_000,
  calls: [{ label: "a", tool: "calculate", args: {}, callback: { answer: { action: "accept" } } }],
};

test("plans the frameworks' APIs cannot express are refused in one line with a source line", async () => {
  const { mastraRefusal } = await import("../lab/peers/mastra/client.js");
  assert.is(mastraRefusal(PLAN), undefined);
  assert.match(mastraRefusal({ ...PLAN, capabilities: { ...PLAN.capabilities, sampling: {} } }) ?? "", /^capabilities sampling: .*types\.d\.ts:102-108/);
  assert.match(mastraRefusal({ ...PLAN, calls: [{ ...PLAN.calls[0]!, callback: { nested: { method: "ping", timeoutMs: 500 }, answer: { action: "accept" } } }] }) ?? "", /^call a: a nested ping/);
  const giveUp: SessionPlan = { ...PLAN, calls: [{ ...PLAN.calls[0]!, giveUpAfterMs: 100 }] };
  for (const load of [() => import("../lab/peers/openai-agents/client.js").then((m) => m.OPENAI_AGENTS), () => import("../lab/peers/genkit/client.js").then((m) => m.GENKIT)]) {
    const framework = await load();
    assert.is(giveUpRefusal(PLAN, framework), undefined);
    const line = giveUpRefusal(giveUp, framework) ?? "";
    assert.match(line, /^call a gives up after 100 ms: .*\.(m?js):\d+/);
    assert.not.match(line, /\n/);
  }
});

test.run();
