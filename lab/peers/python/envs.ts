// The Python peers' environments as data: one entry per hash-pinned requirements file, each built into a venv
// of its own (pins that conflict cannot share one) by lab/setup.ts. Adding a Python peer is one entry here
// (and the rest of the recipe at the top of lab/peers/python/lab_driver.py). The first three venvs keep the
// folders they had at the project root; every later one is build/venvs/<name>.
import { join } from "node:path";
import { FASTMCP_VENV_DIR, LAB_DIR, PY1_VENV_DIR, PY_VENV_DIR, PYTHON_VENVS_DIR } from "../../paths.js";

/** A venv built from one requirements file. */
export interface PythonEnv {
  /** its name: the peer (or family of peers) it is for, in the set-up's and `peers`' lines */
  name: string;
  requirements: string;
  dir: string;
  /** the venv's own interpreter: spawn this, never `python3` from PATH (it may be a shim) */
  python: string;
  /** the distributions `peers` shows the installed version of (read from the venv), the env's own first */
  shows: readonly string[];
}

/** name, its requirements under lab/peers/, its venv (default build/venvs/<name>), the distributions shown. */
function pythonEnv(name: string, requirements: string, dir = join(PYTHON_VENVS_DIR, name), shows: readonly string[] = ["mcp"]): PythonEnv {
  return { name, requirements: join(LAB_DIR, "peers", requirements), dir, python: join(dir, "bin", "python"), shows };
}

export const PY_ENV = pythonEnv("py", "py/requirements.txt", PY_VENV_DIR);
export const PY1_ENV = pythonEnv("py1", "py1/requirements.txt", PY1_VENV_DIR);
export const FASTMCP_ENV = pythonEnv("fastmcp", "fastmcp/requirements.txt", FASTMCP_VENV_DIR, ["fastmcp", "mcp"]);
/** mcp 1.30.0, the last 1.x: what `mcp<2` resolves to; run by py1's adapter */
export const PY130_ENV = pythonEnv("py130", "py130/requirements.txt");
/** semantic-kernel 1.45.0 as pip resolves it alone (mcp 1.30.0, a core dependency) */
export const SEMANTIC_KERNEL_ENV = pythonEnv("semantic-kernel", "semantic-kernel/requirements.txt", undefined, ["semantic-kernel", "mcp"]);
/** fast-agent-mcp 0.2.36, the newest on Python 3.11 (0.10.x needs >= 3.12), beside pydantic<2.12 and a2a-sdk<1 (mcp 1.10.1) */
export const FAST_AGENT_ENV = pythonEnv("fast-agent", "fast-agent/requirements.txt", undefined, ["fast-agent-mcp", "mcp"]);
/** pydantic-ai-slim[mcp] 2.78.0 as pip resolves it alone (fastmcp-slim 4.2.3, mcp 2.3.0) */
export const PYDANTIC_AI_ENV = pythonEnv("pydantic-ai", "pydantic-ai/requirements.txt", undefined, ["pydantic-ai-slim", "fastmcp-slim", "mcp"]);
/** the same beside `mcp<2` (fastmcp-slim 3.4.11, mcp 1.30.0) */
export const PYDANTIC_AI_MCP1_ENV = pythonEnv("pydantic-ai-mcp1", "pydantic-ai-mcp1/requirements.txt", undefined, ["pydantic-ai-slim", "fastmcp-slim", "mcp"]);
/** langchain-mcp-adapters 0.3.2 as pip resolves it alone (mcp 1.30.0: it pins mcp>=1.24,<2) */
export const LANGCHAIN_PY_ENV = pythonEnv("langchain-py", "langchain-py/requirements.txt", undefined, ["langchain-mcp-adapters", "mcp"]);
/** mcp-use 1.7.1 as pip resolves it alone (mcp 1.30.0) */
export const MCP_USE_ENV = pythonEnv("mcp-use", "mcp-use/requirements.txt", undefined, ["mcp-use", "mcp"]);
/** google-adk[mcp] 2.15.0 as pip resolves it alone (mcp 2.3.0) */
export const GOOGLE_ADK_ENV = pythonEnv("google-adk", "google-adk/requirements.txt", undefined, ["google-adk", "mcp"]);
/** the same beside langchain-mcp-adapters 0.3.2, whose `mcp<2` pin resolves mcp 1.30.0 */
export const GOOGLE_ADK_MCP1_ENV = pythonEnv("google-adk-mcp1", "google-adk-mcp1/requirements.txt", undefined, ["google-adk", "mcp"]);
/** strands-agents 1.65.0 as pip resolves it alone (mcp 2.3.0: it pins mcp>=1.23,<2.4) */
export const STRANDS_ENV = pythonEnv("strands", "strands/requirements.txt", undefined, ["strands-agents", "mcp"]);
/** openai-agents 0.25.0 as pip resolves it alone (mcp 2.3.0) */
export const OPENAI_AGENTS_PY_ENV = pythonEnv("openai-agents-py", "openai-agents-py/requirements.txt", undefined, ["openai-agents", "mcp"]);

export const PYTHON_ENVS: readonly PythonEnv[] = [PY_ENV, PY1_ENV, FASTMCP_ENV, PY130_ENV, SEMANTIC_KERNEL_ENV, FAST_AGENT_ENV, PYDANTIC_AI_ENV, PYDANTIC_AI_MCP1_ENV, LANGCHAIN_PY_ENV, MCP_USE_ENV, GOOGLE_ADK_ENV, GOOGLE_ADK_MCP1_ENV, STRANDS_ENV, OPENAI_AGENTS_PY_ENV];
