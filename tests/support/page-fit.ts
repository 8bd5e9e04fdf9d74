// Checks run inside the browser page (page.evaluate): text cut by its box, and SVG text outside
// the box it belongs to. Each returns a list of what is wrong (empty: nothing). They are strings
// of source: tsx would wrap a compiled function's inner helpers in a __name() the page lacks.

/** Elements whose content is wider than their box, outside the boxes made to scroll sideways. */
export const cutText = `(() => {
  const bad = [];
  for (const el of Array.from(document.body.querySelectorAll("*"))) {
    if (el.clientWidth === 0 || el.closest(".scroll") || el.tagName === "SELECT" || el.tagName === "OPTION") continue;
    if (el.scrollWidth > el.clientWidth + 1) bad.push(el.tagName.toLowerCase() + "." + el.className + ": " + el.scrollWidth + " > " + el.clientWidth + " px: " + (el.textContent ?? "").slice(0, 60));
  }
  return bad;
})()`;

/** SVG texts beyond the picture, beyond their card cell, or a card row title running into the cells. */
export const svgCut = `(() => {
  const bad = [];
  const svg = document.querySelector("svg");
  const frame = svg.getBoundingClientRect();
  const inside = (r, box) => r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5;
  for (const t of Array.from(svg.querySelectorAll("text"))) {
    const r = t.getBoundingClientRect();
    if (!inside(r, frame)) bad.push("outside the picture: " + t.textContent);
    const cell = t.closest("g.cell")?.querySelector("rect");
    if (cell && !inside(r, cell.getBoundingClientRect())) bad.push("outside its cell: " + t.textContent);
    const deadlock = t.closest("g.note.deadlock")?.querySelector("rect");
    if (deadlock && !inside(r, deadlock.getBoundingClientRect())) bad.push("outside the deadlock box: " + t.textContent);
  }
  const firstCell = svg.querySelector("g.cell rect")?.getBoundingClientRect().left;
  if (firstCell !== undefined)
    for (const t of Array.from(svg.querySelectorAll("g.row-title text"))) if (t.getBoundingClientRect().right > firstCell) bad.push("row title into the cells: " + t.textContent);
  return bad;
})()`;
