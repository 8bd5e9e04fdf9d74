// `against --hosts`: your server under each host, one line per host. For real: the lab's calculate
// server under claude-code-hook (its hook accepts: 21) and claude-code (headless: cancelled). The
// line's reading of the call's end, on that real wire corrupted (reply dropped, an error reply).
// Bad input: a name that is no host is one line and exit 2.
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { callEnd } from "../lab/cli/against-hosts.js";
import type { WireFrame } from "../lab/history/timeline.js";
import { HOST_PEERS } from "../lab/peers/hosts/index.js";
import { CHILD_BUNDLE } from "../lab/peers/ts1/child-build.js";
import { runCli } from "./support/cli.js";
import { needs } from "./support/needs.js";

const named = (name: string) => HOST_PEERS.find((p) => p.name === name)!;

needs([named("claude-code-hook"), named("claude-code")])("your calculate under claude-code-hook computes 21, under claude-code it is cancelled; the call's end read from the wire", () => {
  const out = mkdtempSync(join(tmpdir(), "against-hosts-"));
  const r = runCli(["against", "--hosts", "--client", "claude-code-hook,claude-code", "--tool", "calculate", "--out", out, "--", process.execPath, CHILD_BUNDLE], 240_000);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.split("\n");
  assert.match(lines.find((l) => l.startsWith("claude-code-hook")) ?? "", /your form got: accept · the call ended with a result: "\{"status":"calculated","computed":true,"value":21\}"/);
  assert.match(lines.find((l) => l.startsWith("claude-code ")) ?? "", /your form got: cancel · the call ended with a result: "\{"status":"cancelled"/);

  const dir = readdirSync(out).find((d) => d.endsWith("-against"))!;
  const saved = JSON.parse(readFileSync(join(out, dir, "against-hosts.json"), "utf8")) as { runs: Record<string, { wire: WireFrame[] }> };
  const wire = saved.runs["claude-code-hook"]!.wire;
  assert.match(callEnd(wire, "calculate"), /"value":21/);
  const call = wire.find((f) => f.label.method === "tools/call" && f.label.frameType === "request")!;
  const reply = wire.find((f) => f.replyTo === call.index)!;
  assert.equal(callEnd(wire.filter((f) => f !== reply), "calculate"), "the call did not end");
  const errored = wire.map((f) => (f === reply ? ({ ...f, message: { jsonrpc: "2.0", id: 1, error: { code: -32603, message: "boom" } } } as WireFrame) : f));
  assert.equal(callEnd(errored, "calculate"), "the call ended with error -32603");
  assert.equal(callEnd(wire, "other_tool"), "the host never called other_tool");
});

test("against --hosts --client with a name that is no host: one line, exit 2", () => {
  const r = runCli(["against", "--hosts", "--client", "nope", "--tool", "calculate", "--", process.execPath, CHILD_BUNDLE]);
  assert.equal(r.code, 2);
  assert.equal(r.stderr.trim().split("\n").length, 1);
  assert.match(r.stderr, /no host named nope/);
});

test.run();
