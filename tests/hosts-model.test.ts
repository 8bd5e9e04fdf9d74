// The scripted model against a plain HTTP client (node fetch) on loopback, in each API's shape:
// the tool call first, the final text once the conversation holds the tool's result, plain text
// for a request with no tools, a refused path, and the server gone once stopped or bounded.
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { ModelApi, ModelPlan } from "../lab/plan/model-plan.js";
import { startModelServer } from "../lab/peers/hosts/model-server.js";
import { isListening } from "../lab/transports/listening.js";
import { networkSites, networkTries } from "../lab/peers/hosts/host-session.js";
import { request } from "node:http";

const PLAN: ModelPlan = { tool: "probe_receive_loop", arguments: { pings: 3 }, final: "all done", plain: "a title" };
const SCHEMA = { type: "object", properties: {} };

/** per API: its path, a request offering the tools, the same once the tool's result is in, one with none */
interface Shape {
  path: string;
  offer: Record<string, unknown>;
  withResult: Record<string, unknown>;
  none: Record<string, unknown>;
  /** the tool call read back from the streamed body: [name, arguments, namespace] */
  call(events: unknown[]): [string, unknown, string?];
  /** the text read back from the streamed body */
  text(events: unknown[]): string;
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the replies are read back loosely
type J = any;
const SHAPES: Record<ModelApi, Shape> = {
  chat: {
    path: "/v1/chat/completions",
    offer: { model: "m", stream: true, messages: [{ role: "user", content: "go" }], tools: [{ type: "function", function: { name: "probe_probe_receive_loop", parameters: SCHEMA } }] },
    withResult: { model: "m", stream: true, messages: [{ role: "user", content: "go" }, { role: "tool", tool_call_id: "c", content: "ok" }], tools: [{ type: "function", function: { name: "probe_probe_receive_loop" } }] },
    none: { model: "m", stream: true, messages: [{ role: "user", content: "title?" }] },
    call: (ev) => {
      const f = (ev as J[])[0].choices[0].delta.tool_calls[0].function;
      return [f.name, JSON.parse(f.arguments)];
    },
    text: (ev) => (ev as J[])[0].choices[0].delta.content,
  },
  responses: {
    path: "/v1/responses",
    offer: { model: "m", stream: true, input: [{ type: "message", role: "user", content: [] }], tools: [{ type: "function", name: "shell" }, { type: "namespace", name: "mcp__probe", tools: [{ type: "function", name: "probe_receive_loop" }] }] },
    withResult: { model: "m", stream: true, input: [{ type: "function_call_output", call_id: "c", output: "ok" }], tools: [{ type: "namespace", name: "mcp__probe", tools: [{ type: "function", name: "probe_receive_loop" }] }] },
    none: { model: "m", stream: true, input: [{ type: "message", role: "user", content: [] }], tools: [] },
    call: (ev) => {
      const item = (ev as J[]).find((e) => e.type === "response.output_item.done").item;
      return [item.name, JSON.parse(item.arguments), item.namespace];
    },
    text: (ev) => (ev as J[]).find((e) => e.type === "response.completed").response.output[0].content[0].text,
  },
  messages: {
    path: "/v1/messages?beta=true",
    offer: { model: "m", stream: true, messages: [{ role: "user", content: "go" }], tools: [{ name: "mcp__probe__probe_receive_loop", input_schema: SCHEMA }] },
    withResult: { model: "m", stream: true, messages: [{ role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: "ok" }] }], tools: [{ name: "mcp__probe__probe_receive_loop" }] },
    none: { model: "m", stream: true, messages: [{ role: "user", content: "title?" }] },
    call: (ev) => {
      const start = (ev as J[]).find((e) => e.type === "content_block_start").content_block;
      return [start.name, JSON.parse((ev as J[]).find((e) => e.type === "content_block_delta").delta.partial_json)];
    },
    text: (ev) => (ev as J[]).find((e) => e.type === "content_block_delta").delta.text,
  },
  gemini: {
    path: "/v1beta/models/gemini-x:streamGenerateContent?alt=sse",
    offer: { contents: [{ role: "user", parts: [{ text: "go" }] }], tools: [{ functionDeclarations: [{ name: "probe_receive_loop" }] }] },
    withResult: { contents: [{ role: "user", parts: [{ functionResponse: { name: "probe_receive_loop", response: {} } }] }], tools: [{ functionDeclarations: [{ name: "probe_receive_loop" }] }] },
    none: { contents: [{ role: "user", parts: [{ text: "title?" }] }] },
    call: (ev) => {
      const f = (ev as J[])[0].candidates[0].content.parts[0].functionCall;
      return [f.name, f.args];
    },
    text: (ev) => (ev as J[])[0].candidates[0].content.parts[0].text,
  },
};

/** POSTs and reads the server-sent events back as JSON (the `[DONE]` mark dropped) */
async function post(url: string, body: unknown): Promise<{ status: number; type: string; events: unknown[] }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  const events = text.split("\n").filter((l) => l.startsWith("data: ") && l !== "data: [DONE]").map((l) => JSON.parse(l.slice(6)));
  return { status: res.status, type: res.headers.get("content-type") ?? "", events };
}

for (const [api, shape] of Object.entries(SHAPES) as [ModelApi, Shape][]) {
  test(`${api}: the tool call first, the final text after its result, plain text with no tools`, async () => {
    const model = await startModelServer(PLAN, 20_000);
    try {
      const first = await post(model.url + shape.path, shape.offer);
      assert.equal([first.status, first.type], [200, "text/event-stream"]);
      const [name, args, namespace] = shape.call(first.events);
      assert.ok(name.endsWith(PLAN.tool), `the call names the plan's tool: ${name}`);
      assert.equal(args, PLAN.arguments);
      if (api === "responses") assert.equal([name, namespace], [PLAN.tool, "mcp__probe"], "codex's MCP tool is called in its namespace");
      assert.equal(shape.text((await post(model.url + shape.path, shape.withResult)).events), PLAN.final);
      assert.equal(shape.text((await post(model.url + shape.path, shape.none)).events), PLAN.plain);
      const { exchanges } = await model.stop();
      assert.equal(exchanges.map((e) => [e.seq, e.api, e.phase, e.status, e.streamed]), [[1, api, "tool-call", 200, true], [2, api, "final", 200, true], [3, api, "plain", 200, true]]);
      assert.equal(exchanges[0]!.request, shape.offer, "the request is recorded as it came");
      assert.ok(exchanges.every((e) => e.remote === "127.0.0.1"), "only loopback reaches it");
      assert.ok(exchanges[0]!.answer.includes("probe_receive_loop"), "the answer is recorded as sent");
    } finally {
      await model.stop();
    }
  });
}

test("a path no API answers, a body that is not JSON, a missing tool: refused with the reason, and recorded", async () => {
  const model = await startModelServer(PLAN, 20_000);
  try {
    const other = await fetch(model.url + "/v1/models", { signal: AbortSignal.timeout(10_000) });
    assert.equal(other.status, 404);
    assert.match((await other.json()).error.message, /scripted model: no such API: GET \/v1\/models/);
    const notJson = await fetch(model.url + "/v1/chat/completions", { method: "POST", body: "hello", signal: AbortSignal.timeout(10_000) });
    assert.equal(notJson.status, 400);
    const missing = await post(model.url + "/v1/messages", { ...SHAPES.messages.offer, tools: [{ name: "Bash" }] });
    assert.equal(missing.status, 400);
    const { exchanges } = await model.stop();
    assert.equal(exchanges.map((e) => [e.phase, e.status]), [["refused", 404], ["refused", 400], ["refused", 400]]);
    assert.equal(exchanges[1]!.request, "hello");
    assert.match(exchanges[2]!.refusal!, /probe_receive_loop is not among the 1 tools offered \(Bash\)/);
  } finally {
    await model.stop();
  }
});

test("as a proxy: a CONNECT or an absolute URL elsewhere is refused at once and recorded as a network attempt", async () => {
  const model = await startModelServer(PLAN, 20_000);
  try {
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port: model.port, method: "CONNECT", path: "example.org:443", timeout: 10_000 });
      req.on("connect", (res, socket) => (socket.destroy(), resolve(res.statusCode)));
      req.on("error", reject);
      req.on("timeout", () => req.destroy(new Error("no answer to CONNECT")));
      req.end();
    });
    assert.equal(status, 403);
    const plain = await new Promise<number | undefined>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port: model.port, method: "GET", path: "http://example.org/x?y=1", timeout: 10_000 }, (res) => (res.resume(), resolve(res.statusCode)));
      req.on("error", reject);
      req.end();
    });
    assert.equal(plain, 403);
    const { exchanges } = await model.stop();
    assert.equal(exchanges.map((e) => [e.method, e.phase, e.status]), [["CONNECT", "refused", 403], ["GET", "refused", 403]]);
    assert.equal(networkTries({ model: { plan: PLAN, port: 0, exchanges } }), ["example.org:443", "http://example.org/x"]);
    assert.equal(networkSites({ model: { plan: PLAN, port: 0, exchanges } }), ["example.org"]);
    // which subdomain a host reached before it exited is timing: the sites, sorted, are what it tried
    const subdomains = ["api.github.com:443", "ab.chatgpt.com:443", "github.com:443"].map((path) => ({ ...exchanges[0]!, path }));
    assert.equal(networkSites({ model: { plan: PLAN, port: 0, exchanges: subdomains } }), ["chatgpt.com", "github.com"]);
  } finally {
    await model.stop();
  }
});

test("the non-streamed shape when a request does not ask for a stream", async () => {
  const model = await startModelServer(PLAN, 20_000);
  try {
    const res = await fetch(model.url + "/v1/chat/completions", { method: "POST", body: JSON.stringify({ ...SHAPES.chat.offer, stream: false }), signal: AbortSignal.timeout(10_000) });
    assert.equal(res.headers.get("content-type"), "application/json");
    const body = (await res.json()) as J;
    assert.equal(body.choices[0].finish_reason, "tool_calls");
    assert.equal(JSON.parse(body.choices[0].message.tool_calls[0].function.arguments), PLAN.arguments);
  } finally {
    await model.stop();
  }
});

test("it binds 127.0.0.1 only, stops by its handle, and stops itself when its bound expires", async () => {
  const model = await startModelServer(PLAN, 20_000);
  assert.ok(isListening(model.port));
  assert.equal((await model.stop()).stoppedBy, "stop");
  assert.not.ok(isListening(model.port), "stopped: the port is released");
  const bounded = await startModelServer(PLAN, 50);
  // the bound ends it; the test's own limit only guards against a bound that never fires
  let give: NodeJS.Timeout | undefined;
  const evidence = await Promise.race([bounded.ended, new Promise<never>((_, reject) => (give = setTimeout(() => reject(new Error("the bound did not stop the server")), 10_000)))]);
  clearTimeout(give);
  assert.equal(evidence.stoppedBy, "bound");
  assert.equal((await bounded.stop()).stoppedBy, "bound", "a later stop keeps what ended it");
  assert.not.ok(isListening(bounded.port));
});

test.run();
