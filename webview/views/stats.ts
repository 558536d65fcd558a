/**
 * The generation-statistics view: headline counts, event() labels as horizontal bars, and the distribution
 * of test-case sizes as a column chart. Bar lengths are set through the CSSOM (`.style`), which the panel's
 * CSP allows, unlike style attributes.
 */
import type { Bar, Figure, StatsLayout } from "../layout/stats.ts";
import { part, type Sel, text } from "./dom.ts";

function bars(host: Sel, cls: string, data: readonly Bar[], empty: string, vertical: boolean): void {
  const list = part(host, "div", `bars ${cls}`, (s) => s.attr("role", "list"));
  part(host, "p", `empty ${cls}`).call(text, data.length === 0 ? empty : "");
  list
    .selectAll<HTMLDivElement, Bar>("div.bar")
    .data(data, (d) => d.key)
    .join((enter) => {
      const row = enter.append("div").attr("class", "bar").attr("role", "listitem");
      row.append("span").attr("class", "name");
      row.append("span").attr("class", "track").append("span").attr("class", "fill");
      row.append("span").attr("class", "count");
      return row;
    })
    .attr("aria-label", (d) => `${d.label}: ${d.text}`)
    .call((row) => {
      // A bin's range may break after its dash in a narrow column ("128–" over "255") rather than be cut.
      row.select("span.name").call(text, (d) => (vertical ? d.label.replace("–", "–\u200b") : d.label));
      // A column's count over its share, two lines (they fit a narrow panel's columns); a bar's on one.
      row.select("span.count").call(text, (d) => (vertical ? `${d.count}\n${d.share}` : d.text));
      row.select("span.fill").style(vertical ? "height" : "width", (d) => `${(100 * d.fraction).toFixed(1)}%`);
    })
    .order();
}

export function drawStats(host: Sel, lay: StatsLayout): void {
  part(host, "dl", "figures")
    .selectAll<HTMLDivElement, Figure>("div")
    .data(lay.figures, (d) => d.key)
    .join((enter) => {
      const d = enter.append("div").attr("class", "figure");
      d.append("dt");
      d.append("dd");
      return d;
    })
    .attr("title", (d) => d.title)
    .call((d) => {
      d.select("dt").call(text, (f) => f.label);
      d.select("dd").call(text, (f) => f.value);
    });
  part(host, "h3", "labels-title").call(text, "event() labels");
  bars(
    host,
    "labels",
    lay.labels,
    'No event() labels: call event("…") in the property to see how cases divide.',
    false,
  );
  part(host, "h3", "sizes-title").call(text, "Size of generated cases (choices)");
  bars(host, "sizes", lay.sizes, "No generated cases yet.", true);
  part(host, "p", "note").call(text, lay.note);
}
