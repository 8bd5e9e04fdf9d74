// The claude-agent-sdk host's driver: a process of its own (host-session.ts runs it in its own
// group, fresh HOME) that calls the installed SDK's query() with the lab's onElicitation callback
// (sdk.d.ts: `onElicitation?: OnElicitation`). The callback thinks, then tries the one nested
// request the SDK's Query offers towards an MCP server (readMcpResource: resources/read, ui://
// only; there is no tools/list), bounded, then answers by the plan (answer.ts). It prints one
// JSON line per thing it saw on stdout: the lab reads them back from the host's run.
// usage: node --import tsx agent-sdk-driver.ts <config.json>
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { formAnswer, THINK_MS } from "./answer.js";
import { bounded, runDriver, say, sleep } from "./driver-io.js";

/** what the spec writes for the driver (specs-answerers.ts) */
export interface AgentSdkConfig {
  install: string;
  prompt: string;
  server: { name: string; command: string; args: string[] };
  tool: string;
  nestedBoundMs: number;
}

interface ElicitationRequest {
  serverName: string;
  message: string;
  mode?: "form" | "url";
  requestedSchema?: Record<string, unknown>;
}
/** the part of the SDK's Query the driver uses (sdk.d.ts `interface Query`) */
interface Query extends AsyncIterable<Record<string, unknown>> {
  readMcpResource(serverName: string, uri: string): Promise<unknown>;
  close(): void;
}
type QueryFn = (p: { prompt: string; options: Record<string, unknown> }) => Query;

async function main(file: string): Promise<void> {
  const config = JSON.parse(readFileSync(file, "utf8")) as AgentSdkConfig;
  const sdk = (await import(pathToFileURL(join(config.install, "node_modules", "@anthropic-ai", "claude-agent-sdk", "sdk.mjs")).href)) as { query: QueryFn };
  let forms = 0;
  const q: Query = sdk.query({
    prompt: config.prompt,
    options: {
      mcpServers: { [config.server.name]: { type: "stdio", command: config.server.command, args: config.server.args } },
      strictMcpConfig: true,
      settingSources: [],
      allowedTools: [`mcp__${config.server.name}__${config.tool}`],
      cwd: process.cwd(),
      stderr: (data: string) => process.stderr.write(data),
      onElicitation: async (request: ElicitationRequest) => {
        const n = ++forms;
        say("form", { n, mode: request.mode ?? "form", server: request.serverName, message: request.message });
        await sleep(THINK_MS);
        // a ui:// resource the server does not have: what matters is whether resources/read
        // reaches the server and its reply comes back while this form is open
        say("nested.sent", { n, method: "resources/read" });
        const nested = await bounded(q.readMcpResource(request.serverName, "ui://lab/nested-probe"), config.nestedBoundMs);
        say("ok" in nested ? "nested.ok" : "nested.failed", { n, ...("failed" in nested ? { why: nested.failed } : { reply: nested.ok }) });
        const answer = formAnswer(request);
        say("answer", { n, ...answer });
        return answer;
      },
    },
  });
  for await (const message of q) {
    if (message.type === "result") say("result", { subtype: message.subtype, is_error: message.is_error, result: message.result });
  }
}

runDriver("claude-agent-sdk driver", () => main(process.argv[2] ?? ""));
