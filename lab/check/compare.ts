// Type-aware comparison: `true` is not `1`, null is not missing, missing and extra keys differ,
// list lengths must match. Each difference is data, { path, expected, actual, why }, its path
// naming where it is (e.g. `$.first.computed`); `differences` gives the same as one line each.

export function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (Number.isInteger(value)) return "integer";
  return typeof value;
}

function show(value: unknown): string {
  return value === undefined ? "missing" : `${typeName(value)} ${JSON.stringify(value)}`;
}

export interface Difference {
  path: string;
  /** undefined: the key was not expected at all (extra) */
  expected: unknown;
  /** undefined: the key is missing */
  actual: unknown;
  why: "type" | "value" | "length" | "missing" | "extra";
}

/** The line a terminal shows for one difference. */
export function differenceLine(d: Difference): string {
  if (d.why === "length") return `${d.path}: expected ${String(d.expected)} items, got ${String(d.actual)}`;
  if (d.why === "extra") return `${d.path}: unexpected key, got ${show(d.actual)}`;
  return `${d.path}: expected ${show(d.expected)}, got ${show(d.actual)}`;
}

export function diffs(expected: unknown, actual: unknown, path = "$"): Difference[] {
  const te = typeName(expected);
  const ta = typeName(actual);
  // integer vs number is a difference of value, not of type, so compare them as numbers
  const numeric = (t: string) => t === "integer" || t === "number";
  if (te !== ta && !(numeric(te) && numeric(ta))) return [{ path, expected, actual, why: "type" }];
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const out: Difference[] = [];
    if (expected.length !== actual.length) out.push({ path, expected: expected.length, actual: actual.length, why: "length" });
    const n = Math.min(expected.length, actual.length);
    for (let i = 0; i < n; i++) out.push(...diffs(expected[i], actual[i], `${path}[${i}]`));
    return out;
  }
  if (te === "object") {
    const e = expected as Record<string, unknown>;
    const a = actual as Record<string, unknown>;
    const out: Difference[] = [];
    for (const key of Object.keys(e)) {
      if (!(key in a)) out.push({ path: `${path}.${key}`, expected: e[key], actual: undefined, why: "missing" });
      else out.push(...diffs(e[key], a[key], `${path}.${key}`));
    }
    for (const key of Object.keys(a)) if (!(key in e)) out.push({ path: `${path}.${key}`, expected: undefined, actual: a[key], why: "extra" });
    return out;
  }
  return Object.is(expected, actual) ? [] : [{ path, expected, actual, why: "value" }];
}

export function differences(expected: unknown, actual: unknown, path = "$"): string[] {
  return diffs(expected, actual, path).map(differenceLine);
}
