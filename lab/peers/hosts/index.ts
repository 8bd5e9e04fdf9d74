// The hosts as client peers: each session runs the host headless (host-session.ts) with the
// scripted model asking for the scenario's first tool, and the host's MCP client talking to the
// session's server through the lab's bridge, so the wire, the server's probe and its verdict are
// the lab's as for any other peer. What the host printed and what the model got is kept per peer.
import type { ClientPeer, ServerPeer } from "../../plan/peer.js";
import type { ModelPlan } from "../../plan/model-plan.js";
import { FORM_CAPABILITY, type Scenario } from "../../plan/scenario.js";
import { CHILD_BUNDLE, ensureChildBuilt } from "../ts1/child-build.js";
import { buildProblem } from "../cached-build.js";
import { HOST_BOUND_MS, runHost, type HostRun, type HostSpec } from "./host-session.js";
import { hostBuild, hostLabel } from "./install.js";
import { HOST_SPECS } from "./specs.js";
import { ANSWERER_SPECS } from "./specs-answerers.js";

/** The host's session: the scripted model asks for probe_receive_loop once. The capabilities are
 *  the host's own: the scenario's are what the lab would ask of a client it drives, never sent. */
export const HOST_SCENARIO: Scenario = {
  name: "host-probe",
  summary: "the scripted model asks the host to call probe_receive_loop once",
  capabilities: FORM_CAPABILITY,
  listToolsFirst: false,
  calls: [{ label: "loop", tool: "probe_receive_loop", args: {} }],
};

/** For a host whose answerer accepted: the probe's fan-out, four forms at once; how many the
 *  answerer worked on at once is the probe's inference from when the replies came. */
export const HOST_FAN_OUT_SCENARIO: Scenario = {
  ...HOST_SCENARIO,
  name: "host-fan-out",
  summary: "the scripted model asks the host to call probe_fan_out once (four forms at once)",
  calls: [{ label: "fan-out", tool: "probe_fan_out", args: { n: 4 } }],
};

/** The lab's probe server as a fresh stdio child (node build/child-server.cjs, `serve`'s built form):
 *  one fresh child per host session, as `serve` gives it to any MCP client. */
export const HOST_SERVER: ServerPeer = {
  name: "serve",
  sdk: "@modelcontextprotocol/sdk (the lab's ts1 server with the probe tools)",
  meaning: "node build/child-server.cjs: calculate and the probe tools",
  unavailable: () => undefined,
  child: { prepare: ensureChildBuilt, writesEvents: false, command: () => ({ command: process.execPath, args: [CHILD_BUNDLE] }) },
};

const lastRuns = new Map<string, HostRun>();
/** the last run of host `name` in this process (its output and the model's evidence) */
export const lastHostRun = (name: string): HostRun | undefined => lastRuns.get(name);

/** The scripted model's plan for a scenario: its first call's tool and arguments. */
export function planFor(scenario: Scenario): ModelPlan {
  const call = scenario.calls.find((c) => c.tool !== undefined);
  if (!call?.tool) throw new Error(`scenario ${scenario.name} calls no tool: a host needs one to call`);
  return { tool: call.tool, arguments: (call.args ?? {}) as Record<string, unknown>, final: "The tool has answered; nothing more to do.", plain: "lab probe" };
}

/** One line for a run that did not call the tool, or undefined when it did. */
export function notCalled(run: HostRun): string | undefined {
  if (run.model.exchanges.some((e) => e.phase === "tool-call")) return undefined;
  const refusals = run.model.exchanges.filter((e) => e.phase === "refused");
  const refused = refusals.find((e) => !e.refusal?.startsWith("network:")) ?? refusals[0];
  if (refused) return `the scripted model refused ${refused.method} ${refused.path}: ${refused.refusal}`;
  if (run.stoppedByLab) return `it did not call the tool within its bound (${HOST_BOUND_MS / 1000} s)`;
  if (run.model.exchanges.length === 0) return `it exited (${run.exitCode ?? run.signal}) without asking the model: ${lastLine(run.stderr) ?? lastLine(run.stdout) ?? "no output"}`;
  return `the model was asked ${run.model.exchanges.length} times and no request offered the tool: ${lastLine(run.stderr) ?? "no output"}`;
}
const lastLine = (text: string) => text.trim().split("\n").filter(Boolean).at(-1)?.slice(0, 200);

export function hostPeer(spec: HostSpec): ClientPeer {
  const build = hostBuild(spec.installOf ?? spec.name, spec.pkg);
  return {
    name: spec.name,
    sdk: hostLabel(spec.installOf ?? spec.name, spec.pkg),
    loops: ["sdk"],
    meaning: `the ${spec.pkg} host as installed, run headless in a fresh HOME with the lab's scripted model (${spec.api} API on 127.0.0.1) asking for the tool, the lab's bridge its one MCP server`,
    era: "auto",
    unavailable: () => buildProblem(build),
    driver: {
      kind: "in-process",
      run: async (scenario, transport, recorder) => {
        const plan = planFor(scenario);
        recorder.event("client", "call.started", { detail: { call: scenario.calls[0]?.label ?? plan.tool, host: spec.name } });
        const run = await runHost(spec, plan, transport, `Call the tool ${plan.tool} once, then say that you are done.`);
        lastRuns.set(spec.name, run);
        const phases = run.model.exchanges.map((e) => `${e.api ?? e.path}:${e.phase}`);
        recorder.event("client", "note", { detail: { host: spec.name, exitCode: run.exitCode, signal: run.signal, stoppedByLab: run.stoppedByLab, model: phases } });
        const why = notCalled(run);
        if (why) throw new Error(`${spec.name}: ${why}`);
      },
    },
  };
}

/** every host as a client peer: each install, then those that run another's install */
export const HOST_PEERS: readonly ClientPeer[] = [...HOST_SPECS, ...ANSWERER_SPECS].map(hostPeer);
