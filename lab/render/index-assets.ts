// The inline CSS and script of run-output/index.html (the CSS also of each run page). Outcomes are words (PASS/FAIL) with a
// border that differs in shape, so colour is never the only cue; below 40rem the run lines
// wrap and the tables scroll sideways inside their own box.
export const PAGE_CSS = `
:root { color-scheme: light; --fail: #b91c1c; --pass: #166534; --line: #d1d5db; --soft: #f3f4f6; --focus: #1d4ed8; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { font: 16px/1.45 system-ui, "DejaVu Sans", Helvetica, Arial, sans-serif; color: #111827; margin: 0 auto; max-width: 76rem; padding: 1rem; }
h1 { font-size: 1.5rem; margin: .2rem 0 .5rem; }
h2 { font-size: 1.2rem; margin: 1.5rem 0 .5rem; }
h3 { font-size: 1rem; margin: 1rem 0 .3rem; }
a { color: #1e40af; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
code, pre { font-family: "DejaVu Sans Mono", ui-monospace, monospace; font-size: .85rem; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--soft); padding: .4rem .6rem; margin: .3rem 0 .6rem; border-radius: 4px; }
.totals { font-size: 1.05rem; }
.help { color: #374151; }
nav ul { padding-left: 1.2rem; }
.filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; padding: .5rem 0; border-bottom: 1px solid var(--line); }
.filters label { display: flex; flex-direction: column; font-size: .85rem; font-weight: 600; }
.filters select, .filters button { font: inherit; font-weight: normal; min-height: 2.4rem; min-width: 8rem; max-width: 100%; }
.filters p { margin: 0 0 .4rem; }
ol.runs { list-style: none; padding: 0; margin: 0; }
ol.runs > li { margin: .35rem 0; }
ol.runs > li { display: grid; grid-template-columns: 5.5rem minmax(7rem, 1fr) minmax(12rem, 2fr) 5rem 5.5rem; gap: .2rem .6rem; align-items: baseline; padding: .45rem .6rem; border: 1px solid var(--line); border-left: 8px solid var(--line); border-radius: 6px; }
ol.runs > li[data-outcome="fail"] { border: 2px dashed var(--fail); border-left-width: 8px; border-left-style: solid; }
.runs .name { font-weight: 600; overflow-wrap: anywhere; }
.runs .failing { grid-column: 2 / -1; font-weight: 600; overflow-wrap: anywhere; }
.runs .peers { font-size: .85rem; overflow-wrap: anywhere; }
/* What happened, coloured by what happened (the verdict has its own mark): the words carry it too. */
.happened { font-weight: 600; overflow-wrap: anywhere; }
.runs .happened { grid-column: 2 / -1; }
.happened.completed { color: var(--pass); }
.happened.deadlock, .happened.broken { color: #9a3412; }
.happened.deadlock, .happened.broken { border-left: 4px double #9a3412; padding-left: .4rem; }
.happened.failed { color: var(--fail); }
.happened.failed { border-left: 4px solid var(--fail); padding-left: .4rem; }
.outcome { justify-self: start; display: inline-block; font-weight: 700; font-size: .85rem; padding: 0 .35rem; border-radius: 3px; white-space: nowrap; }
.outcome.pass { color: var(--pass); border: 1px solid var(--pass); }
.outcome.fail { color: #fff; background: var(--fail); border: 2px solid #7f1d1d; }
.outcome.other { border: 1px dotted #374151; }
.body { padding: .5rem .8rem .8rem; }
dl.meta { display: grid; grid-template-columns: 7rem 1fr; gap: .15rem .8rem; margin: 0 0 .5rem; }
dl.meta dt { font-weight: 600; }
dl.meta dd { margin: 0; overflow-wrap: anywhere; }
ul.verdicts { list-style: none; padding: 0; margin: 0; }
ul.verdicts li { padding: .15rem 0; }
ul.verdicts li.bad { border-left: 4px solid var(--fail); padding-left: .5rem; margin: .3rem 0; }
.scroll { overflow-x: auto; max-width: 100%; }
.diagram { margin: .5rem 0; }
.diagram img { display: block; max-width: none; border: 1px solid var(--line); }
.diagram figcaption { font-size: .85rem; margin-top: .25rem; }
table { border-collapse: collapse; font-size: .9rem; }
th, td { border: 1px solid var(--line); padding: .25rem .5rem; text-align: left; vertical-align: top; }
thead th { background: var(--soft); }
@media (max-width: 40rem) {
  body { padding: .6rem; }
  ol.runs > li { display: flex; flex-wrap: wrap; gap: .15rem .6rem; }
  .runs .name { flex-basis: calc(100% - 8rem); }
  .runs .failing, .runs .happened, .runs .peers { flex-basis: 100%; }
  dl.meta { grid-template-columns: 1fr; }
  dl.meta dd { margin-bottom: .3rem; }
  .filters label { flex: 1 1 40%; }
  .filters select { min-width: 0; width: 100%; }
}
`;

// Filters hide runs whose data-* attributes differ from the chosen values; a link to a run
// (#id) shows it and puts the focus on its link. Without this script the filters stay hidden
// and every run is listed.
export const PAGE_SCRIPT = `
(() => {
  const form = document.getElementById("filters");
  const shown = document.getElementById("shown");
  const runs = Array.from(document.querySelectorAll("[data-run]"));
  const keys = ["scenario", "peers", "transport", "outcome"];
  function apply() {
    let n = 0;
    for (const item of runs) {
      const visible = keys.every((k) => form.elements[k].value === "" || item.dataset[k] === form.elements[k].value);
      item.hidden = !visible;
      if (visible) n++;
    }
    shown.textContent = n + " of " + runs.length + " runs shown";
  }
  function openTarget() {
    const target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    if (!target || !target.matches("[data-run]")) return;
    target.hidden = false;
    target.querySelector("a").focus();
  }
  form.hidden = false;
  form.addEventListener("change", apply);
  form.addEventListener("submit", (event) => event.preventDefault());
  document.getElementById("show-all").addEventListener("click", () => {
    for (const k of keys) form.elements[k].value = "";
    apply();
  });
  window.addEventListener("hashchange", openTarget);
  apply();
  openTarget();
})();
`;
