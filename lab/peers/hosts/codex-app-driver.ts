// The codex-app host's driver: a process of its own (host-session.ts runs it in the host's own
// group) that spawns `codex app-server` and is its JSON-RPC client over stdio (one JSON object a
// line), with the method names `codex app-server generate-json-schema` prints: initialize,
// thread/start, turn/start, then mcpServer/elicitation/request answered by the lab's answerer,
// until turn/completed. The answerer thinks, asks the host for mcpServerStatus/list of the
// server that asked (bounded; its "full" detail may list the server's tools), then answers by the
// plan (answer.ts). One JSON line per thing it saw on stdout.
// usage: node --import tsx codex-app-driver.ts <config.json>
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { formAnswer, THINK_MS } from "./answer.js";
import { bounded, runDriver, say, sleep } from "./driver-io.js";

/** what the spec writes for the driver (specs-answerers.ts) */
export interface CodexAppConfig {
  codex: string;
  prompt: string;
  server: string;
  cwd: string;
  nestedBoundMs: number;
  /** the whole turn's bound */
  boundMs: number;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});

async function main(file: string): Promise<void> {
  const config = JSON.parse(readFileSync(file, "utf8")) as CodexAppConfig;
  // its stderr is the driver's: the host's run keeps it
  const codex = spawn(config.codex, ["app-server"], { stdio: ["pipe", "pipe", "inherit"] });
  const pending = new Map<number, (message: Json) => void>();
  let nextId = 1;
  const send = (message: Json) => codex.stdin.write(`${JSON.stringify(message)}\n`);
  const request = (method: string, params: Json): Promise<Json> => {
    const id = nextId++;
    send({ id, method, params });
    return new Promise((resolve) => pending.set(id, resolve));
  };
  let finish: (why: string) => void = () => undefined;
  const done = new Promise<string>((resolve) => (finish = resolve));
  let forms = 0;

  const answerForm = async (id: unknown, params: Json) => {
    const n = ++forms;
    say("form", { n, mode: params.mode, server: params.serverName, message: params.message });
    await sleep(THINK_MS);
    say("nested.sent", { n, method: "mcpServerStatus/list" });
    const nested = await bounded(request("mcpServerStatus/list", { serverName: params.serverName, threadId: params.threadId, detail: "full" }), config.nestedBoundMs);
    const reply = "ok" in nested ? nested.ok : { error: { message: nested.failed } };
    if (reply.error) say("nested.failed", { n, why: obj(reply.error).message });
    else say("nested.ok", { n, names: JSON.stringify(reply.result).match(/"name":"[^"]+"/g)?.length ?? 0 });
    const answer = formAnswer({ mode: String(params.mode), requestedSchema: params.requestedSchema });
    say("answer", { n, ...answer });
    send({ id, result: answer });
  };

  createInterface({ input: codex.stdout }).on("line", (line) => {
    let message: Json;
    try {
      message = JSON.parse(line) as Json;
    } catch {
      return say("not-json", { line: line.slice(0, 200) });
    }
    const method = typeof message.method === "string" ? message.method : undefined;
    if (method === undefined) return pending.get(message.id as number)?.(message);
    if (message.id === undefined) {
      if (method === "turn/completed") finish("turn/completed");
      if (method === "error") say("error", { params: message.params });
      return;
    }
    // a request from the host: the form is the lab's to answer; nothing else is expected
    if (method === "mcpServer/elicitation/request") return void answerForm(message.id, obj(message.params));
    say("refused", { method });
    send({ id: message.id, error: { code: -32601, message: `the lab's driver does not answer ${method}` } });
  });
  codex.once("exit", (code, signal) => finish(`codex app-server exited (${code ?? signal})`));

  const init = await request("initialize", { clientInfo: { name: "mcp-reentrancy-lab", version: "1" } });
  if (init.error) throw new Error(`initialize: ${JSON.stringify(init.error)}`);
  send({ method: "initialized" });
  // on-request: an MCP form goes to the client (granular approvals with it off reject at once)
  const thread = await request("thread/start", { cwd: config.cwd, approvalPolicy: "on-request" });
  const threadId = String(obj(obj(obj(thread.result).thread)).id ?? "");
  if (!threadId) throw new Error(`thread/start: ${JSON.stringify(thread.error ?? thread.result)}`);
  const turn = await request("turn/start", { threadId, input: [{ type: "text", text: config.prompt }] });
  if (turn.error) throw new Error(`turn/start: ${JSON.stringify(turn.error)}`);
  const ended = await bounded(done, config.boundMs);
  say("result", { ended: "ok" in ended ? ended.ok : ended.failed });
  codex.stdin.end();
  codex.kill("SIGTERM");
}

runDriver("codex-app driver", () => main(process.argv[2] ?? ""));
