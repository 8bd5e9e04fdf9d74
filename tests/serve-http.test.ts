// `serve --http`: Streamable HTTP on 127.0.0.1 that an MCP client (the SDK's own) can use, a
// foreign Origin or Host refused with 403 by the SDK's DNS-rebinding protection, and SIGINT
// (sent to the server by its own pid) closing it cleanly: exit 0, the port released.
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { request } from "node:http";
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CHILD_BUNDLE, ensureChildBuilt } from "../lab/peers/ts1/child-build.js";
import { withBound } from "../lab/plan/bounds.js";

const INIT = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "0" } } });

function post(port: number, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: "/mcp", method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end(INIT);
  });
}

test("serve --http: 403 to a foreign Origin and Host, a real client lists the tools, SIGINT ends it with exit 0", async () => {
  await ensureChildBuilt();
  const child = spawn(process.execPath, [CHILD_BUNDLE, "--http"], { stdio: ["pipe", "pipe", "pipe"] });
  try {
    const first = await withBound(new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once("line", resolve)), 10_000, "the port line");
    const { port } = JSON.parse(first) as { port: number };
    assert.is(await post(port, { origin: "http://evil.example" }), 403);
    assert.is(await post(port, { host: "evil.example" }), 403);
    const client = new Client({ name: "serve-http-test", version: "0.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
    const tools = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(tools.includes("probe_receive_loop") && tools.includes("calculate"), tools.join(", "));
    await client.close();
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGINT");
    assert.is(await withBound(exited, 10_000, "the server's exit after SIGINT"), 0);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
});

test.run();
