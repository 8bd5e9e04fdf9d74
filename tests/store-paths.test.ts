// A store can be shared: no file the lab writes holds a path of this machine (issue #30). Real
// sessions of every kind into a temporary store (memory, a stdio child, a relay driver (go),
// Streamable HTTP, a card pairing, a contract case, `against` a server named by its absolute
// path), then every file in it is scanned for the project root, the temp dir and the home dir.
// The scanner is shown to find a path a corrupted file holds, and the raw evidence it finds
// paths in; and the portable form changes path strings only: the wire and events stay as recorded.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { writeJsonAtomic } from "../lab/cli/output.js";
import { portableText } from "../lab/cli/portable.js";
import { PROJECT_ROOT } from "../lab/paths.js";
import { readVersions } from "../lab/peers/versions.js";
import { runCase } from "../lab/session/pipeline.js";
import { findScenario } from "../scenarios/index.js";
import { GO_CLIENT } from "../lab/peers/go/index.js";
import { runMain } from "./support/cli.js";
import { needs } from "./support/needs.js";
import { scanStore } from "./support/machine-paths.js";

const store = mkdtempSync(join(tmpdir(), "lab-store-paths-"));
let ran: Promise<void> | undefined;
/** The sessions, run once into the store. */
function runAll() {
  ran ??= (async () => {
    const runs = [
      ["nested", "--client", "ts1,go", "--server", "ts1", "--transport", "all", "--repeat", "1", "--out", store],
      ["card", "--client", "go", "--server", "ts1", "--out", store],
      ["contract", "accept_valid", "--transport", "stdio", "--repeat", "1", "--out", store],
      ["against", "--tool", "calculate", "--client", "ts1", "--out", store, "--", process.execPath, join(PROJECT_ROOT, "build", "child-server.cjs")],
    ];
    for (const args of runs) {
      const r = await runMain(args);
      // what differed, when a run fails (a card prints it on stdout, not stderr)
      const differed = r.stdout.split("\n").filter((l) => /DIFFERS|FAIL/.test(l)).join("\n");
      assert.is(r.code, 0, `${args[0]}: ${r.stderr}${differed}`);
    }
  })();
  return ran;
}

needs(GO_CLIENT)("no file in a store of real runs holds the project root, the temp dir or the home dir", async () => {
  await runAll();
  const kinds = readdirSync(store).filter((n) => /Z-/.test(n)).map((n) => n.replace(/^.*Z-/, ""));
  assert.equal(kinds.sort(), ["against", "card", "contract", "nested"]);
  assert.equal(scanStore(store), []);
  // The paths are there, in their portable form: project files relative, scratch files named.
  const latest = (name: string) => join(store, readdirSync(store).find((n) => n.endsWith(name))!);
  const go = JSON.parse(readFileSync(join(latest("nested"), "nested.sdk.go.ts1.json"), "utf8"));
  assert.is(go.expectedFile, "expected/nested.sdk.go.json");
  const driver = go.runs[0].transportEvidence.driver;
  assert.is(driver.command, "build/go-client");
  assert.match(driver.args.join(" "), /^--plan <scratch>\/child-events-\d+\.plan\.json --events <scratch>\/child-events-\d+\.events\.jsonl/);
  const against = JSON.parse(readFileSync(join(latest("against"), "against.json"), "utf8"));
  assert.equal(against.command, ["<node>", "build/child-server.cjs"]);
});

needs(GO_CLIENT)("the scanner finds a machine path: in a corrupted store file, and in the raw evidence", async () => {
  await runAll();
  const file = join(store, readdirSync(store).find((n) => n.endsWith("nested"))!, "nested.sdk.json");
  const good = readFileSync(file, "utf8");
  try {
    writeFileSync(file, good.replace('"expected/nested.sdk.json"', JSON.stringify(join(PROJECT_ROOT, "expected", "nested.sdk.json"))));
    // only that file, and the root among what it finds (a root under the temp dir is found as both)
    const found = scanStore(store);
    assert.ok(found.length > 0 && found.every((f) => f.file.endsWith("nested.sdk.json")), JSON.stringify(found));
    assert.ok(found.some((f) => f.path === PROJECT_ROOT), JSON.stringify(found));
  } finally {
    writeFileSync(file, good);
  }
  // A stdio run's report as recorded in memory names the child and its scratch files absolutely.
  const report = await runCase(findScenario("nested")!, "sdk", { transports: ["stdio"], repeat: 1, onDeadlock: "wait" }, readVersions());
  const raw = JSON.stringify(report);
  for (const path of [PROJECT_ROOT, tmpdir()]) assert.ok(raw.includes(path), `the raw report holds ${path}`);
  const dir = mkdtempSync(join(tmpdir(), "lab-store-raw-"));
  try {
    writeJsonAtomic(join(dir, "nested.sdk.json"), report);
    assert.equal(scanStore(dir), []);
    // Only path strings changed: the wire and the events are exactly as recorded.
    const written = JSON.parse(readFileSync(join(dir, "nested.sdk.json"), "utf8"));
    const recorded = JSON.parse(raw);
    assert.equal(written.runs[0].wire, recorded.runs[0].wire);
    assert.equal(written.runs[0].events, recorded.runs[0].events);
    assert.ok(written.runs[0].wire.length > 0 && written.runs[0].events.length > 0);
    assert.is(written.expectedFile, "expected/nested.sdk.json");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("portableText: each kind of path, whole names only", () => {
  const root = PROJECT_ROOT;
  assert.is(portableText(`"${root}/build/jvm/java.jar"`), `"build/jvm/java.jar"`);
  assert.is(portableText(`cwd ${root}, then`), `cwd ., then`);
  assert.is(portableText(`at file://${root}/lab/run.ts:3`), `at lab/run.ts:3`);
  assert.is(portableText(`${tmpdir()}/lab-x/plan.json`), `<tmp>/lab-x/plan.json`);
  assert.is(portableText(`${homedir()}/.cache/x`), `~/.cache/x`);
  assert.is(portableText(`${tmpdir()}foo and a${tmpdir()}/x`), `${tmpdir()}foo and a${tmpdir()}/x`, "not part of another name");
  assert.is(portableText(`${tmpdir()}/store/inv/a.svg`, `${tmpdir()}/store/inv`), "a.svg", "the written file's folder: relative to it");
});

test.after(() => rmSync(store, { recursive: true, force: true }));

test.run();
