// A timeline (Gantt chart) as SVG: one bar per row, placed by its start and end. Shared by the
// Run tab's walk and the Plan / Apply tab's apply. Labels and tooltips are text nodes, never markup.

const SVG = "http://www.w3.org/2000/svg";
const W = 560; // the viewBox's width
const L = 190; // the labels' column
const ROW = 12;

/** An SVG element with attributes and, optionally, text. */
export function svgEl(tag, attrs = {}, text) {
  const n = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  if (text !== undefined) n.textContent = text;
  return n;
}

/**
 * The chart of `rows` (`{ name, label?, start, end, classes?: string[], title?, data?: object }`,
 * times in ms, drawn in the order given), scaled from the earliest start to the latest end.
 * `testid` names the chart, `barTestid` each bar; a bar's `data` become its data-* attributes.
 * `range: [t0, t1]` fixes the time axis (a chart of the first rows of many keeps their scale).
 */
export function gantt(rows, { title, testid, barTestid, range }) {
  const t0 = range?.[0] ?? Math.min(...rows.map((r) => r.start));
  const t1 = range?.[1] ?? Math.max(...rows.map((r) => r.end));
  const span = Math.max(1, t1 - t0);
  const chart = svgEl("svg", { viewBox: `0 0 ${W} ${rows.length * ROW + 18}`, class: "gantt", "data-testid": testid, role: "img" });
  chart.append(svgEl("title", {}, title));
  rows.forEach((r, i) => {
    const x = L + ((r.start - t0) / span) * (W - L - 8);
    const w = Math.max(1.5, ((r.end - r.start) / span) * (W - L - 8));
    const y = i * ROW + 2;
    const label = r.label ?? r.name;
    chart.append(svgEl("text", { x: L - 4, y: y + 9, "text-anchor": "end", class: "gantt-label" }, label.length > 34 ? `${label.slice(0, 33)}…` : label));
    const bar = svgEl("rect", { x, y, width: w, height: ROW - 3, class: ["gantt-bar", ...(r.classes ?? [])].join(" "), "data-testid": barTestid });
    for (const [k, v] of Object.entries(r.data ?? {})) bar.dataset[k] = String(v);
    bar.append(svgEl("title", {}, r.title ?? `${r.name}: ${Math.round(r.start - t0)}–${Math.round(r.end - t0)} ms`));
    chart.append(bar);
  });
  chart.append(
    svgEl("text", { x: L, y: rows.length * ROW + 14, class: "gantt-axis" }, "0 ms"),
    svgEl("text", { x: W - 8, y: rows.length * ROW + 14, class: "gantt-axis", "text-anchor": "end" }, `${Math.round(span)} ms`),
  );
  return chart;
}
