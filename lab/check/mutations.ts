// Changes one value of an expectation document at a time, to show every value in an expected
// file matters: the changed expectation must fail against the real run (tests, `lab mutate`).
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonPath = (string | number)[];

/** Every leaf path except free-text explanations and the file's own identity (which scenario,
 *  loop and peers it speaks for: tests/expectations.test.ts checks the peers part apart). */
export function leafPaths(value: Json, path: JsonPath = []): JsonPath[] {
  if (value !== null && typeof value === "object") {
    const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
    return entries.flatMap(([k, v]) =>
      k === "basis" || k === "why" || (path.length === 0 && (k === "scenario" || k === "loop" || k === "onDeadlock" || k === "clients" || k === "servers"))
        ? []
        : leafPaths(v as Json, [...path, k]),
    );
  }
  return [path];
}

export function mutated(doc: Json, path: JsonPath): Json {
  const copy = structuredClone(doc) as Record<string | number, Json>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, Json>;
  const last = path.at(-1)!;
  const old = parent[last];
  // Bounds and ordering ranks are changed in the direction that makes the claim stronger:
  // a weaker claim (a looser bound, "before the 2nd" where "before the 1st" held) is implied
  // by the original and so, by its nature, invisible to any passing run.
  const key = String(last);
  const parentKey = String(path.at(-2));
  if (typeof old === "number" && (key === "atLeastCallbacks" || key === "atLeastCallbackSum" || (key === "callbacks" && parentKey === "peakAtLeast"))) parent[last] = old * 100 + 10;
  else if (typeof old === "number" && (key === "atMostCallbacks" || key === "atMostMs" || key === "lessThanCallbackSum")) parent[last] = 0;
  else if (typeof old === "number" && key === "nth" && parentKey === "then") parent[last] = old - 1;
  // "the nth A before B": a later A before B is the stronger claim (every earlier A comes before it too)
  else if (typeof old === "number" && key === "nth" && parentKey === "first") parent[last] = old * 100 + 10;
  else parent[last] = typeof old === "boolean" ? !old : typeof old === "number" ? old + 1 : typeof old === "string" ? `${old}-changed` : 0;
  return copy;
}

/**
 * The leaf paths whose change went unnoticed. `rejects` parses and verifies a changed document
 * and says whether it was refused (a parse error counts as refused).
 */
export function survivingChanges(doc: Json, rejects: (changed: string) => boolean): { checked: number; survivors: string[] } {
  const paths = leafPaths(doc);
  const survivors = paths.filter((path) => !rejects(JSON.stringify(mutated(doc, path)))).map((path) => path.join("."));
  return { checked: paths.length, survivors };
}
