// How each host is run headless against the scripted model and the lab's one MCP server: its
// config files in a fresh HOME, its arguments and environment. Every setting that could reach the
// network is off; the model's base URL is 127.0.0.1. Each line says what it is for.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { PROJECT_ROOT } from "../../paths.js";
import type { AgentSdkConfig } from "./agent-sdk-driver.js";
import { SERVER_NAME, type HostContext, type HostSpec } from "./host-session.js";
import { hostDir } from "./install.js";

export const json = (file: string, value: unknown) => writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
/** TOML's basic string is JSON's string for what the lab writes (paths, URLs, words) */
const toml = (value: string) => JSON.stringify(value);

/** `claude -p`: Messages API with stream:true; its headless default answers a form itself. */
export const CLAUDE_CODE: HostSpec = {
  name: "claude-code",
  pkg: "@anthropic-ai/claude-code",
  bin: "node_modules/.bin/claude",
  api: "messages",
  launch: (ctx: HostContext) => ({ args: claudeArgs(ctx), env: claudeEnv(ctx.modelUrl) }),
};

/** `claude -p` with the lab's server as its only MCP server and its tool allowed unasked. */
export function claudeArgs(ctx: HostContext): string[] {
  const config = join(ctx.home, "mcp.json");
  json(config, { mcpServers: { [SERVER_NAME]: { type: "stdio", command: ctx.server.command, args: ctx.server.args } } });
  return ["-p", ctx.prompt, "--mcp-config", config, "--strict-mcp-config", "--allowedTools", `mcp__${SERVER_NAME}__${ctx.tool}`, "--output-format", "stream-json", "--verbose"];
}

/** Claude Code's environment (the CLI, its hook variant, and the one the agent SDK spawns). */
export const claudeEnv = (modelUrl: string): Record<string, string> => ({
  ANTHROPIC_BASE_URL: modelUrl,
  // a key must be set; the scripted model reads none
  ANTHROPIC_API_KEY: "lab-scripted-model-no-key",
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  DISABLE_AUTOUPDATER: "1",
  DISABLE_TELEMETRY: "1",
  DISABLE_ERROR_REPORTING: "1",
  // else MCP tools hide behind a tool-search tool and the model is offered that instead
  ENABLE_TOOL_SEARCH: "false",
});

/** `codex exec`: Responses API over SSE; MCP tools arrive as the namespace tool `mcp__lab`. */
export const CODEX: HostSpec = {
  name: "codex",
  pkg: "@openai/codex",
  bin: "node_modules/.bin/codex",
  api: "responses",
  launch: (ctx: HostContext) => ({ args: ["exec", "--skip-git-repo-check", "--color", "never", ctx.prompt], env: codexEnv(ctx) }),
};

/** Writes CODEX_HOME/config.toml (the scripted model its provider, the lab's server its one MCP
 *  server, its tools approved) for `codex exec` and `codex app-server`; the environment to run with. */
export function codexEnv(ctx: HostContext): Record<string, string> {
  const codexHome = join(ctx.home, ".codex");
  const lines = [
    `model = "scripted"`,
    `model_provider = "lab"`,
    `[model_providers.lab]`,
    `name = "lab scripted model"`,
    `base_url = ${toml(`${ctx.modelUrl}/v1`)}`,
    `wire_api = "responses"`,
    `env_key = "LAB_SCRIPTED_MODEL_KEY"`,
    // one request per turn: a retry would be a second exchange the plan did not ask for
    `request_max_retries = 0`,
    `stream_max_retries = 0`,
    `[mcp_servers.${SERVER_NAME}]`,
    `command = ${toml(ctx.server.command)}`,
    `args = [${ctx.server.args.map(toml).join(", ")}]`,
    `default_tools_approval_mode = "approve"`,
    // codex gives an MCP server 10 s to start unless told (its "timed out after 10 seconds. Add or adjust
    // startup_timeout_sec" warning), and then goes on without its tools: a loaded machine is not the host's behaviour
    `startup_timeout_sec = 60`,
    // and an optional server not started within 1 s is left out of the first turn's tools, silently (the shared
    // optional-server grace since codex 0.147.0: openai/codex codex-rs/codex-mcp/src/connection_manager/tool_catalog.rs,
    // described in openai/codex #38689); a required one is waited for up to its startup_timeout_sec, and a run
    // whose server cannot start fails instead. Seen under load: the model was offered no probe tool at all
    `required = true`,
  ];
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(join(codexHome, "config.toml"), `${lines.join("\n")}\n`);
  return { CODEX_HOME: codexHome, LAB_SCRIPTED_MODEL_KEY: "no-key" };
}

/** `opencode run`: an OpenAI-compatible provider (Chat Completions); its MCP server a local one. */
export const OPENCODE: HostSpec = {
  name: "opencode",
  pkg: "opencode-ai",
  bin: "node_modules/.bin/opencode",
  api: "chat",
  launch(ctx: HostContext) {
    const config = join(ctx.home, "opencode.json");
    json(config, {
      provider: { lab: { npm: "@ai-sdk/openai-compatible", name: "lab scripted model", options: { baseURL: `${ctx.modelUrl}/v1`, apiKey: "no-key" }, models: { scripted: { name: "scripted" } } } },
      model: "lab/scripted",
      small_model: "lab/scripted",
      mcp: { [SERVER_NAME]: { type: "local", command: [ctx.server.command, ...ctx.server.args], enabled: true } },
      permission: { "*": "allow" },
      autoupdate: false,
      share: "disabled",
    });
    const env = { OPENCODE_CONFIG: config, OPENCODE_DISABLE_MODELS_FETCH: "1", OPENCODE_DISABLE_AUTOUPDATE: "1", OPENCODE_DISABLE_LSP_DOWNLOAD: "1", OPENCODE_DISABLE_SHARE: "1" };
    return { args: ["run", "--model", "lab/scripted", ctx.prompt], env };
  },
};

/** Qwen Code is a fork of Gemini CLI: one settings.json shape in ~/<dir>/, the lab's server
 *  trusted (its tools run unasked), telemetry, usage statistics and updates off. */
function geminiStyleSettings(ctx: HostContext, dir: string, own: Record<string, unknown>): void {
  mkdirSync(join(ctx.home, dir), { recursive: true });
  json(join(ctx.home, dir, "settings.json"), {
    mcpServers: { [SERVER_NAME]: { command: ctx.server.command, args: ctx.server.args, trust: true } },
    telemetry: { enabled: false },
    privacy: { usageStatisticsEnabled: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
    ...own,
  });
}

/** `qwen -p`: OpenAI auth (Chat Completions) at the scripted model; the lab's server trusted. */
export const QWEN_CODE: HostSpec = {
  name: "qwen-code",
  pkg: "@qwen-code/qwen-code",
  bin: "node_modules/.bin/qwen",
  api: "chat",
  launch(ctx: HostContext) {
    geminiStyleSettings(ctx, ".qwen", { tools: { toolSearch: { enabled: false } } });
    const env = { OPENAI_BASE_URL: `${ctx.modelUrl}/v1`, OPENAI_API_KEY: "no-key", OPENAI_MODEL: "scripted" };
    return { args: ["-p", ctx.prompt, "--auth-type", "openai", "--model", "scripted", "--yolo"], env };
  },
};

/** `gemini -p`: generateContent streamed over SSE at GOOGLE_GEMINI_BASE_URL; the server trusted. */
export const GEMINI_CLI: HostSpec = {
  name: "gemini-cli",
  pkg: "@google/gemini-cli",
  bin: "node_modules/.bin/gemini",
  api: "gemini",
  launch(ctx: HostContext) {
    geminiStyleSettings(ctx, ".gemini", { security: { auth: { selectedType: "gemini-api-key" } } });
    const env = { GOOGLE_GEMINI_BASE_URL: ctx.modelUrl, GEMINI_API_KEY: "no-key" };
    // a fresh HOME trusts no folder: headless, gemini exits 55 unless told to skip the check
    // a model named: with none, "auto" first asks a router model for a JSON score, which plain text fails
    return { args: ["-p", ctx.prompt, "--yolo", "--skip-trust", "--model", "gemini-2.5-flash"], env };
  },
};

// the root's tsx by file URL: the --import must not depend on the host's working folder
const TSX = pathToFileURL(join(PROJECT_ROOT, "node_modules", "tsx", "dist", "loader.mjs")).href;
/** node running one of the lab's TypeScript files in this folder: [node, --import, tsx, file, ...args] */
export const tsxCommand = (file: string, ...args: string[]): string[] => [process.execPath, "--import", TSX, join(PROJECT_ROOT, "lab", "peers", "hosts", file), ...args];
/** how long the callback's nested request may wait (the form stays open meanwhile) */
export const NESTED_BOUND_MS = 5_000;

/** @anthropic-ai/claude-agent-sdk query() with the lab's onElicitation (agent-sdk-driver.ts). */
export const CLAUDE_AGENT_SDK: HostSpec = {
  name: "claude-agent-sdk",
  pkg: "@anthropic-ai/claude-agent-sdk",
  bin: process.execPath,
  api: "messages",
  launch(ctx: HostContext) {
    const config: AgentSdkConfig = {
      install: hostDir("claude-agent-sdk"),
      prompt: ctx.prompt,
      server: { name: SERVER_NAME, ...ctx.server },
      tool: ctx.tool,
      nestedBoundMs: NESTED_BOUND_MS,
    };
    const file = join(ctx.home, "driver.json");
    json(file, config);
    return { args: tsxCommand("agent-sdk-driver.ts", file).slice(1), env: claudeEnv(ctx.modelUrl) };
  },
};

/** every host install (build/hosts/<name>): claude-code-hook and codex-app run claude-code's and codex's */
export const HOST_SPECS: readonly HostSpec[] = [CLAUDE_CODE, CODEX, OPENCODE, QWEN_CODE, GEMINI_CLI, CLAUDE_AGENT_SDK];
