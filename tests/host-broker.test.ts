// npm test's host broker (lab/transports/host-broker.ts): lab processes that ask for the same host
// share one, each numbering its runs in its own range; a run's three connections reach the process
// that asked with that process's id; a kill is relayed only for the asker's own run; a process's
// runs still going end when its connection does; another environment is another host. Spoken to
// here as a lab process speaks to it (host-control.ts), with real hosts: lab/peers/python/host.py (a
// forked run with a pid, of a program that imports nothing, so a host costs little) and the ts1
// server's host (a session on its event loop).
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { rmSync } from "node:fs";
import { connect, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TS1_SERVER } from "../lab/peers/ts1/index.js";
import { startHostBroker, type HostBroker } from "../lab/transports/host-broker.js";
import { hostStart, type HostStart } from "../lab/transports/host-control.js";
import { hostedRun } from "../lab/transports/forked.js";
import { StdioChild, within } from "../lab/transports/child-process.js";
import { parentOf } from "../lab/transports/listening.js";
import { BROKER_ENV } from "../lab/transports/host-control.js";
import { alive } from "./support/child-pids.js";
import { ROOT } from "./support/cli.js";

type Line = Record<string, unknown>;

/** One lab process's side: its control connection to the broker, and the socket its runs connect to. */
async function labProcess(broker: HostBroker, start: HostStart) {
  const socketPath = join(tmpdir(), `lab-broker-test-${process.pid}-${Math.random().toString(36).slice(2)}.sock`);
  const arrived: string[] = [];
  const streams = new Map<string, Socket>();
  const waiting: (() => void)[] = [];
  const wake = () => waiting.splice(0).forEach((resume) => resume());
  const server = createServer((socket) =>
    socket.once("data", (head: Buffer) => {
      const [first, ...rest] = head.toString("utf8").split("\n");
      arrived.push(first!);
      streams.set(first!, socket);
      if (rest.join("\n")) socket.unshift(Buffer.from(rest.join("\n")));
      wake();
    }),
  );
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  const control = connect(broker.path);
  const lines: Line[] = [];
  let text = "";
  control.setEncoding("utf8");
  control.on("data", (chunk: string) => {
    text += chunk;
    for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n")) {
      lines.push(JSON.parse(text.slice(0, end)) as Line);
      text = text.slice(end + 1);
      wake();
    }
  });
  control.write(`${JSON.stringify({ start })}\n`);
  /** Waits, within a bound, until `done` holds (checked as each line or connection comes). */
  const until = async <T>(done: () => T | undefined, what: string): Promise<T> => {
    const deadline = performance.now() + 15_000;
    for (;;) {
      const value = done();
      if (value !== undefined) return value;
      const left = deadline - performance.now();
      assert.ok(left > 0 && (await within(new Promise<void>((resume) => waiting.push(resume)), left)), `no ${what} within 15 s`);
    }
  };
  /** The next line from the broker matching `want`. */
  const next = (want: (line: Line) => boolean, what: string): Promise<Line> =>
    until(() => {
      const found = lines.findIndex(want);
      return found >= 0 ? lines.splice(found, 1)[0]! : undefined;
    }, what);
  /** The run's three connections, by role. */
  const connections = (id: number) => until(() => (["stdin", "stdout", "stderr"].every((role) => streams.has(`${id} ${role}`)) ? true : undefined), `run ${id}'s connections`);
  const first = await next((line) => "host" in line || "ended" in line, "first line");
  return {
    host: first.host as number,
    base: first.ids as number,
    arrived,
    streams,
    connections,
    run: (id: number, argv: string[]) => control.write(`${JSON.stringify({ id, argv, socket: socketPath })}\n`),
    kill: (id: number) => control.write(`${JSON.stringify({ id, kill: "SIGKILL" })}\n`),
    next,
    /** the control connection alone ends, as when a lab process dies: its runs' streams stay open */
    endControl: () => control.destroy(),
    close() {
      control.destroy();
      server.close();
      for (const socket of streams.values()) socket.destroy();
      rmSync(socketPath, { force: true });
    },
  };
}

/** `python3 until-eof.py` as the lab would fork it */
const UNTIL_EOF = { command: "python3", args: ["-B", join(ROOT, "tests", "fixtures", "host-runs", "until-eof.py")], fork: "python" as const };
const pyRun = hostedRun(UNTIL_EOF)!;
const ts1Server = hostedRun(TS1_SERVER.child!.command({ eventsFile: undefined, faults: [] }))!;

test("two lab processes asking for the same host share it; ids in ranges of their own; each run's connections reach its asker", async () => {
  const broker = await startHostBroker();
  const [a, b] = [await labProcess(broker, hostStart(pyRun)), await labProcess(broker, hostStart(pyRun))];
  try {
    assert.type(a.host, "number");
    assert.is(b.host, a.host, "one host");
    assert.is(broker.started, 1);
    assert.is.not(a.base, b.base);
    a.run(a.base + 1, pyRun.argv);
    b.run(b.base + 1, pyRun.argv);
    const started = [await a.next((l) => l.id === a.base + 1 && "pid" in l, "a's pid"), await b.next((l) => l.id === b.base + 1 && "pid" in l, "b's pid")];
    assert.is.not(started[0]!.pid, started[1]!.pid, "a process per run");
    await Promise.all([a.connections(a.base + 1), b.connections(b.base + 1)]);
    assert.equal(a.arrived.sort(), [`${a.base + 1} stderr`, `${a.base + 1} stdin`, `${a.base + 1} stdout`]);
    assert.equal(b.arrived.sort(), [`${b.base + 1} stderr`, `${b.base + 1} stdin`, `${b.base + 1} stdout`]);
    // each run ends as its stdin does, and only its asker hears of it
    a.streams.get(`${a.base + 1} stdin`)!.end();
    assert.equal(await a.next((l) => "exit" in l, "a's exit"), { id: a.base + 1, exit: 0, signal: null });
    b.streams.get(`${b.base + 1} stdin`)!.end();
    assert.equal(await b.next((l) => "exit" in l, "b's exit"), { id: b.base + 1, exit: 0, signal: null });
  } finally {
    a.close();
    b.close();
    broker.stop();
  }
});

test("a kill is relayed for the asker's own session only; a process's runs still going end with its connection", async () => {
  const broker = await startHostBroker();
  const [a, b] = [await labProcess(broker, hostStart(ts1Server)), await labProcess(broker, hostStart(pyRun))];
  const c = await labProcess(broker, hostStart(ts1Server));
  try {
    a.run(a.base + 1, ts1Server.argv);
    assert.ok((await a.next((l) => "pid" in l, "a's session")).hosted);
    c.kill(a.base + 1); // not c's session: never relayed to the host
    c.run(c.base + 1, ts1Server.argv); // relayed after that kill would have been
    await c.next((l) => "pid" in l, "c's session");
    // a's session still answers: initialize in, its result out
    await a.connections(a.base + 1);
    const stdout = a.streams.get(`${a.base + 1} stdout`)!;
    const answer = new Promise<string>((resolve) => stdout.once("data", (chunk: Buffer) => resolve(chunk.toString("utf8"))));
    a.streams.get(`${a.base + 1} stdin`)!.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "broker-test", version: "0" } } })}\n`);
    assert.ok(await within(answer, 15_000), "a's session answers initialize");
    assert.match(await answer, /"result"/);
    a.kill(a.base + 1);
    assert.equal(await a.next((l) => "exit" in l, "a's end"), { id: a.base + 1, exit: null, signal: "SIGKILL" });
    // b's forked run is going when b's connection ends: the broker stops it by its pid
    b.run(b.base + 1, pyRun.argv);
    const pid = (await b.next((l) => "pid" in l, "b's pid")).pid as number;
    await b.connections(b.base + 1);
    assert.ok(alive(pid));
    b.endControl();
    const deadline = performance.now() + 10_000;
    // polled (the run is the host's child, not this process's: no exit event reaches here)
    while (alive(pid) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.not.ok(alive(pid), `run ${pid} ended with its lab process's connection`);
    assert.ok(alive(b.host), "the host stays for the others");
  } finally {
    for (const side of [a, b, c]) side.close();
    broker.stop();
  }
});

test("another environment is another host; a host the broker started ends with stop()", async () => {
  const broker = await startHostBroker();
  const plain = await labProcess(broker, hostStart(pyRun));
  const other = await labProcess(broker, { ...hostStart(pyRun), env: { ...hostStart(pyRun).env, LAB_BROKER_TEST: "1" } });
  try {
    assert.is.not(other.host, plain.host);
    assert.is(broker.started, 2);
  } finally {
    plain.close();
    other.close();
    broker.stop();
  }
  const deadline = performance.now() + 10_000;
  while ([plain.host, other.host].some(alive) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal([plain.host, other.host].filter(alive), []);
});

/** A forked run started as the lab starts one, with LAB_HOST_BROKER as given while its host is
 *  made (`mark` makes the host one of its own); ended by closing its stdin. Its host's pid. */
async function serverRunHost(broker: string | undefined, mark: string): Promise<number> {
  const saved = process.env[BROKER_ENV];
  if (broker === undefined) delete process.env[BROKER_ENV];
  else process.env[BROKER_ENV] = broker;
  let child: StdioChild;
  try {
    child = new StdioChild({ ...UNTIL_EOF, env: { LAB_BROKER_TEST: mark } }, { line: () => {}, badLine: () => {}, closed: () => {} });
  } finally {
    if (saved === undefined) delete process.env[BROKER_ENV];
    else process.env[BROKER_ENV] = saved;
  }
  assert.ok(await within(child.spawned(), 15_000), "the run started");
  const host = child.evidence.forkedFrom!;
  assert.type(host, "number");
  child.process.stdin.end();
  const evidence = await child.close();
  assert.is(evidence.exitCode, 0);
  return host;
}

test("a lab process without LAB_HOST_BROKER spawns its own host; with it, the broker's host serves it", async () => {
  const broker = await startHostBroker();
  try {
    const own = await serverRunHost(undefined, "own");
    assert.is(parentOf(own), process.pid, "its own child");
    assert.is(broker.started, 0);
    const shared = await serverRunHost(broker.path, "brokered");
    assert.is(broker.started, 1, "the broker started it");
    assert.is.not(shared, own);
  } finally {
    broker.stop();
  }
});

test.run();
