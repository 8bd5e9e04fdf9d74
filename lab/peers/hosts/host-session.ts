// One host session: the host (an installed CLI) runs headless with a fresh HOME, pointed at the
// scripted model on 127.0.0.1 and at one MCP server, the lab's bridge to the session's recording
// transport (lab/peers/stdio-bridge.ts), so every frame between host and server is the lab's wire.
// The host runs in its own process group and is stopped by its own handle (its pid, as the group's
// id); the scripted model stops with the session. What it printed and what the model got is kept.
import { spawn } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { SCRATCH_DIR } from "../../scratch.js";
import type { ModelApi, ModelEvidence, ModelPlan } from "../../plan/model-plan.js";
import { openStdioBridge } from "../stdio-bridge.js";
import { hostDir } from "./install.js";
import { startModelServer } from "./model-server.js";

/** the MCP server's name in every host's config: its tools are `mcp__lab__<tool>` and the like */
export const SERVER_NAME = "lab";
/** how long a host may take, from its start to its exit (a first start unpacks caches: 1-11 s here) */
export const HOST_BOUND_MS = 90_000;
/** after SIGTERM to its group, how long before SIGKILL */
const KILL_GRACE_MS = 3_000;
/** kept of each of its output streams (the end) */
const KEEP_CHARS = 32 * 1024;

/** what a host's configuration is built from */
export interface HostContext {
  home: string;
  /** its working directory, inside home */
  work: string;
  /** the scripted model's `http://127.0.0.1:<port>` */
  modelUrl: string;
  /** the MCP server's command: the bridge */
  server: { command: string; args: string[] };
  tool: string;
  prompt: string;
}

export interface HostSpec {
  /** the peer's name, and its folder under lab/peers/hosts/ and build/hosts/ */
  name: string;
  /** its npm package */
  pkg: string;
  /** the host whose install it runs (claude-code-hook runs claude-code's); default its own */
  installOf?: string;
  /** its command, relative to its install (build/hosts/<name>), or an absolute path */
  bin: string;
  /** the model API it calls */
  api: ModelApi;
  /** writes its config files under ctx.home; the arguments and environment it runs with */
  launch(ctx: HostContext): { args: string[]; env: Record<string, string> };
}

export interface HostRun {
  host: string;
  args: string[];
  pid: number | null;
  exitCode: number | null;
  signal: string | null;
  /** its bound expired and the lab stopped its group */
  stoppedByLab: boolean;
  stdout: string;
  stderr: string;
  model: ModelEvidence;
}

/** The environment every host gets: nothing of this machine's but PATH, a fresh HOME and its dirs. */
export function freshEnv(home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    TMPDIR: join(home, "tmp"),
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
  };
}

/** The scripted model as every proxy: what a host tries to reach beyond loopback is refused there
 *  and recorded (a finding), never reached, and never left to hang on a timeout. */
export function proxyEnv(modelUrl: string): Record<string, string> {
  const loopback = "127.0.0.1,localhost,::1";
  return { HTTPS_PROXY: modelUrl, HTTP_PROXY: modelUrl, https_proxy: modelUrl, http_proxy: modelUrl, ALL_PROXY: modelUrl, NO_PROXY: loopback, no_proxy: loopback };
}

/** what a run tried to reach beyond loopback, from the model's refusals */
export const networkTries = (run: Pick<HostRun, "model">): string[] => run.model.exchanges.filter((e) => e.refusal?.startsWith("network:")).map((e) => e.path.split("?")[0]!);

/** the sites those tries were for, sorted: a name less its subdomains and port (which subdomain a
 *  host reached before it exited is timing; the site is its behaviour) */
export function networkSites(run: Pick<HostRun, "model">): string[] {
  const site = (target: string) => (/^(?:\w+:\/\/)?([^/:]+)/.exec(target)?.[1] ?? target).split(".").slice(-2).join(".");
  return [...new Set(networkTries(run).map(site))].sort();
}

const tail = (text: string) => (text.length > KEEP_CHARS ? text.slice(-KEEP_CHARS) : text);

/** Runs `spec` once: the model asks for `plan.tool`, the host calls it through the bridge. */
export async function runHost(spec: HostSpec, plan: ModelPlan, transport: Transport, prompt: string, boundMs = HOST_BOUND_MS): Promise<HostRun> {
  mkdirSync(SCRATCH_DIR, { recursive: true });
  const home = mkdtempSync(join(SCRATCH_DIR, `host-${spec.name}-`));
  const work = join(home, "work");
  for (const dir of [work, join(home, "tmp"), join(home, ".config"), join(home, ".cache")]) mkdirSync(dir, { recursive: true });
  const model = await startModelServer(plan, boundMs + KILL_GRACE_MS * 2);
  const bridge = await openStdioBridge(transport);
  let run: Omit<HostRun, "model"> | undefined;
  try {
    const { args, env } = spec.launch({ home, work, modelUrl: model.url, server: { command: bridge.command, args: bridge.args }, tool: plan.tool, prompt });
    run = await runGroup(spec.name, isAbsolute(spec.bin) ? spec.bin : join(hostDir(spec.installOf ?? spec.name), spec.bin), args, { ...freshEnv(home), ...proxyEnv(model.url), ...env }, work, boundMs);
  } finally {
    await bridge.close().catch(() => undefined);
    const evidence = await model.stop();
    rmSync(home, { recursive: true, force: true });
    if (run) return { ...run, model: evidence };
  }
  throw new Error("unreachable");
}

/** Spawns the host in a group of its own; waits for its exit within `boundMs`, else stops the group. */
async function runGroup(host: string, command: string, args: string[], env: Record<string, string>, cwd: string, boundMs: number): Promise<Omit<HostRun, "model">> {
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const pid = child.pid ?? null;
  if (pid !== null && process.env.LAB_CHILD_PID_LOG) appendFileSync(process.env.LAB_CHILD_PID_LOG, `${pid}\n`);
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout = tail(stdout + s)));
  child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr = tail(stderr + s)));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    child.once("error", (error) => resolve({ code: null, signal: `spawn failed: ${error.message}` }));
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  // its output streams end after its exit, unless something it left holds them: bounded below
  const drained = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const group = (signal: NodeJS.Signals) => {
    try {
      if (pid !== null) process.kill(-pid, signal);
    } catch {
      // the group is gone
    }
  };
  let stoppedByLab = false;
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<"bound">((resolve) => (timer = setTimeout(() => resolve("bound"), boundMs)));
  let end = await Promise.race([exited, bound]);
  clearTimeout(timer);
  if (end === "bound") {
    stoppedByLab = true;
    group("SIGTERM");
    const grace = new Promise<"bound">((resolve) => (timer = setTimeout(() => resolve("bound"), KILL_GRACE_MS)));
    end = await Promise.race([exited, grace]);
    clearTimeout(timer);
    if (end === "bound") {
      group("SIGKILL");
      end = await Promise.race([exited, new Promise<{ code: null; signal: string }>((resolve) => (timer = setTimeout(() => resolve({ code: null, signal: "SIGKILL sent, no exit seen" }), KILL_GRACE_MS)))]);
      clearTimeout(timer);
    }
  }
  // whatever the host left in its group (a helper it spawned) goes with it
  group("SIGKILL");
  await Promise.race([drained, new Promise<void>((resolve) => (timer = setTimeout(resolve, KILL_GRACE_MS)))]);
  clearTimeout(timer);
  return { host, args, pid, exitCode: end.code, signal: end.signal, stoppedByLab, stdout, stderr };
}
