// A host's row, read from its run's wire (pure): what it declared at initialize, the protocol the
// session settled on, what it sent first, what each form got, pings the probe sent while a form was
// open and how many were answered before the form, the most forms open at once, and the probe's
// verdict from the server's own reply. Then each cell against the host's hand-written card.
import type { WireFrame } from "../history/timeline.js";
import type { HostCard, HostCells, HostDeclares } from "../plan/host-card.js";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});
const msg = (f: WireFrame): Json => obj(f.message);
const isRequest = (f: WireFrame, method: string) => f.label.frameType === "request" && f.label.method === method;
const replyOf = (wire: readonly WireFrame[], request: WireFrame) => wire.find((f) => f.replyTo === request.index);

/** the cell when a host declares no form: the probe's form is never sent */
export const CANNOT_ANSWER = "cannot answer a form";

/** What initialize declared: an empty `elicitation` object is form (2025-06-18's only mode). */
export function declaresOf(capabilities: Json): HostDeclares {
  const elicitation = capabilities.elicitation === undefined ? undefined : obj(capabilities.elicitation);
  const modes = elicitation === undefined ? [] : Object.keys(elicitation);
  return {
    form: elicitation !== undefined && (modes.length === 0 || modes.includes("form")),
    url: modes.includes("url"),
    sampling: capabilities.sampling !== undefined,
    roots: capabilities.roots !== undefined,
  };
}

/** The cells a run's wire shows, or why they cannot be read (no initialize, no tool call). */
export function cellsOf(wire: readonly WireFrame[], tool: string): { cells: HostCells; triedFirst?: string; pingsWhileOpen?: { sent: number; answeredFirst: number }; nested?: string } | { why: string } {
  const init = wire.find((f) => f.from === "client" && isRequest(f, "initialize"));
  if (!init) return { why: "it sent no initialize" };
  const initReply = replyOf(wire, init);
  const protocol = String(obj(obj(initReply && msg(initReply)).result).protocolVersion ?? "none");
  const declares = declaresOf(obj(obj(msg(init).params).capabilities));
  const before = wire.filter((f) => f.index < init.index && f.from === "client" && f.label.frameType === "request");
  const triedFirst = before.length === 0 ? undefined : before.map((f) => `${f.label.method}${protocolMeta(f)}`).join(", ");
  const call = wire.find((f) => f.from === "client" && isRequest(f, "tools/call") && obj(msg(f).params).name === tool);
  if (!call) return { why: `it never called ${tool} on the server` };
  const forms = wire.filter((f) => f.from === "server" && isRequest(f, "elicitation/create"));
  const formGot = forms.length === 0 ? "never sent" : forms.map((f) => answerOf(replyOf(wire, f))).join(", ");
  const callReply = replyOf(wire, call);
  const structured = obj(callReply && msg(callReply)).result === undefined ? undefined : obj(obj(msg(callReply!).result).structuredContent);
  const verdict = !declares.form ? CANNOT_ANSWER : structured?.verdict === undefined ? "no probe result" : String(structured.verdict);
  return { cells: { declares, protocol, formGot, verdict, formsAtOnce: formsAtOnce(wire, forms) }, ...(triedFirst && { triedFirst }), ...(forms[0] && { pingsWhileOpen: pingsWhileOpen(wire, forms[0]) }), ...(forms[0] && nestedWhileOpen(wire, forms[0])) };
}

const protocolMeta = (f: WireFrame) => {
  const v = obj(obj(obj(msg(f).params)._meta))["io.modelcontextprotocol/protocolVersion"];
  return typeof v === "string" ? ` (${v})` : "";
};

function answerOf(reply: WireFrame | undefined): string {
  if (!reply) return "no answer";
  const m = msg(reply);
  if (m.error !== undefined) return `error ${String(obj(m.error).code)}`;
  return String(obj(m.result).action ?? "no action");
}

/** the most elicitation requests open at once: each counts from its frame until its reply's */
function formsAtOnce(wire: readonly WireFrame[], forms: readonly WireFrame[]): number {
  const ends = new Map(forms.map((f) => [f.index, replyOf(wire, f)?.index ?? Infinity]));
  return forms.reduce((most, f) => Math.max(most, forms.filter((g) => g.index <= f.index && ends.get(g.index)! > f.index).length), 0);
}

/** pings the server sent while `form` was open, and how many of their replies came before the form's */
function pingsWhileOpen(wire: readonly WireFrame[], form: WireFrame): { sent: number; answeredFirst: number } {
  const end = replyOf(wire, form)?.index ?? Infinity;
  const pings = wire.filter((f) => f.from === "server" && isRequest(f, "ping") && f.index > form.index && f.index < end);
  return { sent: pings.length, answeredFirst: pings.filter((p) => (replyOf(wire, p)?.index ?? Infinity) < end).length };
}

/** The requests the host sent the server while `form` was open (an answerer's nested requests,
 *  passed on by the host), and whether each reply reached the host before the form's did. A host
 *  may send several at once (codex's app server sends resources/list and resources/templates/list
 *  together), in either order: methods are named sorted, grouped by when their replies came. */
function nestedWhileOpen(wire: readonly WireFrame[], form: WireFrame): { nested: string } | undefined {
  const end = replyOf(wire, form)?.index ?? Infinity;
  const sent = wire.filter((f) => f.from === "client" && f.label.frameType === "request" && f.index > form.index && f.index < end);
  if (sent.length === 0) return undefined;
  const whenOf = (request: WireFrame) => {
    const reply = replyOf(wire, request);
    return !reply ? NESTED_WHEN[2] : reply.index < end ? NESTED_WHEN[0] : NESTED_WHEN[1];
  };
  const groups = NESTED_WHEN.map((when) => ({ when, methods: [...new Set(sent.filter((f) => whenOf(f) === when).map((f) => String(f.label.method)))].sort() }));
  return { nested: groups.filter((g) => g.methods.length > 0).map((g) => `${g.methods.join(", ")} ${g.when}`).join("; ") };
}
const NESTED_WHEN = ["answered while the form was open", "answered after the form", "never answered"] as const;

/** From a probe_fan_out run's wire: how many forms the host's answerer worked on at once, the
 *  probe's own inference (`aboutAtOnce`), or undefined when the probe could not tell. */
export function fanOutAtOnce(wire: readonly WireFrame[]): number | undefined {
  const call = wire.find((f) => f.from === "client" && isRequest(f, "tools/call") && obj(msg(f).params).name === "probe_fan_out");
  const reply = call && replyOf(wire, call);
  const about = obj(obj(reply && msg(reply)).result).structuredContent;
  const n = obj(about).aboutAtOnce;
  return typeof n === "number" ? n : undefined;
}

/** Each cell that differs from the card: "<cell>: card says X, the run showed Y". */
export function cardDifferences(cells: HostCells, card: HostCard): string[] {
  const out: string[] = [];
  for (const key of ["form", "url", "sampling", "roots"] as const)
    if (cells.declares[key] !== card.cells.declares[key]) out.push(`declares ${key}: card says ${card.cells.declares[key]}, the run showed ${cells.declares[key]}`);
  for (const key of ["protocol", "formGot", "verdict", "formsAtOnce"] as const)
    if (cells[key] !== card.cells[key]) out.push(`${key}: card says ${card.cells[key]}, the run showed ${cells[key]}`);
  return out;
}
