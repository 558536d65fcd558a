/**
 * The shrink-progress view: the target's sort key over the run (length, then index sum) as step charts, the
 * current value labelled at the end of each line; below, a table of the passes — runs, calls, accepted
 * shrinks — with the pass running now highlighted; at the end, total calls and time.
 */
import type { ChartPanel, ProgressLayout, Tick } from "../layout/progress.ts";
import { MARGIN, PANEL_H } from "../layout/progress.ts";
import type { TargetRow } from "../models/progress.ts";
import { attr, classed, part, svgPart, type Sel, text } from "./dom.ts";

type PassRowData = ProgressLayout["passes"][number];

export function drawProgress(host: Sel, lay: ProgressLayout): void {
  part(host, "p", "status").call(
    text,
    lay.totals ??
      (lay.currentPass
        ? `Running pass: ${lay.currentPass}`
        : lay.points === 0
          ? "Shrinking starts once a failing case is found."
          : "Between passes."),
  );
  drawTargets(host, lay.targets);
  const svg = svgPart(host, "svg", "chart", (s) => s.call(attr, "role", "img"));
  const last = lay.panels.map((p) => `${p.title} ${p.last?.label ?? "—"}`).join(", ");
  svg
    .call(attr, "width", lay.width)
    .call(attr, "height", lay.height)
    .call(attr, "aria-label", `Sort key of the shrink target over ${lay.points} accepted shrinks: now ${last}`);
  const plot = svgPart(svg, "g", "plot").call(attr, "transform", `translate(${MARGIN.left},0)`);

  const panels = plot
    .selectAll<SVGGElement, ChartPanel>("g.panel")
    .data(lay.panels, (d) => d.key)
    .join((enter) => {
      const g = enter.append("g").call(attr, "class", (d) => `panel ${d.key}`);
      g.append("rect").call(attr, "class", "frame").call(attr, "height", PANEL_H);
      // Above the frame, clear of the line, its label and the other panel's ticks.
      g.append("text").call(attr, "class", "title").call(attr, "x", 0).call(attr, "y", -4);
      g.append("g").call(attr, "class", "yticks");
      g.append("path").call(attr, "class", "line");
      g.append("circle").call(attr, "class", "now").call(attr, "r", 3);
      g.append("text").call(attr, "class", "now-label").call(attr, "dy", "-0.5em").call(attr, "text-anchor", "end");
      return g;
    })
    .call(attr, "transform", (d) => `translate(0,${d.y})`);
  panels.select("rect.frame").call(attr, "width", lay.innerWidth);
  panels.select("text.title").call(text, (d) => d.title);
  panels.select("path.line").call(attr, "d", (d) => d.path);
  panels
    .select("circle.now")
    .call(attr, "visibility", (d) => (d.last ? "visible" : "hidden"))
    .call(attr, "cx", (d) => d.last?.x ?? 0)
    .call(attr, "cy", (d) => d.last?.y ?? 0);
  panels
    .select("text.now-label")
    .call(attr, "x", (d) => Math.max(60, d.last?.x ?? 0))
    .call(attr, "y", (d) => Math.max(18, d.last?.y ?? 0))
    .call(text, (d) => d.last?.label ?? "");
  panels.each(function (d) {
    const g = svgPart(plot.select(`g.panel.${d.key}`), "g", "yticks");
    g.selectAll<SVGTextElement, Tick>("text")
      .data(d.yTicks, (t) => t.key)
      .join("text")
      .call(attr, "x", -6)
      .call(attr, "y", (t) => t.pos)
      .call(attr, "dy", "0.32em")
      .call(attr, "text-anchor", "end")
      .call(text, (t) => t.label);
  });

  const xaxis = svgPart(plot, "g", "xaxis");
  const bottom = lay.panels.length > 0 ? lay.panels[lay.panels.length - 1].y + PANEL_H : 0;
  xaxis.call(attr, "transform", `translate(0,${bottom})`);
  xaxis
    .selectAll<SVGTextElement, Tick>("text.tick")
    .data(lay.xTicks, (t) => t.key)
    .join("text")
    .call(attr, "class", "tick")
    .call(attr, "x", (t) => t.pos)
    .call(attr, "y", 14)
    .call(attr, "text-anchor", "middle")
    .call(text, (t) => t.label);
  svgPart(xaxis, "text", "axis-title")
    .call(attr, "x", lay.innerWidth)
    .call(attr, "y", 14)
    .call(attr, "dx", "-0.2em")
    .call(attr, "text-anchor", "end");

  const table = part(host, "table", "passes", (t) => {
    t.append("caption").call(text, "Shrink passes");
    t.append("thead")
      .append("tr")
      .selectAll("th")
      .data(["pass", "runs", "candidates", "calls", "accepted"])
      .join("th")
      .call(attr, "scope", "col")
      .call(text, (d) => d);
    t.append("tbody");
  });
  table
    .select("tbody")
    .selectAll<HTMLTableRowElement, PassRowData>("tr")
    .data(lay.passes, (d) => d.name)
    .join((enter) => {
      const tr = enter.append("tr");
      tr.append("th").call(attr, "scope", "row");
      for (let i = 0; i < 4; i++) tr.append("td");
      return tr;
    })
    .call(classed, "current", (d) => d.current)
    .call(classed, "idle", (d) => d.accepted === 0)
    .call(attr, "aria-current", (d) => (d.current ? "step" : null))
    .call((tr) => {
      tr.select("th").call(text, (d) => d.name);
      tr.selectAll<HTMLTableCellElement, number>("td")
        .data((d) => [d.runs, d.candidates, d.calls, d.accepted])
        .call(text, (n) => n);
    });
}

/** The target() scores: a caption saying where the target phase is, and one row per label. */
function drawTargets(host: Sel, targets: ProgressLayout["targets"]): void {
  const table = part(host, "table", "targets", (t) => {
    t.append("caption");
    t.append("thead")
      .append("tr")
      .selectAll("th")
      .data(["label", "best score"])
      .join("th")
      .call(attr, "scope", "col")
      .call(text, (d) => d);
    t.append("tbody");
  });
  table.call(classed, "hidden", targets === undefined);
  if (targets === undefined) return;
  table.select("caption").call(text, targets.caption);
  table.call(classed, "climbing", targets.caption.startsWith("Target phase"));
  table
    .select("tbody")
    .selectAll<HTMLTableRowElement, TargetRow>("tr")
    .data(targets.rows, (d) => d.label)
    .join((enter) => {
      const tr = enter.append("tr");
      tr.append("th").call(attr, "scope", "row");
      tr.append("td");
      return tr;
    })
    .call((tr) => {
      tr.select("th").call(text, (d) => (d.label === "" ? "(no label)" : d.label));
      tr.select("td").call(text, (d) => d.score);
    });
}
