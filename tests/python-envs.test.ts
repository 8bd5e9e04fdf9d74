// The Python environments are data (lab/peers/python/envs.ts): one entry per hash-pinned requirements
// file, a venv each, built by the set-up. Every entry's file pins every package to one version with a
// hash, names and venvs are its own, and every Python client peer runs in one of them; a venv whose
// stamp does not match its requirements is reported stale (shown on a copy, nothing installed touched).
import { test } from "uvu";
import * as assert from "uvu/assert";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLIENT_PEERS } from "../lab/peers/registry.js";
import { PY130_ENV, PYTHON_ENVS, type PythonEnv } from "../lab/peers/python/envs.js";
import { envProblem } from "../lab/peers/python/setup.js";

/** Each `name==version` line and the hash under it; what is not a pin with a hash, as text. */
function pins(requirements: string): { pinned: string[]; unhashed: string[] } {
  const lines = readFileSync(requirements, "utf8").split("\n").filter((l) => l.trim() !== "" && !l.startsWith("#"));
  const pinned: string[] = [];
  const unhashed: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const pin = lines[i]!.match(/^([A-Za-z0-9_.-]+)==(\S+) \\$/);
    if (pin && /^ {4}--hash=sha256:[0-9a-f]{64}$/.test(lines[i + 1] ?? "")) {
      pinned.push(pin[1]!.toLowerCase().replace(/[-_.]+/g, "-"));
      i++;
    } else unhashed.push(lines[i]!);
  }
  return { pinned, unhashed };
}

test("every requirements file pins each package once, with its hash", () => {
  for (const env of PYTHON_ENVS) {
    const { pinned, unhashed } = pins(env.requirements);
    assert.equal(unhashed, [], env.name);
    assert.equal(pinned.length, new Set(pinned).size, `${env.name}: a package pinned twice`);
    assert.ok(pinned.includes("mcp"), `${env.name}: mcp is pinned`);
  }
  assert.ok(pins(PY130_ENV.requirements).pinned.length > 20, "py130's file is its whole closure");
});

test("a line without its hash is found (the check can fail)", () => {
  const dir = mkdtempSync(join(tmpdir(), "lab-req-"));
  try {
    const file = join(dir, "requirements.txt");
    writeFileSync(file, readFileSync(PY130_ENV.requirements, "utf8").replace(/(mcp==1\.30\.0) \\\n {4}--hash=\S+\n/, "$1\n"));
    assert.equal(pins(file).unhashed, ["mcp==1.30.0"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("names and venvs are each env's own, and every Python client runs in one of them", () => {
  assert.equal(new Set(PYTHON_ENVS.map((e) => e.name)).size, PYTHON_ENVS.length);
  assert.equal(new Set(PYTHON_ENVS.map((e) => e.dir)).size, PYTHON_ENVS.length);
  const pythons = new Set(PYTHON_ENVS.map((e) => e.python));
  const clients = CLIENT_PEERS.filter((p) => p.driver.kind === "process" && p.driver.command("plan", "events").fork === "python");
  assert.ok(clients.some((p) => p.name === "py130"));
  for (const p of clients) assert.ok(p.driver.kind === "process" && pythons.has(p.driver.command("plan", "events").command), p.name);
});

test("a venv whose stamp is not its requirements' hash is stale", () => {
  const env = PY130_ENV;
  if (envProblem(env) !== undefined) return; // not built here: nothing to copy (peers --strict says so)
  const dir = mkdtempSync(join(tmpdir(), "lab-venv-"));
  try {
    const requirements = join(dir, "requirements.txt");
    cpSync(env.requirements, requirements);
    const copy: PythonEnv = { ...env, requirements };
    assert.is(envProblem(copy), undefined, "the same file: current");
    writeFileSync(requirements, `${readFileSync(requirements, "utf8")}# changed\n`);
    assert.match(envProblem(copy) ?? "", /does not match .*run `npm run setup`/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
