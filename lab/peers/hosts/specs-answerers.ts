// The hosts whose forms the lab answers: claude-agent-sdk (query() with onElicitation, in a driver
// process of the lab's), claude-code-hook (`claude -p` with an Elicitation hook the lab provides)
// and codex-app (`codex app-server`, the lab's driver its JSON-RPC client). Each answers by the
// plan (answer.ts). A driver is a node process in the host's own group, so it goes with the host.
import { join } from "node:path";
import { HOST_BOUND_MS, SERVER_NAME, type HostContext, type HostSpec } from "./host-session.js";
import { CLAUDE_CODE, CODEX, claudeArgs, claudeEnv, codexEnv, json, NESTED_BOUND_MS, tsxCommand } from "./specs.js";
import { hostDir } from "./install.js";
import type { CodexAppConfig } from "./codex-app-driver.js";

/** `claude -p` with an Elicitation hook (elicitation-hook.ts) for the lab's server, in --settings. */
export const CLAUDE_CODE_HOOK: HostSpec = {
  ...CLAUDE_CODE,
  name: "claude-code-hook",
  installOf: CLAUDE_CODE.name,
  launch(ctx: HostContext) {
    const settings = join(ctx.home, "hook-settings.json");
    // a shell command line: each part quoted (the paths are the lab's and the machine's)
    const command = tsxCommand("elicitation-hook.ts").map((part) => `'${part.replace(/'/g, "'\\''")}'`).join(" ");
    json(settings, { hooks: { Elicitation: [{ matcher: SERVER_NAME, hooks: [{ type: "command", command, timeout: 30 }] }] } });
    return { args: [...claudeArgs(ctx), "--settings", settings], env: claudeEnv(ctx.modelUrl) };
  },
};

/** `codex app-server` with the lab's driver as its client (codex-app-driver.ts), codex's config.toml. */
export const CODEX_APP: HostSpec = {
  ...CODEX,
  name: "codex-app",
  installOf: CODEX.name,
  bin: process.execPath,
  launch(ctx: HostContext) {
    const config: CodexAppConfig = {
      codex: join(hostDir(CODEX.name), CODEX.bin),
      prompt: ctx.prompt,
      server: SERVER_NAME,
      cwd: ctx.work,
      nestedBoundMs: NESTED_BOUND_MS,
      // the driver ends its turn a little before the lab would stop its group
      boundMs: HOST_BOUND_MS - 5_000,
    };
    const file = join(ctx.home, "driver.json");
    json(file, config);
    return { args: tsxCommand("codex-app-driver.ts", file).slice(1), env: codexEnv(ctx) };
  },
};

/** the hosts with an answerer, in the order `hosts` runs them */
export const ANSWERER_SPECS: readonly HostSpec[] = [CLAUDE_CODE_HOOK, CODEX_APP];
