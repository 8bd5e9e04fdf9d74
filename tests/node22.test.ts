// The peers under Node 22 (lab/peers/node22): each bundle's declared inputs cover every lab file esbuild
// puts in it (a file outside them would leave a stale bundle running old code), and a corrupted list is
// caught; the events file writes only DriverEvent lines (a kind the contract lacks goes as a note); a
// bundled driver refuses a bad plan in one line with exit 2, and `peers` reads Node 22 from the binary.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { PROJECT_ROOT } from "../lab/paths.js";
import { AI_SDK_BUILD, AI_SDK_CLIENT, AI_SDK_DRIVER_BUILD } from "../lab/peers/ai-sdk/index.js";
import { MASTRA_BUILD, MASTRA_CLIENT, MASTRA_DRIVER_BUILD } from "../lab/peers/mastra/index.js";
import { eventsFile } from "../lab/peers/node22/events.js";
import { NODE22_BINARY, NODE22_BUILD } from "../lab/peers/node22/index.js";
import { OPENAI_AGENTS_BUILD, OPENAI_AGENTS_CLIENT, OPENAI_AGENTS_DRIVER_BUILD } from "../lab/peers/openai-agents/index.js";
import { STRANDS_TS_BUILD, STRANDS_TS_CLIENT, STRANDS_TS_DRIVER_BUILD } from "../lab/peers/strands-ts/index.js";
import { buildStaleness, type CachedBuild } from "../lab/peers/cached-build.js";
import { DriverEvent } from "../lab/plan/driver-events.js";
import { needs } from "./support/needs.js";
import { runMain } from "./support/cli.js";

const PEERS = [
  { name: "mastra", install: MASTRA_BUILD, bundle: MASTRA_DRIVER_BUILD, client: MASTRA_CLIENT },
  { name: "ai-sdk", install: AI_SDK_BUILD, bundle: AI_SDK_DRIVER_BUILD, client: AI_SDK_CLIENT },
  { name: "openai-agents", install: OPENAI_AGENTS_BUILD, bundle: OPENAI_AGENTS_DRIVER_BUILD, client: OPENAI_AGENTS_CLIENT },
  { name: "strands-ts", install: STRANDS_TS_BUILD, bundle: STRANDS_TS_DRIVER_BUILD, client: STRANDS_TS_CLIENT },
];

/** The lab files esbuild takes into the bundle that none of `inputs` covers. */
async function uncovered(name: string, inputs: readonly string[]): Promise<string[]> {
  const r = await build({ entryPoints: [join(PROJECT_ROOT, "lab", "peers", name, "adapter.ts")], bundle: true, platform: "node", format: "esm", write: false, metafile: true, logLevel: "silent", absWorkingDir: PROJECT_ROOT });
  const files = Object.keys(r.metafile.inputs).filter((f) => !f.includes("node_modules/"));
  assert.ok(files.length > 3, `esbuild listed ${files.length} lab files`);
  return files.filter((f) => !inputs.some((i) => f === i || f.startsWith(`${i}/`)));
}

for (const peer of PEERS) {
  const installed = { name: `${peer.name} install`, unavailable: () => buildStaleness(peer.install) };
  needs(installed)(`${peer.name}'s bundle inputs cover every lab file esbuild bundles; a list without lab/plan is caught`, async () => {
    assert.equal(await uncovered(peer.name, peer.bundle.inputs), []);
    const missing = await uncovered(peer.name, peer.bundle.inputs.filter((i) => i !== "lab/plan"));
    assert.ok(missing.some((f) => f.startsWith("lab/plan/")), missing.join(", "));
  });
}

test("the events file holds DriverEvent lines only; a kind the contract lacks is a note naming it", () => {
  const dir = mkdtempSync(join(tmpdir(), "lab-node22-"));
  try {
    const file = join(dir, "events.jsonl");
    const rec = eventsFile(file);
    rec.event("client", "callback.entered", { id: 3, origin: "server", method: "elicitation/create", detail: { n: 1, call: "first" } });
    rec.event("client", "sdk.error", { detail: { message: "Unsupported message type" } });
    const lines = readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l) as unknown);
    for (const line of lines) assert.ok(DriverEvent.safeParse(line).success, JSON.stringify(line));
    assert.equal((lines[0] as DriverEvent).id, 3);
    assert.equal((lines[1] as DriverEvent).kind, "note");
    assert.equal((lines[1] as DriverEvent).detail, { event: "sdk.error", message: "Unsupported message type" });
    // corrupted: the lab's own `origin` field, which the driver contract does not carry, is refused
    assert.not.ok(DriverEvent.safeParse({ ...(lines[0] as object), origin: "server" }).success);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const bundled = (b: CachedBuild) => ({ name: b.name, unavailable: () => buildStaleness(NODE22_BUILD) ?? buildStaleness(b) });
needs(bundled(AI_SDK_DRIVER_BUILD))("a bundled driver refuses a bad plan in one line with exit 2, before any session", () => {
  const dir = mkdtempSync(join(tmpdir(), "lab-node22-"));
  try {
    writeFileSync(join(dir, "plan.json"), "{}");
    const r = spawnSync(NODE22_BINARY, [AI_SDK_DRIVER_BUILD.outputs[0]!, "--plan", join(dir, "plan.json"), "--events", join(dir, "e.jsonl")], { encoding: "utf8", timeout: 60_000 });
    assert.is(r.status, 2, r.stderr);
    assert.match(r.stderr, /^ai-sdk-driver: bad plan .*plan\.json: scenario: /);
    assert.is(r.stderr.trim().split("\n").length, 1, r.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

needs(MASTRA_CLIENT)("peers shows Node 22 for the peers under it, read from the binary, and the lab's own Node for the others", async () => {
  const r = await runMain(["peers"]);
  const line = (name: string) => r.stdout.split("\n").find((l) => l.startsWith(`  ${name} `)) ?? "";
  const version = spawnSync(NODE22_BINARY, ["--version"], { encoding: "utf8" }).stdout.trim();
  assert.match(version, /^v22\./);
  for (const peer of PEERS) assert.ok(line(peer.name).endsWith(`own process (Node ${version})`), line(peer.name));
  assert.ok(line("ts1").endsWith(`this process (Node ${process.version})`), line("ts1"));
});

test.run();
