// bench --history (issue 46's cost figures, lab/bench/history.ts): each run goes to the scratch cache it is
// given (LAB_HISTORY_DIR), never build/history/; a client with no history ends both runs with its one line, exit 2.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "./support/cli.js";
import { benchHistory } from "../lab/bench/history.js";

test("LAB_HISTORY_DIR moves the history cache; without it the cache is build/history/", () => {
  const read = (env: NodeJS.ProcessEnv) =>
    spawnSync(process.execPath, ["--import", "tsx", "-e", 'import("./lab/peers/history-list.ts").then((m) => console.log(m.HISTORY_DIR))'], { cwd: ROOT, env, encoding: "utf8", timeout: 60_000 }).stdout.trim();
  const { LAB_HISTORY_DIR: _, ...plain } = process.env;
  assert.is(read({ ...plain, LAB_HISTORY_DIR: "/tmp/lab-scratch-history" }), "/tmp/lab-scratch-history");
  assert.is(read(plain), join(ROOT, "build", "history"));
});

test("a client with no history: both runs end exit 2, and the figure carries the one line that says why", async () => {
  const { fresh, warm } = await benchHistory("no-such-sdk");
  assert.is(fresh.exitCode, 2);
  assert.is(warm.exitCode, 2);
  assert.match(fresh.said, /no-such-sdk/, fresh.said);
});

test.run();
