// What the Python peers (mcp 2.3.0) cost, measured side by side in one run, never asserted in
// tests: spawn to initialize result of the `py` server child and of a `py` client session, each
// next to the venv's own `python -c "import mcp"` (goal: at most 1.3x that import), interleaved
// so load hits all three alike; and the wall time of the Python matrix as a reader runs it.
//   npx tsx lab/run.ts bench   (prints these after the TypeScript figures)
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { median } from "../check/stats.js";
import { PROJECT_ROOT } from "../paths.js";
import { PY_CLIENT, PY_SERVER } from "../peers/py/index.js";
import { VENV_PYTHON } from "../peers/py/setup.js";
import type { ClientPeer, ServerPeer } from "../plan/peer.js";
import { runSession } from "../session/session.js";
import { lifecycleProblems, within } from "../transports/child-process.js";
import { driverChildOf, serverChildOf } from "../plan/evidence.js";
import { TRANSPORTS } from "../transports/index.js";
import fixedFixture from "../../scenarios/fixed-fixture.js";

const SAMPLES = 11;
const IMPORT_BOUND_MS = 30_000;
const MATRIX_BOUND_MS = 600_000;
export const PYTHON_MATRIX_ARGS = ["all", "--client", "py,py-inline", "--server", "ts1,py", "--transport", "stdio", "--repeat", "1"];
const GOAL = 1.3;

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * The venv's interpreter running `import mcp` and nothing else: from spawn to the moment the
 * import has finished (it then prints one line), and to its exit. The first is what the
 * spawn-to-initialize figures compare with: neither of those includes an interpreter's exit.
 */
async function importMcp(): Promise<{ importedMs: number; exitedMs: number }> {
  const start = performance.now();
  const child = spawn(VENV_PYTHON, ["-c", "import mcp, sys; sys.stdout.write('imported\\n'); sys.stdout.flush()"], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  let importedMs: number | undefined;
  child.stdout.once("data", () => (importedMs = performance.now() - start));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once("close", (code) => resolve(code));
    child.once("error", reject);
  });
  if (!(await within(exited, IMPORT_BOUND_MS))) {
    child.kill("SIGKILL");
    throw new Error(`python -c "import mcp" did not exit within ${IMPORT_BOUND_MS} ms`);
  }
  if ((await exited) !== 0 || importedMs === undefined) throw new Error(`python -c "import mcp" failed: ${stderr.trim()}`);
  return { importedMs, exitedMs: performance.now() - start };
}

/** Spawn to initialize result of the process a real fixed-fixture session started, over stdio. */
async function spawnToInitialized(client: ClientPeer | undefined, server: ServerPeer | undefined, which: "server" | "driver"): Promise<number> {
  const run = await runSession(fixedFixture, TRANSPORTS.stdio!.open, "stdio", { loop: "sdk", ...(client && { client }), ...(server && { server }) });
  const evidence = which === "server" ? serverChildOf(run.transportEvidence) : driverChildOf(run.transportEvidence);
  const problems = [...run.errors, ...lifecycleProblems(run.transportEvidence)];
  if (problems.length || evidence?.spawnToInitializedMs === undefined) throw new Error(`bench ${which} session failed: ${problems.join("; ")}`);
  return evidence.spawnToInitializedMs;
}

const pyServer = () => spawnToInitialized(undefined, PY_SERVER, "server");
const pyClient = () => spawnToInitialized(PY_CLIENT, undefined, "driver");

/** The Python matrix as a reader types it: the real CLI, its own process, output to a temp dir. */
function pythonMatrix(): { wallMs: number; exitCode: number | null } {
  const out = mkdtempSync(join(tmpdir(), "lab-bench-py-"));
  try {
    const start = performance.now();
    const r = spawnSync(process.execPath, ["--import", "tsx", join(PROJECT_ROOT, "lab", "run.ts"), ...PYTHON_MATRIX_ARGS, "--json", "--out", out], {
      cwd: PROJECT_ROOT,
      encoding: "utf8",
      timeout: MATRIX_BOUND_MS,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { wallMs: performance.now() - start, exitCode: r.status };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

export interface PythonBench {
  samples: number;
  /** spawn to the end of `import mcp` */
  importMcpMedianMs: number;
  /** spawn to the exit of that interpreter */
  importMcpExitMedianMs: number;
  serverSpawnToInitializedMedianMs: number;
  serverRatio: number;
  clientSpawnToInitializedMedianMs: number;
  clientRatio: number;
  ratioGoal: number;
  matrix: { args: string[]; wallMs: number; exitCode: number | null };
}

export async function measurePython(samples = SAMPLES): Promise<PythonBench> {
  const why = PY_CLIENT.unavailable() ?? PY_SERVER.unavailable();
  if (why) throw new Error(`the Python peers cannot run here: ${why}`);
  // Warm the OS caches (and Python's bytecode caches) for all three alike; not measured.
  await importMcp();
  await pyServer();
  await pyClient();
  const imports: number[] = [];
  const exits: number[] = [];
  const servers: number[] = [];
  const clients: number[] = [];
  const steps = [
    async () => {
      const imported = await importMcp();
      imports.push(imported.importedMs);
      exits.push(imported.exitedMs);
    },
    async () => void servers.push(await pyServer()),
    async () => void clients.push(await pyClient()),
  ];
  // Interleaved, and each round starts with the next of the three, so neither load drifting
  // over the run nor the position in a round favours one of them.
  for (let i = 0; i < samples; i++) {
    for (let k = 0; k < steps.length; k++) await steps[(i + k) % steps.length]!();
  }
  const importMs = median(imports);
  const serverMs = median(servers);
  const clientMs = median(clients);
  const matrix = pythonMatrix();
  return {
    samples,
    importMcpMedianMs: round(importMs),
    importMcpExitMedianMs: round(median(exits)),
    serverSpawnToInitializedMedianMs: round(serverMs),
    serverRatio: round(serverMs / importMs, 2),
    clientSpawnToInitializedMedianMs: round(clientMs),
    clientRatio: round(clientMs / importMs, 2),
    ratioGoal: GOAL,
    matrix: { args: PYTHON_MATRIX_ARGS, wallMs: round(matrix.wallMs), exitCode: matrix.exitCode },
  };
}

/** Prints the Python figures; a machine without the Python peers gets one line saying so. */
export async function benchPython(): Promise<void> {
  const why = PY_CLIENT.unavailable() ?? PY_SERVER.unavailable();
  if (why) {
    console.log(`Python peers: not measured (${why})`);
    return;
  }
  const b = await measurePython();
  const base = `venv python -c "import mcp" ${b.importMcpMedianMs} ms to imported (${b.importMcpExitMedianMs} ms to exit)`;
  console.log(`py server child (mcp 2.3.0), spawn -> initialize result, median of ${b.samples}: ${b.serverSpawnToInitializedMedianMs} ms vs ${base}: ${b.serverRatio}x   (goal <= ${b.ratioGoal}x)`);
  console.log(`py client session (mcp 2.3.0), spawn -> initialize result, median of ${b.samples}: ${b.clientSpawnToInitializedMedianMs} ms vs ${base}: ${b.clientRatio}x   (goal <= ${b.ratioGoal}x)`);
  console.log(`Python matrix (tsx lab/run.ts ${b.matrix.args.join(" ")}): ${round(b.matrix.wallMs / 1000, 1)} s wall, exit ${String(b.matrix.exitCode)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  measurePython().then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
