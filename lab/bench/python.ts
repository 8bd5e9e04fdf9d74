// What the Python peers cost to start, measured side by side in one run, never asserted in tests:
// each Python client driver and server child (py, py1, fastmcp), spawn to initialize result as the
// lab runs it (forked from its venv's warm interpreter, lab/transports/forked.ts), next to that
// venv's own `python -c "import mcp"` (the floor; goal at most 1.3x), interleaved so load
// hits all alike; beside each, the same peer spawned fresh (no goal: what the warm host saves).
// And the wall time of the Python matrix as a reader runs it (pythonMatrix in python-matrix.ts).
//   npx tsx lab/run.ts bench   (prints these after the TypeScript figures)
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { median } from "../check/stats.js";
import { FASTMCP_CLIENT, FASTMCP_SERVER } from "../peers/fastmcp/index.js";
import { PY_CLIENT, PY_SERVER } from "../peers/py/index.js";
import { FASTMCP_ENV, PY1_ENV, PY_ENV, type PythonEnv } from "../peers/python/envs.js";
import { envProblem } from "../peers/python/setup.js";
import { PY1_CLIENT, PY1_SERVER } from "../peers/py1/index.js";
import type { ClientPeer, ServerPeer } from "../plan/peer.js";
import { within } from "../transports/child-process.js";
import { freshClient, freshServer } from "../transports/forked.js";
import { interleaved, ratio, sessionStart } from "./start.js";

const SAMPLES = 5;
const IMPORT_BOUND_MS = 30_000;
export const PYTHON_GOAL = 1.3;

const VENVS: { env: PythonEnv; client: ClientPeer; server: ServerPeer }[] = [
  { env: PY_ENV, client: PY_CLIENT, server: PY_SERVER },
  { env: PY1_ENV, client: PY1_CLIENT, server: PY1_SERVER },
  { env: FASTMCP_ENV, client: FASTMCP_CLIENT, server: FASTMCP_SERVER },
];

const startMs = async (...args: Parameters<typeof sessionStart>) => (await sessionStart(...args)).startMs;
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * The venv's interpreter running `import mcp` and nothing else, from spawn to the moment the import
 * has finished (it then prints one line): a session start includes no interpreter's exit either.
 */
async function importMcp(python: string): Promise<number> {
  const start = performance.now();
  const child = spawn(python, ["-c", "import mcp, sys; sys.stdout.write('imported\\n'); sys.stdout.flush()"], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  let importedMs: number | undefined;
  child.stdout.once("data", () => (importedMs = performance.now() - start));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve, reject) => (child.once("close", resolve), child.once("error", reject)));
  if (!(await within(exited, IMPORT_BOUND_MS))) {
    child.kill("SIGKILL");
    throw new Error(`${python} -c "import mcp" did not exit within ${IMPORT_BOUND_MS} ms`);
  }
  if ((await exited) !== 0 || importedMs === undefined) throw new Error(`${python} -c "import mcp" failed: ${stderr.trim()}`);
  return importedMs;
}

export interface PythonStart {
  /** e.g. "py client", "fastmcp server" */
  peer: string;
  /** the venv's name (lab/peers/python/envs.ts) */
  env: string;
  floorMs: number;
  /** as the lab runs it: forked from the venv's warm interpreter */
  forkedMs: number;
  /** the same peer spawned fresh (`python script.py`) */
  freshMs: number;
  ratio: number;
  freshRatio: number;
}

/** Each venv's client and server, forked and fresh, against its `import mcp`; a venv that cannot run is left out. */
export async function measurePythonStarts(samples = SAMPLES): Promise<{ starts: PythonStart[]; skipped: string[] }> {
  const starts: PythonStart[] = [];
  const skipped: string[] = [];
  for (const { env, client, server } of VENVS) {
    const why = envProblem(env);
    if (why) {
      skipped.push(`${env.name}: ${why}`);
      continue;
    }
    const runs = {
      client: { forked: () => startMs({ client }, "driver"), fresh: () => startMs({ client: freshClient(client) }, "driver") },
      server: { forked: () => startMs({ server }, "server"), fresh: () => startMs({ server: freshServer(server) }, "server") },
    };
    const floor: number[] = [];
    const times = { client: { forked: [] as number[], fresh: [] as number[] }, server: { forked: [] as number[], fresh: [] as number[] } };
    // Warm the OS caches, Python's bytecode caches and the venv's host; not measured.
    await importMcp(env.python);
    for (const role of ["client", "server"] as const) for (const how of ["forked", "fresh"] as const) await runs[role][how]();
    const steps = [async () => void floor.push(await importMcp(env.python))];
    for (const role of ["client", "server"] as const) for (const how of ["forked", "fresh"] as const) steps.push(async () => void times[role][how].push(await runs[role][how]()));
    await interleaved(steps, samples);
    const floorMs = median(floor);
    for (const role of ["client", "server"] as const) {
      const [forked, fresh] = [median(times[role].forked), median(times[role].fresh)];
      const name = role === "client" ? client.name : server.name;
      starts.push({ peer: `${name} ${role}`, env: env.name, floorMs: round(floorMs), forkedMs: round(forked), freshMs: round(fresh), ratio: ratio(forked, floorMs), freshRatio: ratio(fresh, floorMs) });
    }
  }
  return { starts, skipped };
}

/** A figure with its goal, as index.ts reports it. */
type Report = (text: string, figure: string, goal: string, met: boolean) => void;

/** Reports each Python peer's start (a goal) with its fresh start beside it (no goal), then the matrix. */
export async function benchPython(report: Report): Promise<void> {
  const { starts, skipped } = await measurePythonStarts();
  for (const line of skipped) console.log(`Python peers: not measured (${line})`);
  for (const s of starts) {
    const floor = `its venv's python -c "import mcp" (${s.env}) ${s.floorMs} ms to imported`;
    report(
      `${s.peer} session start (spawn -> initialize result), forked from the venv's warm interpreter as the lab runs it, median of ${SAMPLES}: ${s.forkedMs} ms vs ${floor}: ${s.ratio}x`,
      `${s.peer} start`,
      `<= ${PYTHON_GOAL}x`,
      s.ratio <= PYTHON_GOAL,
    );
    console.log(`  the same ${s.peer} spawned fresh (python script.py, as under LAB_FRESH=1), median of ${SAMPLES}: ${s.freshMs} ms: ${s.freshRatio}x   (no goal: what the warm host saves)`);
  }
  const { pythonMatrix } = await import("./python-matrix.js");
  const m = pythonMatrix();
  console.log(`Python matrix (tsx lab/run.ts ${m.args.join(" ")}): ${round(m.wallMs / 1000, 1)} s wall, exit ${String(m.exitCode)}   (no goal)`);
}
