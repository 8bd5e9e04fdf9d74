// A Python program of a peer, run by its venv's own interpreter, forked from that venv's warm host
// (lab/peers/python/host.py, lab/transports/hosts.md) unless LAB_FRESH=1; and a Python client peer from it.
import { join } from "node:path";
import { LAB_DIR } from "../../paths.js";
import type { ChildCommand, ClientPeer, ServerPeer } from "../../plan/peer.js";
import type { PythonEnv } from "./envs.js";
import { envProblem } from "./setup.js";

/** lab/peers/<path>, by `env`'s interpreter. -B: every program imports lab/peers/python/'s modules (and
 *  its own folder's); write no __pycache__ into the source tree. `env` is the host's own environment, set when
 *  it starts (a host per command, arguments and environment). */
export function pythonProgram(env: PythonEnv, path: string, args: readonly string[] = [], vars?: Record<string, string>): ChildCommand {
  return { command: env.python, args: ["-B", join(LAB_DIR, "peers", path), ...args], ...(vars && { env: vars }), fork: "python" };
}

export const unavailableWithout = (env: PythonEnv) => (): string | undefined => envProblem(env);

/** A client peer whose driver is lab/peers/<script> (an adapter of lab_driver.py) in `env`, with its own flags and
 *  environment (set before anything is imported: its warm host's too). */
export function pythonClient(peer: Omit<ClientPeer, "driver" | "unavailable" | "loops">, env: PythonEnv, script: string, flags: readonly string[] = [], vars?: Record<string, string>): ClientPeer {
  return {
    ...peer,
    loops: ["sdk"],
    unavailable: unavailableWithout(env),
    driver: { kind: "process", command: (planFile, eventsFile) => pythonProgram(env, script, ["--plan", planFile, "--events", eventsFile, ...flags], vars) },
  };
}

/** The same client with the driver's HTTP mode (lab_driver.py --http URL: its SDK's own Streamable HTTP client). */
export function withHttp(peer: ClientPeer): ClientPeer {
  const driver = peer.driver;
  if (driver.kind !== "process") return peer;
  const http = (planFile: string, eventsFile: string, url: string): ChildCommand => {
    const command = driver.command(planFile, eventsFile);
    return { ...command, args: [...command.args, "--http", url] };
  };
  return { ...peer, driver: { ...driver, http } };
}

/** A stdio server peer whose program is lab/peers/<script> in `env` (it writes no events of its own). */
export function pythonServer(peer: Omit<ServerPeer, "child" | "unavailable">, env: PythonEnv, script: string, vars?: Record<string, string>): ServerPeer {
  return { ...peer, unavailable: unavailableWithout(env), child: { writesEvents: false, command: () => pythonProgram(env, script, [], vars) } };
}
