// <run>.html beside run-output/index.html: one run's own page, where its details live (the
// index keeps one line per run). Its checks against the hand-written expectation, the errors
// recorded, its parity verdicts, and its sequence diagram as the SVG file beside it, linked with
// <img src> under a CSP that allows images from the folder only ('self'), nothing inline but
// the CSS. Every link is relative: the folder can be shared as it is.
import type { PageRun } from "./page-run.js";
import { PAGE_CSS } from "./index-assets.js";
import { INDEX_FILE, pageRuns, runTitle, type IndexInput } from "./index-page.js";
import { outcomeWord, parityList, verdictList } from "./index-parts.js";
import { resultLine } from "./report.js";
import { esc } from "./svg.js";
import { rpc } from "./story.js";
import { unreadFrames } from "./unread.js";

export function renderRunPage(r: PageRun): string {
  const title = runTitle(r);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self'; style-src 'unsafe-inline'">
<title>${r.ok ? "PASS" : "FAIL"}: ${esc(title)}</title>
<style>${PAGE_CSS}</style>
</head>
<body>
<header>
<p><a href="${INDEX_FILE}">Every run in this folder</a></p>
<h1>${esc(title)}</h1>
<p class="totals">${outcomeWord(r.ok)} <span class="happened ${r.outcome.kind}">${esc(r.outcome.words)}</span></p>
${r.failing.length ? `<p class="failing">fails: ${esc(r.failing.join("; "))}</p>` : ""}
</header>
<main class="run">
<dl class="meta">
<dt>results</dt><dd>${esc(resultLine(r.run) || "none recorded")}</dd>
<dt>peers</dt><dd>${esc(r.peersWhat)}</dd>
<dt>checks</dt><dd>${r.run.verdicts.filter((v) => v.ok).length} of ${r.run.verdicts.length} hold</dd>
<dt>duration</dt><dd>${r.run.durationMs.toFixed(0)} ms${r.run.negotiatedProtocol ? ` · protocol ${esc(r.run.negotiatedProtocol)}` : ""}</dd>
<dt>expected</dt><dd><code>${esc(r.report.expectedFile)}</code></dd>
${unreadRows(r)}</dl>
<h2>Checks</h2>
${verdictList(r.run.verdicts)}
${r.run.errors.length ? `<h2>Errors recorded</h2><ul class="errors">${r.run.errors.map((e) => `<li><pre>${esc(e)}</pre></li>`).join("")}</ul>` : ""}
${r.parity.length ? `<h2>Parity</h2>${parityList(r.parity)}` : ""}
${diagram(r, title)}
</main>
</body>
</html>
`;
}

/** Frames a client in another process left unread while a callback held its loop (the diagram's amber bands). */
function unreadRows(r: PageRun): string {
  return [...unreadFrames(r.run.events, r.run.wire)]
    .map(([index, u]) => {
      const label = r.run.wire[index]?.label;
      const what = `${label ? rpc(label) : `frame ${index}`} waited ${(u.read - u.onPipe).toFixed(1)} ms unread on the client's pipe, behind ${String(u.behindMethod)} #${String(u.behindId)}: from the wire (${u.onPipe.toFixed(1)} ms) to ${u.readBy} (${u.read.toFixed(1)} ms)${u.late ? ", after its requester gave up" : ""}`;
      return `<dt>unread</dt><dd>${esc(what)}</dd>\n`;
    })
    .join("");
}

function diagram(r: PageRun, title: string): string {
  if (r.scenario === "contract") return "";
  if (!r.hasSvg) return `<p>No sequence diagram in this folder for this run.</p>`;
  const alt = `sequence diagram of ${title}, from the recorded wire and timeline`;
  const file = esc(encodeURI(r.svgFile));
  return `<h2>Sequence diagram</h2><figure class="diagram"><div class="scroll" tabindex="0" role="region" aria-label="${esc(alt)}"><img src="${file}" alt="${esc(alt)}"></div><figcaption><a href="${file}">${esc(r.svgFile)}</a> (the same diagram as a file)</figcaption></figure>`;
}

/** Every run's page: its file name (beside index.html) and its text. */
export function renderRunPages(input: IndexInput): { file: string; html: string }[] {
  const { scenarioRuns, contractRuns } = pageRuns(input);
  return [...scenarioRuns, ...contractRuns].map((r) => ({ file: r.page, html: renderRunPage(r) }));
}
