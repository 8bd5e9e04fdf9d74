// Colour: only on a terminal, never when piped, never when NO_COLOR is set (https://no-color.org).
import { test } from "uvu";
import * as assert from "uvu/assert";
import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { wantsColor } from "../lab/render/swimlane.js";
import { ROOT } from "./support/cli.js";
import { needs } from "./support/needs.js";

const ANSI = /\x1b\[/;
const RUN = ["nested", "--loop", "sdk", "--transport", "memory", "--repeat", "1"];

function envWith(noColor: string | undefined): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NO_COLOR;
  if (noColor !== undefined) env.NO_COLOR = noColor;
  return env;
}

function withOut<T>(work: (out: string) => T): T {
  const out = mkdtempSync(join(tmpdir(), "lab-color-"));
  try {
    return work(out);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

test("wantsColor: a TTY without NO_COLOR gets colour; NO_COLOR (any non-empty value) or a pipe turns it off", () => {
  const saved = process.env.NO_COLOR;
  const tty = { isTTY: true } as NodeJS.WriteStream;
  const pipe = { isTTY: false } as unknown as NodeJS.WriteStream;
  try {
    delete process.env.NO_COLOR;
    assert.is(wantsColor(tty), true);
    assert.is(wantsColor(pipe), false);
    process.env.NO_COLOR = "1";
    assert.is(wantsColor(tty), false);
    process.env.NO_COLOR = "";
    assert.is(wantsColor(tty), true, "an empty NO_COLOR does not count (no-color.org)");
  } finally {
    if (saved === undefined) delete process.env.NO_COLOR;
    else process.env.NO_COLOR = saved;
  }
});

test("piped CLI output has no ANSI escapes, even without NO_COLOR", () =>
  withOut((out) => {
    const r = spawnSync(process.execPath, ["--import", "tsx", "lab/run.ts", ...RUN, "--out", out], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 60_000,
      env: envWith(undefined),
    });
    assert.is(r.status, 0, r.stderr);
    assert.match(r.stdout, "callback #1 answers accept");
    assert.not.match(r.stdout, ANSI);
    assert.not.match(r.stderr, ANSI);
  }));

// On a real terminal (a pty from util-linux `script`): colour by default, none with NO_COLOR.
const hasScript = spawnSync("script", ["--version"], { encoding: "utf8" }).status === 0;

/** Runs the CLI on a pty of its own (stdout is a terminal), within a bound. */
function onTty(noColor: string | undefined, out: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const command = [process.execPath, "--import", "tsx", "lab/run.ts", ...RUN, "--out", out].join(" ");
  return new Promise((resolve) => {
    execFile("script", ["-qefc", command, "/dev/null"], { cwd: ROOT, encoding: "utf8", timeout: 60_000, env: envWith(noColor) }, (error, stdout, stderr) =>
      resolve({ status: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

// Without `script` the test is skipped (uvu counts it under Skipped, needs() names it); in CI
// (CI=true, where .ci/run installs util-linux) a missing `script` fails it.
const scriptMissing = () => (hasScript ? undefined : "util-linux `script` is missing: .ci/run should have installed it (apt-get install util-linux)");
needs({ name: "script", unavailable: scriptMissing })("on a terminal the CLI colours its output, and NO_COLOR turns that off", async () => {
  const dirs = [mkdtempSync(join(tmpdir(), "lab-color-")), mkdtempSync(join(tmpdir(), "lab-color-"))];
  try {
    // two separate runs on two ptys, side by side
    const [coloured, plain] = await Promise.all([onTty(undefined, dirs[0]!), onTty("1", dirs[1]!)]);
    assert.is(coloured.status, 0, coloured.stderr);
    assert.match(coloured.stdout, "callback #1 answers accept");
    assert.match(coloured.stdout, ANSI, "colour on a terminal");
    assert.is(plain.status, 0, plain.stderr);
    assert.match(plain.stdout, "callback #1 answers accept");
    assert.not.match(plain.stdout, ANSI, "NO_COLOR=1 on a terminal");
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
