// The Python SDK's release history (issue 46): every release of `mcp` the package index serves, each installed once
// into build/history/py/<version>/ by uv, and a client peer on it. History venvs are resolved at install, unpinned
// except mcp itself (and the one constraint below): an old release with today's dependencies, said on the page.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { ClientPeer } from "../../plan/peer.js";
import { atLeast, compareReleases, formBehaviours, type HistorySource, type ReleaseList } from "../../plan/history.js";
import { withBuildLock } from "../build-lock.js";
import { cachedReleaseList, HISTORY_DIR } from "../history-list.js";
import { runCommand, writeStamp } from "../cached-build.js";
import type { PythonEnv } from "./envs.js";
import { PY130_ENV, PY1_ENV, PY_ENV } from "./envs.js";
import { pythonClient, withHttp } from "./peer.js";
import { basePython, envInfo } from "./setup.js";
import { ensureUv, QUIET_PIP, QUIET_UV } from "./uv.js";

const PY_HISTORY_DIR = join(HISTORY_DIR, "py");
const BOUND_MS = 300_000;

/** The first release whose ClientSession takes sampling_callback and list_roots_callback (mcp 1.3.0
 *  client/session.py ClientSession.__init__; 1.2.1 takes only read_timeout_seconds): before it, no callback API. */
export const FIRST_WITH_CALLBACKS = "1.3.0";
/** mcp/client/streamable_http.py's first release (1.7.1 has no such module); before 1.8.1 its post_writer awaits
 *  each POST inline (1.8.0 :381), 1.8.1 spawns a request's (:392; python-sdk #680, PR #693). */
export const FIRST_WITH_HTTP = "1.8.0";
/** elicitation_callback's first release (mcp 1.10.0 client/session.py ClientSession.__init__). */
export const FIRST_WITH_ELICITATION = "1.10.0";
/** Before 1.21.1, mcp/server/fastmcp/utilities/func_metadata.py:18 (1.21.0) imports pydantic's private
 *  eval_type_backport, gone from pydantic 2.12: `import mcp.client.session` fails with today's pydantic. */
export const CONSTRAINTS: readonly { before: string; requirement: string }[] = [{ before: "1.21.1", requirement: "pydantic<2.12" }];

/** The index the list comes from: pip's own setting, or PyPI. */
const indexUrl = () => process.env.PIP_INDEX_URL ?? "https://pypi.org/simple";

/** Every release of mcp the index serves, newest last; cached for a day under build/history/ by the index asked.
 *  No index and no cached list: a problem, in one line. */
export function pyReleases(now = new Date()): ReleaseList {
  return cachedReleaseList("py", indexUrl(), () => {
    // the machine's interpreter, whose pip asks the index: a venv made by uv has no pip of its own
    const python = basePython();
    if (python === undefined) return { problem: "no python3 found to ask the package index (set LAB_PYTHON)" };
    const r = spawnSync(python, ["-m", "pip", "index", "versions", "mcp", "--retries", "0", "--timeout", "15"], { encoding: "utf8", env: { ...process.env, ...QUIET_PIP }, timeout: 60_000 });
    const line = r.status === 0 ? /Available versions: (.*)/.exec(r.stdout)?.[1] : undefined;
    if (!line) return { problem: `no package index: pip index versions mcp could not reach ${indexUrl()}, and no list is cached under build/history/` };
    return line.split(",").map((v) => v.trim()).filter((v) => /^\d+(\.\d+)*$/.test(v)).sort(compareReleases);
  }, now);
}

/** The venvs the lab already has, reused where their mcp is the release (npm test stays fast). */
const EXISTING: readonly PythonEnv[] = [PY_ENV, PY1_ENV, PY130_ENV];

/** The release's venv: an existing one holding exactly that mcp, else build/history/py/<version>/. */
export function historyEnv(version: string): PythonEnv {
  const reused = EXISTING.find((env) => envInfo(env).versions.mcp === version);
  if (reused) return reused;
  const dir = join(PY_HISTORY_DIR, version);
  return { name: `py-${version}`, requirements: "", dir, python: join(dir, "bin", "python"), shows: ["mcp"] };
}

const stampOf = (env: PythonEnv) => join(env.dir, "lab-history.txt");
const requirementsOf = (version: string) => [`mcp==${version}`, ...CONSTRAINTS.filter((c) => !atLeast(version, c.before)).map((c) => c.requirement)];

/** Why the release cannot run here, or undefined once its venv is there (installed now if need be). */
export async function installRelease(version: string): Promise<string | undefined> {
  if (!atLeast(version, FIRST_WITH_CALLBACKS)) return `no callback API: ClientSession takes no sampling_callback or list_roots_callback before ${FIRST_WITH_CALLBACKS}`;
  const env = historyEnv(version);
  const wanted = requirementsOf(version).join(" ");
  const current = () => EXISTING.includes(env) || (existsSync(stampOf(env)) && readFileSync(stampOf(env), "utf8").trim() === wanted);
  if (current()) return undefined;
  // one install per release across processes (npm test and a history run at once): re-checked under the lock
  return withBuildLock(`history-py-${version}`, async () => (current() ? undefined : install(version, env, wanted)));
}

async function install(version: string, env: PythonEnv, wanted: string): Promise<string | undefined> {
  const python = basePython();
  if (!python) return "no Python >= 3.10 here";
  try {
    const uv = await ensureUv(python);
    rmSync(env.dir, { recursive: true, force: true });
    mkdirSync(PY_HISTORY_DIR, { recursive: true });
    await run(uv, ["venv", "--quiet", "--python", python, env.dir]);
    await run(uv, ["pip", "install", "--quiet", "--python", env.python, ...requirementsOf(version)]);
    const check = spawnSync(env.python, ["-c", "import mcp.client.session, mcp.client.stdio"], { encoding: "utf8", timeout: 60_000 });
    if (check.status !== 0) return `installs but does not import here: ${check.stderr.trim().split("\n").at(-1) ?? `exit ${check.status}`}`;
    writeStamp(stampOf(env), wanted);
    return undefined;
  } catch (error) {
    return `cannot install here: ${(error instanceof Error ? error.message : String(error)).split("\n").slice(1).join(" ").trim().slice(0, 200)}`;
  }
}

const run = (command: string, args: string[]) => runCommand(`mcp history`, command, args, { env: QUIET_UV, boundMs: BOUND_MS });

/** The adapter each release runs: the 1.x history adapter (its own API table) or the 2.x adapter. */
export const adapterOf = (version: string) => (atLeast(version, "2.0.0") ? "py/client.py" : "py1/history.py");

/** A client peer on the release's venv (installRelease first). */
export function historyClient(version: string): ClientPeer {
  const env = historyEnv(version);
  const peer = withHttp(pythonClient({ name: `py@${version}`, sdk: `mcp (Python SDK) ${version}`, meaning: `the Python SDK ${version} ClientSession as shipped`, era: "2025-11-25" }, env, adapterOf(version)));
  return { ...peer, unavailable: () => (existsSync(env.python) ? undefined : `no venv at ${env.dir}`) };
}

const constraintsText = CONSTRAINTS.map((c) => `${c.requirement} before ${c.before}`).join(", ");
const noElicitation = `no elicitation_callback before ${FIRST_WITH_ELICITATION}`;

/** `history --client py`. */
export const PY_HISTORY: HistorySource = {
  sdk: "py",
  title: "mcp (Python SDK)",
  package: "mcp",
  which: "Every release the package index listed",
  releases: () => pyReleases(),
  install: installRelease,
  client: historyClient,
  behaviours: formBehaviours(FIRST_WITH_ELICITATION, noElicitation, { samplingAnswer: {} }),
  transports: ["stdio", "http"],
  transportsFrom: { http: { from: FIRST_WITH_HTTP, why: `no streamable HTTP client before ${FIRST_WITH_HTTP} (mcp/client/streamable_http.py)` } },
  noTransport: "the Python driver runs over stdio and Streamable HTTP (its SDK's own client, lab_http.py) only",
  installNote: `Each in its own venv under build/history/py/ (or the lab's own where its mcp is the release), resolved at install: unpinned except mcp itself${constraintsText ? ` (and ${constraintsText})` : ""}.`,
};
