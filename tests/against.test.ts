// `against`: the lab's client peers against a server the lab did not write, given only as a
// command (here the lab's own built server, as a user would pass theirs). py1 (mcp 1.29.0) deadlocks
// with the reply already on the wire until its SDK's request limit, read from its error (0.5 s,
// McpError 408); ts1 completes; the evidence is stored.
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CHILD_BUNDLE, ensureChildBuilt } from "../lab/peers/ts1/child-build.js";
import { runMain } from "./support/cli.js";
import { PY1_CLIENT } from "../lab/peers/py1/index.js";
import { needs } from "./support/needs.js";

const out = mkdtempSync(join(tmpdir(), "lab-against-"));

needs(PY1_CLIENT)("against --tool calculate -- node build/child-server.cjs: py1 deadlocks, ts1 completes, one line each", async () => {
  await ensureChildBuilt();
  const junit = join(out, "against.xml");
  const r = await runMain(["against", "--tool", "calculate", "--client", "ts1,py1", "--out", out, "--junit", junit, "--", process.execPath, CHILD_BUNDLE]);
  assert.is(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^ts1 +nested tools\/list completed · the call ended with a result$/m);
  assert.match(r.stdout, /^py1 +nested tools\/list deadlocked until the SDK's request limit \(0\.5 s, McpError 408\) · the call ended with a result$/m);
  assert.match(r.stdout, "against: deadlocks py1 when their callbacks nest");
  const stored = JSON.parse(readFileSync(join(out, "latest", "against.json"), "utf8"));
  assert.equal(stored.observations.map((o: { client: string; nested: string }) => [o.client, o.nested]), [["ts1", "completed"], ["py1", "deadlocked"]]);
  assert.is(stored.runs.length, 2);
  // for a CI job: py1's case fails, ts1's holds
  const xml = readFileSync(junit, "utf8");
  assert.match(xml, /<testcase classname="against calculate" name="ts1: a nested request inside the callback"\/>/);
  assert.match(xml, /name="py1: a nested request inside the callback">\s*<failure message="py1 nested tools\/list deadlocked until the SDK's request limit/);
});

test("a tool that asks for nothing: said in one line; bad usage: exit 2", async () => {
  const r = await runMain(["against", "--tool", "fan_out", "--args", '{"n":0}', "--client", "ts1", "--out", out, "--", process.execPath, CHILD_BUNDLE]);
  assert.match(r.stdout, "your server sent no elicitation/create during fan_out");
  for (const args of [["against", "--tool", "x"], ["against", "--", "node"], ["against", "--tool", "x", "--args", "[1]", "--", "node"]]) {
    const bad = await runMain(args);
    assert.is(bad.code, 2, args.join(" "));
  }
});

test.after(() => rmSync(out, { recursive: true, force: true }));
test.run();
