// The file a stdio child writes its own events to never outlives the lab that named it: a lab
// stopped with SIGTERM removes it on its way out (its exit handlers run), and one killed with
// SIGKILL, which can clean nothing, leaves it to the next lab, which sweeps it. Real CLI runs,
// stopped by their own handles.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { withBound } from "../lab/plan/bounds.js";
import { SCRATCH_DIR, sweepStaleScratch } from "../lab/scratch.js";
import { alive, CHILD_PID_LOG } from "./support/child-pids.js";
import { ROOT } from "./support/cli.js";

const BOUND_MS = 30_000;

/** Resolves once `check` holds, looking every 20 ms; rejects after the bound. */
function until(check: () => boolean, what: string): Promise<void> {
  return withBound(
    new Promise<void>((resolve) => {
      const look = () => (check() ? resolve() : setTimeout(look, 20));
      look();
    }),
    BOUND_MS,
    what,
  );
}

const leftBy = (scratch: string, pid: number) => (existsSync(scratch) ? readdirSync(scratch).filter((n) => n.startsWith(`child-events-${pid}-`)) : []);

/**
 * A lab run over stdio, with its own pid log and its own scratch folder (TMPDIR is the lab's
 * tmpdir(), so SCRATCH_DIR moves with it): every lab that starts a child sweeps the files of labs
 * that are gone, and the suite's other processes start children all the time, so in the shared
 * folder one of them could sweep the killed lab's file before this test looks. Resolves once its
 * first stdio child is running.
 */
async function labWithChild(): Promise<{ lab: ChildProcess; child: number; scratch: string; exited: Promise<number | null>; cleanup(): void }> {
  const dir = mkdtempSync(join(tmpdir(), "lab-scratch-"));
  const scratch = join(dir, basename(SCRATCH_DIR));
  const log = join(dir, "pids.log");
  const lab = spawn(
    process.execPath,
    ["--import", "tsx", "lab/run.ts", "nested", "--loop", "serial", "--transport", "stdio", "--repeat", "1", "--out", join(dir, "out")],
    // a fresh child (LAB_FRESH): what it writes on stdin EOF is the file tested here; a hosted
    // session writes none when its host ends with the lab
    { cwd: ROOT, stdio: "ignore", env: { ...process.env, NO_COLOR: "1", LAB_CHILD_PID_LOG: log, TMPDIR: dir, LAB_FRESH: "1" } },
  );
  const exited = new Promise<number | null>((resolve) => lab.once("exit", (code) => resolve(code)));
  await until(() => existsSync(log) && readFileSync(log, "utf8").trim() !== "", "the lab's stdio child to start");
  const child = Number(readFileSync(log, "utf8").trim().split("\n")[0]);
  return {
    lab,
    child,
    scratch,
    exited,
    cleanup: () => {
      // the suite's own check (zz-no-child-left) looks at this child too
      appendFileSync(CHILD_PID_LOG, `${child}\n`);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function killed(): Promise<void> {
  const { lab, child, scratch, exited, cleanup } = await labWithChild();
  try {
    lab.kill("SIGKILL"); // by its own handle
    await withBound(exited, BOUND_MS, "the killed lab to exit");
    // stdin closed by the lab's death is the child's cue to write its record and exit
    await until(() => !alive(child), "the orphaned child to exit");
    const left = leftBy(scratch, lab.pid!);
    assert.is(left.length, 1, `files left by the killed lab: ${left.join(", ")}`);
    const swept = sweepStaleScratch(scratch);
    assert.ok(swept.some((file) => file.endsWith(left[0]!)), `swept: ${swept.join(", ")}`);
    assert.equal(leftBy(scratch, lab.pid!), []);
  } finally {
    cleanup();
  }
}

async function terminated(): Promise<void> {
  const { lab, child, scratch, exited, cleanup } = await labWithChild();
  try {
    lab.kill("SIGTERM");
    assert.is(await withBound(exited, BOUND_MS, "the terminated lab to exit"), 143, "it left through process.exit(143)");
    await until(() => !alive(child), "the lab's child to be gone");
    assert.equal(leftBy(scratch, lab.pid!), []);
  } finally {
    cleanup();
  }
}

// Two labs side by side (they share nothing but the scratch folder, each with its own files).
test("SIGKILL leaves the child's event file and the next lab sweeps it; SIGTERM leaves nothing", async () => {
  const results = await Promise.allSettled([killed(), terminated()]);
  const failures = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failures.length) throw failures[0]!.reason;
});

test.run();
