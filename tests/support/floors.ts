// The lab's floors (lab/README.md "Floors"), read from the sources: every relative import of
// every .ts file under lab/ and scenarios/ (type-only and dynamic ones too), and the problems
// with that graph: an import that runs up a floor, a folder that imports a sibling on its own
// floor, and any import circle between files. Pure functions of the graph, so a test can add an
// edge and see it refused.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";

/** Lowest first. A folder may import its own floor's files and any floor below; nothing above. */
export const FLOORS: readonly (readonly string[])[] = [
  ["lab/paths.ts", "lab/scratch.ts"],
  ["lab/history"],
  ["lab/plan"],
  ["lab/transports"],
  ["lab/peers"],
  ["scenarios"],
  ["lab/check"],
  ["lab/session"],
  ["lab/render"],
  ["lab/cli"],
  ["lab/notebooks", "lab/bench", "lab/soak", "lab/demos"],
  ["lab/run.ts", "lab/setup.ts"],
];

export type Graph = Map<string, string[]>;

const SPEC = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g;

function tsFiles(dir: string, root: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : tsFiles(path, root);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

export function importGraph(root: string): Graph {
  const graph: Graph = new Map();
  for (const file of [...tsFiles("lab", root), ...tsFiles("scenarios", root)]) {
    const source = readFileSync(join(root, file), "utf8").replace(/^\s*(\/\/.*|\*.*|\/\*.*)$/gm, "");
    const targets = [...source.matchAll(SPEC)].map((m) => normalize(join(dirname(file), m[1]!)).replace(/\.js$/, ".ts"));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Which floor, and which folder on it, a file stands on (undefined: outside the floors). */
export function floorOf(file: string): { floor: number; folder: string } | undefined {
  for (const [floor, folders] of FLOORS.entries()) {
    const folder = folders.find((f) => file === f || file.startsWith(`${f}/`));
    if (folder) return { floor, folder };
  }
  return undefined;
}

export function floorProblems(graph: Graph): string[] {
  const problems: string[] = [];
  for (const [file, targets] of graph) {
    const from = floorOf(file);
    if (!from) {
      problems.push(`${file} stands on no floor (add its folder to FLOORS)`);
      continue;
    }
    for (const target of targets) {
      const to = floorOf(target);
      if (!to) continue;
      if (to.floor > from.floor) problems.push(`${file} imports ${target}: up from ${from.folder} to ${to.folder}`);
      else if (to.floor === from.floor && to.folder !== from.folder && FLOORS[from.floor]!.length > 1 && from.floor > 0)
        problems.push(`${file} imports ${target}: across, ${from.folder} to ${to.folder} on the same floor`);
    }
  }
  return [...problems, ...circles(graph).map((c) => `import circle: ${c.join(" -> ")}`)];
}

/** Every import circle between files, each once (Tarjan's strongly connected components). */
export function circles(graph: Graph): string[][] {
  let index = 0;
  const stack: string[] = [];
  const on = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}
