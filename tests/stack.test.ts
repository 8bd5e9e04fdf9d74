// `stack --python`: a user's Python agent stack resolved by real pip against the package index
// (issue 42's done-when cases): google-adk[mcp] alone gets mcp 2.x and behaves like the py column;
// beside langchain-mcp-adapters (mcp<2) the same google-adk gets mcp 1.30.0 and the serial loop;
// an unresolvable set, an unknown name and no index are one line, exit 2. A first run asks the
// index (pip's own bound, RESOLVE_BOUND_MS, limits each); build/stack/ answers the second, except
// for the unreachable index, which is never cached (one short pip run each time). Unless --no-run, the set is
// installed (build/stack/venvs/, by its hash: a second run starts at once) and each framework's adapter runs on it.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { runCli, runMain } from "./support/cli.js";
import { cachedOutcome, stackCacheFile, STACK_CACHE_DIR, type CachedOutcome } from "../lab/peers/pip-resolve.js";
import { columnFor } from "../lab/cli/stack.js";
import { probeVerdict } from "../lab/cli/stack-probe.js";
import { findClient } from "../lab/peers/registry.js";
import { onInterpreter, stackRequirements, stackVenvDir } from "../lab/peers/stack-venv.js";

const DAY_MS = 24 * 3600_000;
const oneLine = (text: string) => text.trim().split("\n").length === 1;

test("google-adk[mcp] alone resolves mcp 2.x: the concurrent loop, the py column", async () => {
  const r = await runMain(["stack", "--python", "google-adk[mcp]"]);
  assert.is(r.code, 0, r.stderr);
  const mcp = r.stdout.match(/^mcp (\d+)\.(\d+)\.(\d+): /m);
  assert.ok(mcp && Number(mcp[1]) >= 2, r.stdout);
  assert.match(r.stdout, /behaves like the card's py column \(loop sdk\): nested: completes/);
  assert.match(r.stdout, /google-adk \S+\s+google-adk( \(no adapter yet\))? · /);
  assert.match(r.stdout, /^probe: build\/stack\/venvs\/[0-9a-f]{24}, the \d+ packages installed by uv, every file checked against the sha256/m);
  assert.match(r.stdout, /^  google-adk's adapter, a nested request from inside the form callback \(scenario nested, ts1 server, stdio\): does not deadlock: the nested request got its reply/m);
  assert.not.match(r.stdout, /deadlocks: the nested/);
});

test("beside langchain-mcp-adapters the same google-adk resolves mcp 1.30.0: the serial loop, the mcp1 adapters", async () => {
  const r = await runMain(["stack", "--python", "google-adk[mcp] langchain-mcp-adapters"]);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /^mcp 1\.30\.0: the 1\.x receive loop: serial/m);
  assert.match(r.stdout, new RegExp(`behaves like the card's ${columnFor("1.30.0").client} column \\(loop sdk\\): nested: deadlocks until`));
  assert.match(r.stdout, /google-adk \S+\s+google-adk-mcp1( \(no adapter yet\))? · /);
  assert.match(r.stdout, /langchain-mcp-adapters \S+\s+langchain-py( \(no adapter yet\))? · /);
  // the run, on the set installed: each framework's own client deadlocks, and says which limit ended the wait
  assert.match(r.stdout, /^  google-adk-mcp1's adapter, [^\n]*: your stack deadlocks: the nested request's reply sat on the wire, unread, until the callback's own limit ended the wait/m);
  assert.match(r.stdout, /^  langchain-py's adapter, [^\n]*: your stack deadlocks: the nested request's reply sat on the wire, unread, until the lab's backstop ended the wait/m);
  assert.not.match(r.stdout, /does not deadlock/);
});

test("--no-run: the resolution only, no venv made and no adapter run", async () => {
  const r = await runMain(["stack", "--python", "google-adk[mcp]", "--no-run"]);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /^mcp 2\./m);
  assert.not.match(r.stdout, /^probe:/m);
});

test("the venv of a resolved set: hash-pinned when every file has its sha256, else plain pins; its folder is the set's", () => {
  const sha = "a".repeat(64);
  const hashed = stackRequirements([{ name: "mcp", version: "1.30.0", sha256: sha }]);
  assert.equal(hashed, { text: `mcp==1.30.0 \\\n    --hash=sha256:${sha}\n`, hashed: true });
  const plain = stackRequirements([{ name: "mcp", version: "1.30.0", sha256: sha }, { name: "anyio", version: "4.0.0" }]);
  assert.equal(plain, { text: "mcp==1.30.0\nanyio==4.0.0\n", hashed: false });
  assert.is(stackVenvDir([{ name: "mcp", version: "1.30.0" }]), stackVenvDir([{ name: "mcp", version: "1.30.0" }]));
  assert.is.not(stackVenvDir([{ name: "mcp", version: "1.30.0" }]), stackVenvDir([{ name: "mcp", version: "2.3.0" }]));
});

test("the answer in words: which limit ended a deadlock's wait, a hang, a completion; never 'does not deadlock' for a deadlock", () => {
  const backstop = "deadlocks until the lab's backstop: no SDK limit on this path";
  assert.is(
    probeVerdict(backstop, `${backstop} (LabBound, limit 1500 ms; waited 1502 ms)`),
    "your stack deadlocks: the nested request's reply sat on the wire, unread, until the lab's backstop ended the wait (no SDK limit on this path; LabBound, limit 1500 ms; waited 1502 ms)",
  );
  assert.is(probeVerdict("deadlocks until the SDK's request limit", "deadlocks until the SDK's request limit"), "your stack deadlocks: the nested request's reply sat on the wire, unread, until the SDK's request limit ended the wait");
  assert.match(probeVerdict("hangs, no limit", "hangs, no limit: the lab's bound ended the session"), /^your stack hangs: /);
  assert.is(probeVerdict("completes", "completes in 3 ms"), "does not deadlock: the nested request got its reply (completes in 3 ms)");
  assert.is(probeVerdict(undefined, undefined), "no nested request seen");
});

test("an adapter on the stack's venv: its own program and flags, only the interpreter changed, spawned fresh", () => {
  const peer = findClient("google-adk-mcp1")!;
  const moved = onInterpreter(peer, "/nowhere/bin/python");
  if (peer.driver.kind !== "process" || moved.driver.kind !== "process") throw new Error("google-adk-mcp1 runs as a process");
  const own = peer.driver.command("p.json", "e.jsonl");
  const on = moved.driver.command("p.json", "e.jsonl");
  assert.is(on.command, "/nowhere/bin/python");
  assert.equal(on.args, own.args);
  assert.is(on.fork, undefined);
  assert.is(moved.unavailable(), "/nowhere/bin/python is missing");
});

test("an unresolvable set is one line naming the conflict as pip states it, exit 2", async () => {
  const r = await runMain(["stack", "--python", "crewai==1.15.30 google-adk==2.13.0"]);
  assert.is(r.code, 2);
  assert.is(r.stdout, "");
  assert.ok(oneLine(r.stderr), r.stderr);
  assert.match(r.stderr, /^error: stack: Cannot install crewai==1\.15\.30 and google-adk==2\.13\.0: crewai 1\.15\.30 depends on opentelemetry-api[^;]*; google-adk 2\.13\.0 depends on opentelemetry-api/);
});

test("a name no index has: one line, exit 2 (cached: it is what the index said)", async () => {
  const set = ["lab-stack-no-such-package-42"];
  const r = await runMain(["stack", "--python", set[0]!]);
  assert.is(r.code, 2);
  assert.ok(oneLine(r.stderr), r.stderr);
  assert.is(r.stderr, `error: stack: ${set[0]}: no release of it for CPython 3.11 on this platform on the package index`);
  assert.ok(existsSync(stackCacheFile(set)));
});

test("a cached outcome answers within a day and not after; the command says it was cached", async () => {
  const set = ["lab-stack-planted"];
  const at = Date.now();
  const planted: CachedOutcome = {
    at: new Date(at).toISOString(),
    outcome: { kind: "resolved", requirements: set, python: "3.11.7", pip: "23.2.1", resolvedAt: new Date(at).toISOString(), packages: [{ name: "mcp", version: "1.30.0" }] },
  };
  const file = stackCacheFile(set);
  mkdirSync(STACK_CACHE_DIR, { recursive: true });
  writeFileSync(file, JSON.stringify(planted));
  try {
    const r = await runMain(["stack", "--python", set[0]!, "--no-run"]);
    assert.is(r.code, 0, r.stderr);
    assert.match(r.stdout, /\(cached under build\/stack\/\): 1 packages\nmcp 1\.30\.0: /);
    assert.equal(cachedOutcome(file, at + DAY_MS / 2), planted.outcome);
    assert.is(cachedOutcome(file, at + DAY_MS + 1), undefined, "a day-old answer is asked again");
    writeFileSync(file, "{ torn");
    assert.is(cachedOutcome(file, at), undefined, "a torn file is resolved again, not trusted");
  } finally {
    rmSync(file, { force: true });
  }
});

test("a resolved set that does not install (a file gone from the index): one line from uv, exit 2, no venv kept", async () => {
  const set = ["lab-stack-planted-gone"];
  const at = Date.now();
  const packages = [{ name: "mcp", version: "1.30.0" }, { name: "lab-stack-no-such-package-42", version: "1.0" }];
  const planted: CachedOutcome = { at: new Date(at).toISOString(), outcome: { kind: "resolved", requirements: set, python: "3.11.7", pip: "26.3", resolvedAt: new Date(at).toISOString(), packages } };
  const file = stackCacheFile(set);
  mkdirSync(STACK_CACHE_DIR, { recursive: true });
  writeFileSync(file, JSON.stringify(planted));
  try {
    const r = await runMain(["stack", "--python", set[0]!]);
    assert.is(r.code, 2, r.stderr);
    assert.ok(oneLine(r.stderr), r.stderr);
    assert.match(r.stderr, /^error: stack: could not install the resolved set to run it: error: [^\n]*; cause: [^\n]*lab-stack-no-such-package-42/);
    assert.not.ok(existsSync(stackVenvDir(packages)), "a venv half made is removed");
  } finally {
    rmSync(file, { force: true });
  }
});

test("no package index: one line on stderr, exit 2, no stack trace, and nothing cached", () => {
  const saved = process.env.PIP_INDEX_URL;
  // a closed port: a real refused connection, the index unreachable
  process.env.PIP_INDEX_URL = "http://127.0.0.1:9/simple";
  try {
    const r = runCli(["stack", "--python", "mcp"], 120_000);
    assert.is(r.code, 2, r.stderr);
    assert.ok(oneLine(r.stderr), r.stderr);
    assert.match(r.stderr, /^error: stack: the package index cannot be reached \(pip: Failed to establish a new connection/);
    assert.not.ok(existsSync(stackCacheFile(["mcp"], process.env)), "a failure to reach the index is never cached");
  } finally {
    if (saved === undefined) delete process.env.PIP_INDEX_URL;
    else process.env.PIP_INDEX_URL = saved;
  }
});

test("bad input never reaches pip: no --python, a pip option, a path or a URL; one line, exit 2", async () => {
  for (const argv of [["stack"], ["stack", "--python", "-r requirements.txt"], ["stack", "--python", "./my-pkg"], ["stack", "--python", "mcp @ https://example.com/mcp.whl"], ["stack", "--python", "  "]]) {
    const r = await runMain(argv);
    assert.is(r.code, 2, argv.join(" "));
    assert.ok(oneLine(r.stderr), r.stderr);
    assert.match(r.stderr, /^error: stack: /);
  }
});

test.run();
