// The report card's first row (issue #28): does the client answer a form at all? Two facts of
// the nested run, both read from the evidence: the client declared form elicitation on the wire
// (initialize's capabilities, or in 2026-07-28 the clientCapabilities _meta of its requests), and
// a server's elicitation/create reached its handler (callback.entered). A client that declares no
// form elicitation is never asked: every other row of its card is "-" (lab/cli/card.ts).
import type { CellValue } from "./card-cell.js";
import type { TimelineEvent, WireFrame } from "../history/timeline.js";
import { isRequest } from "../history/frames.js";

export const FORM_CARD_ROWS = [{ id: "formAnswered", title: "answers a form at all" }] as const;

/** The 2026-07-28 request _meta key that carries the client's capabilities. */
const CLIENT_CAPABILITIES_META_KEY = "io.modelcontextprotocol/clientCapabilities";

export const FORM_ANSWERED = "yes";
export const DECLARES_NO_FORM = "no: the client declares no form elicitation";
export const NO_FORM_REACHED = "no: declares form elicitation, but no form reached its handler";

type Capabilities = { elicitation?: unknown } | undefined;

/** The capabilities the client declared: initialize's, else the first request's 2026-07-28 _meta. */
function declaredCapabilities(wire: readonly WireFrame[]): Capabilities {
  for (const f of wire) {
    if (f.from !== "client" || !isRequest(f.label)) continue;
    const params = (f.message as { params?: { capabilities?: unknown; _meta?: Record<string, unknown> } }).params;
    if (f.label.method === "initialize") return params?.capabilities as Capabilities;
    const meta = params?._meta?.[CLIENT_CAPABILITIES_META_KEY];
    if (meta !== undefined) return meta as Capabilities;
  }
  return undefined;
}

/** Form mode declared: `elicitation: {}` means form only (spec 2025-11-25, backwards compatible), or `form` is named. */
export function declaresForm(wire: readonly WireFrame[]): boolean {
  const e = declaredCapabilities(wire)?.elicitation;
  if (e === null || typeof e !== "object") return false;
  return Object.keys(e).length === 0 || "form" in e;
}

const formReachedHandler = (events: readonly TimelineEvent[]) =>
  events.some((e) => e.side === "client" && e.kind === "callback.entered" && (e.method === undefined || e.method === "elicitation/create"));

export function formAnsweredCell(run: { events: readonly TimelineEvent[]; wire: readonly WireFrame[] }): CellValue {
  if (!declaresForm(run.wire)) return { value: DECLARES_NO_FORM, text: DECLARES_NO_FORM, tone: "unsafe" };
  if (!formReachedHandler(run.events)) return { value: NO_FORM_REACHED, text: NO_FORM_REACHED, tone: "n/a" };
  return { value: FORM_ANSWERED, text: FORM_ANSWERED, tone: "safe" };
}
