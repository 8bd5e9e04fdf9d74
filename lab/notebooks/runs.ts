// Running a block's `run`: the real CLI, as a bounded child process, with its run output sent to
// a temporary directory, and its case reports read back (a scenario writes one file per case;
// `contract` writes contract.json, whose `cases` are case reports too).
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CaseReport } from "../session/pipeline.js";
import type { ModelVerdict } from "../check/model-vs-real.js";
import { LOOP_MODELS } from "../history/receive-loop.js";
import { SCENARIOS } from "../../scenarios/index.js";

/** The project root: runs start here, and run.ts is under it. */
export { PROJECT_ROOT as ROOT } from "../paths.js";
import { PROJECT_ROOT as ROOT } from "../paths.js";
import { slots } from "../session/slots.js";
/** No run of a notebook may take longer than this. The longest is notebook 07's `vocabulary`
 *  (every vocabulary case on every server peer, and the Go client's column: about 420 sessions),
 *  which outgrew 120 s once the fastmcp server and the go column joined (exit 143 in a CI rehearsal). */
export const RUN_BOUND_MS = 600_000;

export interface RunOutput {
  run: string;
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  reports: CaseReport[];
  /** the reports came from a `contract` run (run-output/contract.json holds them as `cases`) */
  contract?: boolean;
  /** the serial model (and py-inline) checked against real code, when the run wrote it (model-vs-real.json) */
  model?: ModelVerdict[];
  /** each run's SVG (lab/render/svg.ts), by file name, when the run wrote any */
  svgs?: Record<string, string>;
}

export type Runner = (run: string) => Promise<RunOutput>;

function reportOrder(report: CaseReport): number {
  const scenario = SCENARIOS.findIndex((s) => s.name === report.scenario);
  const loop = LOOP_MODELS.indexOf(report.loop);
  return (scenario < 0 ? 999 : scenario) * 10 + (loop < 0 ? 9 : loop) + (report.onDeadlock === "break" ? 5 : 0);
}

/** Not a case report: the model-vs-real verdict a scenario run writes beside them (lab/run.ts). */
const MODEL_VS_REAL_FILE = "model-vs-real.json";

/** What `tsx lab/run.ts contract` writes to run-output/contract.json. */
interface ContractOutput {
  command: "contract";
  cases: CaseReport[];
}

/**
 * What a run left: its exit, what it printed (the temporary output folder shown as run-output/,
 * as a reader's run would show it), and the case reports it wrote to `out`, which is removed.
 */
export function collectRun(run: string, root: string, result: { code: number | null; signal: string | null; stdout: string; stderr: string }): RunOutput {
  // The run wrote to its own folder in a store of its own (lab/cli/store.ts): read that folder,
  // and show it as the reader's run would name it, run-output/latest/.
  const latest = join(root, "latest");
  const out = existsSync(latest) ? realpathSync(latest) : root;
  const hide = (s: string) => s.split(`${out}/`).join("run-output/latest/").split(out).join("run-output/latest").split(`${root}/`).join("run-output/").split(root).join("run-output");
  let reports: CaseReport[] = [];
  let contract = false;
  let model: ModelVerdict[] | undefined;
  let svgs: Record<string, string> | undefined;
  try {
    for (const f of existsSync(out) ? readdirSync(out).filter((name) => name.endsWith(".svg")).sort() : []) (svgs ??= {})[f] = readFileSync(join(out, f), "utf8");
    reports = readdirSync(out)
      .filter((f) => f.endsWith(".json"))
      .sort()
      .flatMap((f) => {
        if (f === MODEL_VS_REAL_FILE) {
          const verdicts = JSON.parse(readFileSync(join(out, f), "utf8")) as ModelVerdict | ModelVerdict[];
          model = Array.isArray(verdicts) ? verdicts : [verdicts];
          return [];
        }
        const data = JSON.parse(readFileSync(join(out, f), "utf8")) as CaseReport | ContractOutput;
        // only case reports and the contract's file hold case reports (e.g. against.json does not)
        if (!("command" in data && data.command === "contract") && !("scenario" in data && "column" in data)) return [];
        // The contract command writes one file whose `cases` are ordinary case reports.
        if ("command" in data && data.command === "contract") {
          contract = true;
          return data.cases;
        }
        return [data as CaseReport];
      })
      // Stable: contract cases keep the order the command ran them in.
      .sort((a, b) => reportOrder(a) - reportOrder(b));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return { run, ...result, stdout: hide(result.stdout), stderr: hide(result.stderr), reports, ...(contract ? { contract } : {}), ...(model ? { model } : {}), ...(svgs ? { svgs } : {}) };
}

/** A temporary output folder for one run. */
export const runOutDir = () => mkdtempSync(join(tmpdir(), "lab-notebook-"));

/** Runs `tsx lab/run.ts <run>` as a child process, within a bound, output to a temporary directory. */
export function cliRunner(boundMs = RUN_BOUND_MS): Runner {
  return (run) => {
    const out = runOutDir();
    // --out goes before a `--` (what follows it is the command of a server under test)
    const words = run.split(/\s+/);
    const dash = words.indexOf("--");
    const own = dash === -1 ? [...words, "--out", out] : [...words.slice(0, dash), "--out", out, ...words.slice(dash)];
    const argv = ["--import", "tsx", join(ROOT, "lab", "run.ts"), ...own];
    return new Promise<RunOutput>((done) => {
      execFile(
        process.execPath,
        argv,
        { cwd: ROOT, encoding: "utf8", timeout: boundMs, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: "1" } },
        (error, stdout, stderr) => {
          const e = error as (Error & { code?: unknown; signal?: string | null }) | null;
          done(collectRun(run, out, { code: e ? (typeof e.code === "number" ? e.code : null) : 0, signal: e?.signal ?? null, stdout, stderr }));
        },
      );
    });
  };
}

/** At most `limit` runs at once; the rest wait their turn, in the order they were asked for. */
export function limited(runner: Runner, limit: number): Runner {
  const slot = slots(limit);
  return (run) => slot(() => runner(run));
}
