// The whole project type-checks under strict settings.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { ROOT } from "./support/cli.js";

test("tsc --noEmit is clean", () => {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const r = spawnSync(process.execPath, [tsc, "--noEmit", "-p", "tsconfig.json"], { cwd: ROOT, encoding: "utf8", timeout: 180_000 });
  assert.is(r.status, 0, `${r.stdout}${r.stderr}`);
});

test.run();
