// A host session's faults, with real programs in place of a host: one that never asks the model
// (and leaves a child in its group) is stopped by its own handle at its bound, group and all; one
// that exits first is one line with its last words. Then which runs fail the command, and a host
// name that is none.
import { alive } from "./support/child-pids.js";
import { test } from "uvu";
import { readFileSync } from "node:fs";
import * as assert from "uvu/assert";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { notCalled, planFor, HOST_SCENARIO } from "../lab/peers/hosts/index.js";
import { runHost, type HostSpec } from "../lab/peers/hosts/host-session.js";
import { hostsExit } from "../lab/cli/hosts.js";
import type { HostLine } from "../lab/render/hosts-table.js";
import { loadHostCards } from "../lab/check/host-cards.js";
import { runCli } from "./support/cli.js";

/** a process's state letter from /proc, or "gone" */
function stateOf(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0]!;
  } catch {
    return "gone";
  }
}
/** killed but not yet reaped by init (a zombie) is not running */
const running = (pid: number) => alive(pid) && !["Z", "X", "gone"].includes(stateOf(pid));

const program = (name: string, script: string): HostSpec => ({ name, pkg: "none", bin: process.execPath, api: "chat", launch: () => ({ args: ["-e", script], env: {} }) });
const PLAN = planFor(HOST_SCENARIO);

test("a host that never asks the model is stopped at its bound by its pid, with what it left in its group", async () => {
  const [transport] = InMemoryTransport.createLinkedPair();
  const idle = program("idle", "const c=require('child_process').spawn(process.execPath,['-e','setInterval(()=>{},1000)'],{stdio:'ignore'});console.log('grandchild '+c.pid);setInterval(()=>{},1000)");
  const run = await runHost(idle, PLAN, transport, "call it", 1_500);
  assert.ok(run.stoppedByLab);
  assert.equal(run.model.exchanges, []);
  assert.match(notCalled(run) ?? "", /did not call the tool within its bound/);
  const grandchild = Number(/grandchild (\d+)/.exec(run.stdout)?.[1]);
  assert.ok(grandchild > 0, `it said its child's pid: ${run.stdout}`);
  assert.not.ok(alive(run.pid!), "the host is gone");
  assert.not.ok(running(grandchild), `and what it left in its group (${stateOf(grandchild)})`);
});

test("a host that exits without asking the model: one line with its exit and last words", async () => {
  const [transport] = InMemoryTransport.createLinkedPair();
  const run = await runHost(program("quits", "console.error('no credentials found'); process.exit(3)"), PLAN, transport, "call it", 20_000);
  assert.not.ok(run.stoppedByLab);
  assert.equal(run.exitCode, 3);
  assert.equal(notCalled(run), "it exited (3) without asking the model: no credentials found");
});

test("the command fails on a difference or a host its card says runs; not for one whose card says it does not", () => {
  const card = loadHostCards().get("opencode")!;
  const notRun = { host: "opencode", notRun: "not installed", modelPhases: [], seconds: 0 };
  const line = (l: Partial<HostLine>): HostLine => ({ row: notRun, differs: [], ...l });
  assert.equal(hostsExit([line({ card })]), 1);
  assert.equal(hostsExit([line({ card: { ...card, runs: false } })]), 0);
  assert.equal(hostsExit([line({})]), 0, "no card: shown, not failed");
  assert.equal(hostsExit([line({ row: { ...notRun, notRun: undefined, cells: card.cells }, card, differs: ["verdict: card says a, the run showed b"] })]), 1);
  assert.equal(hostsExit([line({ row: { ...notRun, notRun: undefined, cells: card.cells }, card })]), 0);
});

test("hosts --client with a name that is no host: one line, exit 2", () => {
  const r = runCli(["hosts", "--client", "nope"]);
  assert.equal(r.code, 2);
  assert.equal(r.stderr.trim(), "hosts: no host named nope (the hosts: claude-code, codex, opencode, qwen-code, gemini-cli, claude-agent-sdk, claude-code-hook, codex-app)");
});

test.run();
