// Writes the SVG pictures of a case's runs into its run output folder (lab/render/svg.ts renders them).
import { join } from "node:path";
import { runOutcome } from "../render/outcome.js";
import { renderSvg, svgFileName } from "../render/svg.js";
import type { CaseReport } from "../session/pipeline.js";
import { writeAtomic } from "./output.js";

/** One SVG per run of the case, next to its JSON in the run output directory. Returns the paths. */
export function writeRunSvgs(outDir: string, report: CaseReport, suffix: string): string[] {
  return report.runs.map((run) => {
    const path = join(outDir, svgFileName(report.scenario, report.column, suffix, run.transport, run.repeat));
    const outcome = { ...runOutcome(run), ok: run.ok };
    writeAtomic(path, renderSvg(run, { loopMeaning: report.loopMeaning, onDeadlock: report.onDeadlock, sdk: report.versions.sdk, outcome }));
    return path;
  });
}
