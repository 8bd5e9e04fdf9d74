// The rows of the page "Which Python agent stacks deadlock today" (issue 42 §3), read, never typed:
// each framework's version and its Requires-Dist on mcp from its venv's METADATA, the mcp pip resolved
// there, the verdict in the compact card's words from the peer's hand-written card (against the ts1
// server), and what to do: a neighbouring row that does not deadlock where the lab's venvs show one,
// else the fix of notebook 04. A venv not built reads as "not installed" (as the card block's labels do).
import { PYTHON_ENVS, type PythonEnv } from "../peers/python/envs.js";
import { pythonDist, requiresOf } from "../peers/installed.js";
import { STACK_PAGE_PEERS } from "../peers/python-frameworks.js";
import type { StackPagePeer, StackPageRow } from "../plan/python-stack.js";
import { cardKey, type ExpectedCard } from "./card-expected.js";
import { compactWord } from "./card-words.js";

const NESTED_ROWS = [["nested", "form"], ["samplingNested", "sampling"], ["rootsNested", "roots"]] as const;
export const FIX_04 = "ask before, not from inside: answer from the tool list the session already holds ([notebook 04](../04-the-fixes.md#for-app-authors-ask-before-not-from-inside))";

function envOf(entry: StackPagePeer): PythonEnv {
  const env = PYTHON_ENVS.find((e) => e.name === entry.env);
  if (!env) throw new Error(`python-stacks: no venv "${entry.env}" in lab/peers/python/envs.ts`);
  return env;
}

const installed = (env: PythonEnv, dist: string) => pythonDist(env, dist)().installed ?? "not installed";

/** The nested rows' words, each naming the callbacks it holds for; "cannot answer" and the like when none applies. */
export function verdictOf(card: ExpectedCard | undefined, peer: string): string {
  if (!card) return "no hand-written card";
  const cells = card.cells as Record<string, string | number | undefined>;
  const where = `${peer}'s card`;
  const byWord = new Map<string, string[]>();
  for (const [row, callback] of NESTED_ROWS) {
    const value = cells[row];
    if (value === undefined) continue;
    const word = compactWord(value, where);
    // a deadlock or hang keeps the card's words for what ended the wait; n/a (no such callback) is left out
    const shown = word === "deadlocks" || word === "hangs" ? String(value) : word;
    if (word !== "n/a") byWord.set(shown, [...(byWord.get(shown) ?? []), callback]);
  }
  if (byWord.size === 0) return cells.formAnswered === undefined ? "no nested row" : compactWord(cells.formAnswered, where);
  return [...byWord].map(([word, callbacks]) => `${word} (${callbacks.join(", ")})`).join("; ");
}

function mcpPin(entry: StackPagePeer, env: PythonEnv): string {
  if (entry.dist === "mcp") return "the SDK itself";
  const by = entry.pinVia ?? entry.dist;
  const specs = requiresOf(env.dir, by, "mcp");
  const text = specs.length === 0 ? "none stated" : specs.map((s) => `\`mcp${s}\``).join(" or ");
  return entry.pinVia ? `through ${by} ${installed(env, by)}: ${text}` : text;
}

function todoOf(entry: StackPagePeer, env: PythonEnv, verdict: string, cards: Map<string, ExpectedCard>): string {
  if (verdict === "cannot answer") return "no deadlock: the client declares no such callback (a server that asks gets an error)";
  if (!/deadlocks|hangs/.test(verdict)) return "nothing to fix";
  const instead = entry.instead;
  if (instead) {
    // a twin outside the page (py, for py130) runs the same distribution in the venv of its own name
    const twin = STACK_PAGE_PEERS.find((p) => p.peer === instead.peer) ?? { peer: instead.peer, env: instead.peer, dist: entry.dist };
    const twinEnv = envOf(twin);
    const twinVerdict = verdictOf(cards.get(cardKey({ client: twin.peer, loop: "sdk", server: "ts1" })), twin.peer);
    const neighbour = instead.neighbour ? ` (${instead.neighbour} ${installed(env, instead.neighbour)} requires ${requiresOf(env.dir, instead.neighbour, "mcp").map((s) => `\`mcp${s}\``).join(" or ") || "no mcp"})` : "";
    return `${instead.change}${neighbour}: ${twin.dist === "mcp" ? "" : `${twin.dist} ${installed(twinEnv, twin.dist)} on `}mcp ${installed(twinEnv, "mcp")} ${twinVerdict} (row ${twin.peer})`;
  }
  return `upgrade: none yet; ${FIX_04}`;
}

/** The venvs the page reads: each row's and each twin's it names (`docs` builds those missing first). */
export function stackPageEnvs(entries: readonly StackPagePeer[] = STACK_PAGE_PEERS): PythonEnv[] {
  const names = new Set(entries.flatMap((e) => [e.env, ...(e.instead ? [entries.find((p) => p.peer === e.instead!.peer)?.env ?? e.instead.peer] : [])]));
  return PYTHON_ENVS.filter((env) => names.has(env.name));
}

/** Every row of the page, in STACK_PAGE_PEERS' order. */
export function stackPageRows(cards: Map<string, ExpectedCard>, entries: readonly StackPagePeer[] = STACK_PAGE_PEERS): StackPageRow[] {
  return entries.map((entry) => {
    const env = envOf(entry);
    const verdict = verdictOf(cards.get(cardKey({ client: entry.peer, loop: "sdk", server: "ts1" })), entry.peer);
    return {
      peer: entry.peer,
      framework: `${entry.dist} ${installed(env, entry.dist)}`,
      mcpPin: mcpPin(entry, env),
      mcpResolved: installed(env, "mcp"),
      verdict,
      todo: todoOf(entry, env, verdict, cards),
    };
  });
}
