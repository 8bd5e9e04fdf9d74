// JUnit XML for a CI job: one <testsuite> per case (or card pairing), one <testcase> per check,
// a <failure> carrying the check's lines. A renderer only: it formats verdicts it is given.
import type { ModelVerdict } from "../check/model-vs-real.js";
import type { CaseReport } from "../session/pipeline.js";

export interface JunitCase {
  /** e.g. "nested · sdk · memory #1" */
  suite: string;
  name: string;
  ok: boolean;
  /** why it failed, one line each */
  details: readonly string[];
}

const esc = (s: string) =>
  s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function renderJunit(name: string, cases: readonly JunitCase[]): string {
  const suites = [...new Set(cases.map((c) => c.suite))];
  const failures = cases.filter((c) => !c.ok).length;
  const out = [`<?xml version="1.0" encoding="UTF-8"?>`, `<testsuites name="${esc(name)}" tests="${cases.length}" failures="${failures}">`];
  for (const suite of suites) {
    const mine = cases.filter((c) => c.suite === suite);
    out.push(`  <testsuite name="${esc(suite)}" tests="${mine.length}" failures="${mine.filter((c) => !c.ok).length}">`);
    for (const c of mine) {
      if (c.ok) out.push(`    <testcase classname="${esc(suite)}" name="${esc(c.name)}"/>`);
      else {
        out.push(`    <testcase classname="${esc(suite)}" name="${esc(c.name)}">`);
        out.push(`      <failure message="${esc(c.details[0] ?? "failed")}">${esc(c.details.join("\n"))}</failure>`);
        out.push(`    </testcase>`);
      }
    }
    out.push(`  </testsuite>`);
  }
  out.push(`</testsuites>`, "");
  return out.join("\n");
}

/** One JUnit test case per check of every run, parity and model comparison. */
export function junitCases(reports: readonly CaseReport[], models: readonly ModelVerdict[] = []): JunitCase[] {
  return reports.flatMap((r) => [
    ...r.runs.flatMap((run) =>
      run.verdicts.map((v) => ({ suite: `${r.scenario} · ${r.column} · ${run.transport} #${run.repeat}`, name: v.check, ok: v.ok, details: v.details })),
    ),
    ...r.parity.map((p) => ({ suite: `${r.scenario} · ${r.column} · parity`, name: `repeat ${p.repeat}`, ok: p.ok, details: p.ok ? [] : ["the transports disagree (see the report)"] })),
  ]).concat(models.map((m) => ({ suite: "model vs real", name: m.comparison, ok: m.ok, details: m.ok ? [] : ["a difference without a reason (see model-vs-real.json)"] })));
}
