// The shows of the receiving loop: `held` (who waited behind whom) and `timing` (how many
// callbacks ran at once, and how long the timed spans took).
import { loadExpectation } from "../check/expectations.js";
import type { RunRecord } from "../session/pipeline.js";
import { frameViews } from "../render/story.js";
import { callbackSum, callbackTime, peakCallbacks, selectEvent } from "../check/verify.js";
import { cell, ms1, runName, runsOf } from "./format.js";
import type { RunOutput } from "./runs.js";

/** Every request that held the receiving loop while this frame sat in its queue, in order. */
function holders(run: RunRecord, frame: number): { id: unknown; method: unknown }[] {
  const arrived = run.events.find((e) => e.kind === "frame.arrived" && e.frame === frame);
  if (!arrived) return [];
  const dispatched = run.events.find((e) => e.kind === "frame.dispatched" && e.frame === frame);
  const end = dispatched?.seq ?? Number.MAX_SAFE_INTEGER;
  const out: { id: unknown; method: unknown }[] = [];
  if (arrived.detail?.heldBehind !== undefined) out.push({ id: arrived.detail.heldBehind, method: arrived.detail.heldBehindMethod });
  for (const e of run.events) {
    if (e.kind === "loop.held" && e.side === arrived.side && e.seq > arrived.seq && e.seq < end) out.push({ id: e.id, method: e.method });
  }
  return out;
}

/** Every frame that waited behind a request holding a loop, and whether the lab saw a cycle. */
export function heldTable(output: RunOutput): string[] {
  const rows = ["| run | frame | held in | behind | waited in the queue | deadlock event |", "|---|---|---|---|---|---|"];
  for (const { report, run } of runsOf(output)) {
    const held = frameViews(run.events, run.wire).filter((f) => f.held);
    if (held.length === 0) rows.push(`| ${runName(report, run)} | nothing was held | | | | |`);
    for (const f of held) {
      const dispatched = run.events.find((e) => e.kind === "frame.dispatched" && e.frame === f.index);
      const waited = dispatched ? ms1(Number(dispatched.detail?.waitedMs ?? 0)) : "never dispatched";
      const cycle = run.events.find((e) => {
        if (e.kind !== "deadlock" || e.side !== f.to) return false;
        const waiting = e.detail?.waiting as { id?: unknown } | undefined;
        return (f.label.frameType === "result" || f.label.frameType === "error") && waiting?.id === f.label.id;
      });
      const holder = cycle?.detail?.holder as { id?: unknown; method?: unknown } | undefined;
      const said = cycle ? `yes: ${String(holder?.method)} #${String(holder?.id)} waits for this reply` : "none";
      const behind = holders(run, f.index)
        .map((h, i, all) => (i > 0 && h.method === all[i - 1]!.method ? `#${String(h.id)}` : `${String(h.method)} #${String(h.id)}`))
        .join(", ");
      rows.push(`| ${runName(report, run)} | ${cell(f.text)} | ${f.to} | ${cell(behind)} | ${waited} | ${cell(said)} |`);
    }
  }
  return rows;
}

/**
 * Peaks exactly; every timed span in ms beside what it is checked against: the callbacks' own
 * times added up (structural), or a multiple of the median callback (a ratio), or a protocol's
 * own limit in ms.
 */
export function timingTable(output: RunOutput): string[] {
  const rows = [
    "| run | callbacks at once (peak) | one callback (median) | callbacks added up | timed span | span | expected |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const report of output.reports) {
    // the pairing's own expectation (a client's file, e.g. *.sdk.py1.json), as the run was checked against
    const expectation = loadExpectation(report.scenario, report.loop, report.onDeadlock, undefined, { client: report.client, server: report.server });
    for (const run of report.runs) {
      const peak = peakCallbacks(run.events);
      const peakText = expectation.peakCallbacks === undefined ? String(peak) : `${peak} (expected ${expectation.peakCallbacks})`;
      const rules = expectation.timing ?? [];
      const first = callbackTime(run.events);
      const sum = callbackSum(run.events);
      const ms = (v: number | undefined) => (v === undefined ? "-" : ms1(v));
      if (rules.length === 0) rows.push(`| ${runName(report, run)} | ${peakText} | ${ms(first)} | ${ms(sum)} | - | | |`);
      for (const rule of rules) {
        const unit = callbackTime(run.events, rule.unitCall);
        const added = callbackSum(run.events, rule.unitCall);
        const from = selectEvent(run.events, rule.from);
        const to = selectEvent(run.events, rule.to);
        const span = from && to ? to.t - from.t : undefined;
        const times = (f: number) => (f === 1 ? "their sum" : `${f} x their sum`);
        const bounds = [
          rule.atLeastCallbackSum !== undefined && `at least ${times(rule.atLeastCallbackSum)}`,
          rule.lessThanCallbackSum !== undefined && `less than ${times(rule.lessThanCallbackSum)}`,
          rule.atLeastCallbacks !== undefined && `at least ${rule.atLeastCallbacks} x the median`,
          rule.atMostCallbacks !== undefined && `at most ${rule.atMostCallbacks} x the median`,
          rule.atMostMs !== undefined && `at most ${rule.atMostMs} ms`,
        ].filter(Boolean);
        if (rule.over && !rule.over.transports.includes(run.transport as never)) bounds.splice(0, bounds.length, `not claimed over ${run.transport}`);
        const spanText = span === undefined ? "not found" : `${ms1(span)}${unit ? ` (${(span / unit).toFixed(1)} callbacks)` : ""}`;
        rows.push(`| ${runName(report, run)} | ${peakText} | ${ms(unit)} | ${ms(added)} | ${cell(rule.why)} | ${spanText} | ${bounds.join(", ")} |`);
      }
    }
  }
  return rows;
}
