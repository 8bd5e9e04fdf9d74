// Type-aware comparison: `true` is not `1`, null is not missing, missing and extra keys differ,
// list lengths must match. Each difference names its path, e.g. `$.first.computed`.

export function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (Number.isInteger(value)) return "integer";
  return typeof value;
}

function show(value: unknown): string {
  return value === undefined ? "missing" : `${typeName(value)} ${JSON.stringify(value)}`;
}

export function differences(expected: unknown, actual: unknown, path = "$"): string[] {
  const te = typeName(expected);
  const ta = typeName(actual);
  // integer vs number is a difference of value, not of type, so compare them as numbers
  const numeric = (t: string) => t === "integer" || t === "number";
  if (te !== ta && !(numeric(te) && numeric(ta))) {
    return [`${path}: expected ${show(expected)}, got ${show(actual)}`];
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const out: string[] = [];
    if (expected.length !== actual.length) out.push(`${path}: expected ${expected.length} items, got ${actual.length}`);
    const n = Math.min(expected.length, actual.length);
    for (let i = 0; i < n; i++) out.push(...differences(expected[i], actual[i], `${path}[${i}]`));
    return out;
  }
  if (te === "object") {
    const e = expected as Record<string, unknown>;
    const a = actual as Record<string, unknown>;
    const out: string[] = [];
    for (const key of Object.keys(e)) {
      if (!(key in a)) out.push(`${path}.${key}: expected ${show(e[key])}, got missing`);
      else out.push(...differences(e[key], a[key], `${path}.${key}`));
    }
    for (const key of Object.keys(a)) {
      if (!(key in e)) out.push(`${path}.${key}: unexpected key, got ${show(a[key])}`);
    }
    return out;
  }
  return Object.is(expected, actual) ? [] : [`${path}: expected ${show(expected)}, got ${show(actual)}`];
}
