// One run as the index page lists it and its own page shows it (lab/render/index-page.ts builds
// it; index-page.ts renders its line, run-page.ts its page).
import type { RunOutcome } from "./outcome.js";
import type { CaseReport, ParityVerdict, RunRecord } from "../session/pipeline.js";

/** One run as the page lists it: what the filters read and what the summary line says. */
export interface PageRun {
  id: string;
  scenario: string;
  /** the filter value: the column id (`sdk`, `serial`, loop.client.server), `.break` when broken at deadlock */
  peers: string;
  peersText: string;
  /** what each peer is (registry sdk) and what the loop means (registry meaning) */
  peersWhat: string;
  outcome: RunOutcome;
  transport: string;
  repeat: number;
  ok: boolean;
  /** names of the failing checks, parity included */
  failing: string[];
  report: CaseReport;
  run: RunRecord;
  parity: ParityVerdict[];
  svgFile: string;
  /** the run's own page, a file name in the same folder as the index */
  page: string;
  /** whether the folder has the run's SVG */
  hasSvg: boolean;
}
