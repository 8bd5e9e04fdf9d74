// The hosts' hand-written cards, expected/hosts/<host>.json (lab/plan/host-card.ts): read and
// checked for shape; a card that is not one is one line naming its file.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { EXPECTED_DIR } from "../paths.js";
import type { HostCard } from "../plan/host-card.js";
import { ExpectationError } from "./expectations.js";

export const HOST_CARDS_DIR = join(EXPECTED_DIR, "hosts");

/** What is wrong with a parsed card, or undefined when it is one. */
export function hostCardProblem(card: unknown, file: string): string | undefined {
  const c = card as Partial<HostCard> | null;
  if (c === null || typeof c !== "object") return "not a JSON object";
  if (typeof c.host !== "string" || `${c.host}.json` !== file) return `"host" must be the file's name (${file.replace(/\.json$/, "")})`;
  if (typeof c.package !== "string" || typeof c.version !== "string" || typeof c.runs !== "boolean") return '"package", "version" (strings) and "runs" (boolean) are required';
  const cells = c.cells;
  const d = cells?.declares;
  if (!cells || !d || !(["form", "url", "sampling", "roots"] as const).every((k) => typeof d[k] === "boolean")) return '"cells.declares" needs form, url, sampling and roots (booleans)';
  if (!(["protocol", "formGot", "verdict"] as const).every((k) => typeof cells[k] === "string") || typeof cells.formsAtOnce !== "number") return '"cells" needs protocol, formGot, verdict (strings) and formsAtOnce (a number)';
  if (!Array.isArray(c.sources) || c.sources.length === 0 || !c.sources.every((s) => typeof s?.file === "string" && typeof s.says === "string" && typeof s.for === "string"))
    return '"sources" must list where each claim is read: { file, says, for }';
  return undefined;
}

/** Every host card by host name; a missing folder is no cards. */
export function loadHostCards(dir = HOST_CARDS_DIR): Map<string, HostCard> {
  const cards = new Map<string, HostCard>();
  if (!existsSync(dir)) return cards;
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(join(dir, file), "utf8"));
    } catch (error) {
      throw new ExpectationError(`expected/hosts/${file}: not JSON (${(error as Error).message})`);
    }
    const problem = hostCardProblem(parsed, file);
    if (problem) throw new ExpectationError(`expected/hosts/${file}: ${problem}`);
    cards.set((parsed as HostCard).host, parsed as HostCard);
  }
  return cards;
}
