// The hosts table, as text for the terminal and as the page `hosts` writes: one row per host,
// each cell from its run, and where the run and the hand-written card differ. Renders only.
import type { HostCard, HostRow } from "../plan/host-card.js";
import type { WireFrame } from "../history/timeline.js";

export interface HostLine {
  row: HostRow;
  card?: HostCard;
  /** cells that differ from the card ("<cell>: card says X, the run showed Y") */
  differs: string[];
}

const HEAD = ["host", "version", "form", "url", "sampling", "roots", "protocol", "a form gets", "receive loop", "forms at once", "card"];
const yes = (b: boolean) => (b ? "yes" : "no");

function cellsOf(line: HostLine): string[] {
  const { row } = line;
  const card = line.card === undefined ? "no card" : line.differs.length === 0 ? "matches" : `${line.differs.length} differ`;
  if (!row.cells) return [row.host, row.version ?? "-", `not run: ${row.notRun ?? "?"}`, "", "", "", "", "", "", "", card];
  const c = row.cells;
  return [row.host, row.version ?? "-", yes(c.declares.form), yes(c.declares.url), yes(c.declares.sampling), yes(c.declares.roots), c.protocol, c.formGot, c.verdict, String(c.formsAtOnce), card];
}

/** The table as aligned text, then each difference and each host not run on a line of its own. */
export function renderHostsText(lines: readonly HostLine[]): string {
  const rows = [HEAD, ...lines.map(cellsOf)];
  const widths = HEAD.map((_, i) => Math.max(...rows.filter((r) => !(r[2] ?? "").startsWith("not run") || i < 2).map((r) => (r[i] ?? "").length)));
  const text = rows.map((r) => ((r[2] ?? "").startsWith("not run") ? r.slice(0, 3).map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c)).join("  ") : r.map((c, i) => c.padEnd(widths[i]!)).join("  ")).trimEnd());
  const notes = lines.flatMap((l) => [...l.differs.map((d) => `${l.row.host}: ${d}`), ...(l.row.triedNetwork ? [`${l.row.host} tried the network (refused): ${l.row.triedNetwork.join(", ")}`] : [])]);
  return [...text, ...(notes.length ? ["", ...notes] : [])].join("\n");
}

const md = (s: string) => s.replace(/\|/g, "\\|");

/** The README's hosts block, from the hand-written host cards only (what `hosts` checks each run
 *  against): one row per host in the order given, what it declares and what a form gets. */
export function renderHostCardsReadme(cards: readonly HostCard[], page: string): string {
  // the probe's not_run: the form ended at once, so no ping was sent while one was open
  const loop = (v: string) => (v === "not_run" ? "not probed: no form stays open" : v);
  const declared = (c: HostCard) => (["form", "url", "sampling", "roots"] as const).filter((k) => c.cells.declares[k]).join(", ") || "nothing";
  return [
    "| host | package | declares | a form gets | receive loop | forms at once |",
    "|---|---|---|---|---|---|",
    ...cards.map((c) => `| [${c.host}](${page}) | ${c.package} ${c.version} | ${declared(c)} | ${md(c.cells.formGot)} | ${md(loop(c.cells.verdict))} | ${c.cells.formsAtOnce} |`),
  ].join("\n");
}

/** The page: the table, then per host what it sent first, the pings while a form was open, what
 *  the scripted model was asked, and where its card's claims are read. */
export function renderHostsMarkdown(lines: readonly HostLine[]): string {
  const out = [
    "# What your users' hosts do with your form",
    "",
    "Each host runs headless with a fresh HOME, pointed at the lab's scripted model on 127.0.0.1, which asks it to call the probe's",
    "`probe_receive_loop`; the host's one MCP server is the lab's stdio server, through the lab's recording bridge. Each cell is read",
    "from that run's wire and compared with the host's hand-written card (`expected/hosts/<host>.json`).",
    "",
    `| ${HEAD.join(" | ")} |`,
    `|${HEAD.map(() => "---").join("|")}|`,
    ...lines.map((l) => `| ${cellsOf(l).map(md).join(" | ")} |`),
    "",
  ];
  for (const l of lines) {
    out.push(`## ${l.row.host}`, "");
    if (l.row.notRun) out.push(`Not run: ${md(l.row.notRun)}`, "");
    if (l.row.triedFirst) out.push(`Before initialize it sent: ${l.row.triedFirst}.`, "");
    if (l.row.triedNetwork) out.push(`A finding: it tried to reach ${l.row.triedNetwork.map((t) => `\`${t}\``).join(", ")}; the lab's proxy refused it.`, "");
    if (l.row.nested) out.push(`From inside the answerer, through the host: ${l.row.nested}.`, "");
    if (l.row.pingsWhileOpen) out.push(`Pings while the form was open: ${l.row.pingsWhileOpen.sent}, answered before the form: ${l.row.pingsWhileOpen.answeredFirst}.`, "");
    out.push(`The scripted model was asked ${l.row.modelPhases.length} times: ${l.row.modelPhases.join(", ") || "never"}. Ran in ${l.row.seconds.toFixed(1)} s.`, "");
    for (const d of l.differs) out.push(`- differs from its card: ${md(d)}`);
    if (l.card) out.push(...l.card.sources.map((s) => `- card, ${s.for}: \`${s.file}\` says \`${md(s.says)}\``));
    out.push("");
  }
  return `${out.join("\n").trimEnd()}\n`;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});

/** A reply in words: its error code, or "result" (a form's with its action). */
function replyWords(reply: WireFrame | undefined): string {
  if (!reply) return "no reply";
  const m = obj(reply.message);
  if (reply.label.frameType === "error") return `error ${String(obj(m.error).code)}`;
  return obj(m.result).action ? `result, ${String(obj(m.result).action)}` : "result";
}

/** A request or notification in words, with the reply it got on the same line: the order in
 *  which concurrent replies came back is the pipe's, not the host's. */
function frameWords(f: WireFrame, wire: readonly WireFrame[]): string {
  const m = obj(f.message);
  const version = obj(obj(m.params)._meta)["io.modelcontextprotocol/protocolVersion"] ?? obj(m.params).protocolVersion;
  const sent = `${f.label.method}${typeof version === "string" && f.from === "client" ? ` (${version})` : ""}`;
  return `  ${f.from.padEnd(6)} ${f.label.frameType === "request" ? `${sent}: ${replyWords(wire.find((r) => r.replyTo === f.index))}` : sent}`;
}

/** A host's requests in the order they were sent, each with its reply; requests one side sent
 *  together (each before the reply to the one before it: codex's app server sends resources/list
 *  and resources/templates/list at once, in either order) sorted by method; pings folded into one
 *  line after the form they were sent under (their number is the machine's pace, not the host's). */
export function renderHostWire(host: string, wire: readonly WireFrame[], pings?: HostRow["pingsWhileOpen"]): string[] {
  const out = [`${host}:`];
  let together: { last: WireFrame; lines: string[] } | undefined;
  const flush = () => {
    if (together) out.push(...together.lines.sort());
    together = undefined;
  };
  for (const f of wire) {
    if (f.label.method === "ping" || f.label.frameType === "result" || f.label.frameType === "error") continue;
    const request = f.label.frameType === "request";
    const replyIndex = together && (wire.find((r) => r.replyTo === together!.last.index)?.index ?? Infinity);
    if (together && request && f.from === together.last.from && replyIndex! > f.index) together = { last: f, lines: [...together.lines, frameWords(f, wire)] };
    else {
      flush();
      if (request && f.label.method !== "elicitation/create") together = { last: f, lines: [frameWords(f, wire)] };
      else out.push(frameWords(f, wire));
    }
    if (pings && f.label.method === "elicitation/create" && request)
      out.push(`  ${"".padEnd(6)} (the server's pings while the form was open: ${pings.answeredFirst > 0 ? "answered while it was open" : "none answered before it closed"})`);
  }
  flush();
  return out;
}
