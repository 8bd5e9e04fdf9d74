// The report card's form-contract row (issue #13): of the seven answers in the form-contract
// session (scenarios/contract/card.ts), how many the server handled as the spec says: the valid
// accept computes 21; decline, cancel, and every wrong accept end the call with nothing computed.
// A function of the run's own tool results, returning data; no time in it.
import type { TimelineEvent } from "../history/timeline.js";
import { CARD_CONTRACT_CASES } from "../../scenarios/contract/card.js";
import { type CellValue } from "./card-cell.js";
import { resultsOf } from "./verify.js";

export const CONTRACT_CARD_ROWS = [{ id: "formContract", title: "form contract: answers handled as the spec says" }] as const;

type Result = { status?: unknown; computed?: unknown; value?: unknown; error?: unknown } | undefined;

/** Why one case's result is not what the spec asks; undefined when it is. */
function problem(name: string, result: Result): string | undefined {
  if (result === undefined) return "no result";
  if (result.error !== undefined) return "the call failed";
  const valid = name === "accept_valid";
  if (valid ? result.computed === true && result.value === 21 : result.computed === false) return undefined;
  return typeof result.status === "string" ? result.status : "computed";
}

export function formContractCell(run: { events: TimelineEvent[] }): CellValue {
  const results = resultsOf(run.events) as Record<string, Result>;
  const wrong = CARD_CONTRACT_CASES.flatMap((name) => {
    const why = problem(name, results[name]);
    return why === undefined ? [] : [`${name} (${why})`];
  });
  const held = CARD_CONTRACT_CASES.length - wrong.length;
  const value = `${held} of ${CARD_CONTRACT_CASES.length}${wrong.length ? `; not as the spec says: ${wrong.join(", ")}` : ""}`;
  return { value, text: value, tone: wrong.length ? "unsafe" : "safe" };
}
