/**
 * The Timeline view (schedule failures only): the minimal failing run of a simTest as one lane per task, each
 * event a mark, bands of virtual time above; each decision that differs from FIFO as a guide from the task
 * that ran to a dashed ghost where FIFO's task was waiting; then the failing seed's schedule beside FIFO,
 * decision by decision, the differing ones highlighted; then the trace tail.
 *
 * The lane labels stay put while the lanes scroll sideways (a long run is wider than the panel). When a new
 * schedule arrives, the lanes scroll to its first deviation, or to the end, where the failure is. Nothing moves
 * by itself: no transitions, so reduced motion has nothing to turn off.
 *
 * Everything from the run is set as text (textContent through d3's .text, attributes through .attr), never as
 * markup; sizes go through the CSSOM, which the panel's CSP allows.
 *
 * Keyboard: the lanes are one tab stop; arrow keys, Home and End move between the events in the run's order
 * (a roving focus), and the detail line says what each one is. The decisions are one tab stop the same way.
 */
import type { PanelState } from "../model.ts";
import type {
  BandLayout,
  DecisionCell,
  GuideLayout,
  LaneLayout,
  MarkLayout,
  TailRow,
  TimelineLayout,
} from "../layout/timeline.ts";
import { LANE_H, layoutTimeline } from "../layout/timeline.ts";
import { part, rovingGroup, svgPart, type Sel } from "./dom.ts";

const HINT = "Hover over or focus an event to see its time, its task and what happened.";
const R = 5;
const LEGEND = [
  ["start", "start, spawn"],
  ["step", "step"],
  ["done", "done"],
  ["failed", "failed"],
  ["deviation", "ran before FIFO's task"],
  ["ghost", "FIFO's task, waiting"],
] as const;

function drawLanes(host: Sel, lay: TimelineLayout, detail: (t: string) => void): Sel<HTMLDivElement> {
  const box = part(host, "div", "lanes-box");
  const labels = part(box, "div", "lane-labels", (s) => s.attr("aria-hidden", "true"));
  labels.style("width", `${lay.labelWidth}px`).style("height", `${lay.height}px`);
  labels
    .selectAll<HTMLDivElement, LaneLayout>("div.lane-label")
    .data(lay.lanes, (d) => d.key)
    .join("div")
    .attr("class", (d) => `lane-label${d.other ? " other" : ""}`)
    .attr("title", (d) => d.label)
    .style("transform", (d) => `translate(0px, ${d.y - LANE_H / 2}px)`)
    .style("height", `${LANE_H}px`)
    .style("line-height", `${LANE_H}px`)
    .text((d) => d.label);

  const scroll = part(box, "div", "lane-scroll");
  const svg = svgPart(scroll, "svg", "lanes", (s) => {
    s.attr("role", "group");
    rovingGroup(s.node(), "circle.mark");
  });
  svg.attr("width", lay.plotWidth).attr("height", lay.height).attr("aria-label", lay.label);

  svgPart(svg, "g", "bands")
    .selectAll<SVGGElement, BandLayout>("g.band")
    .data(lay.bands, (d) => d.key)
    .join((enter) => {
      const g = enter.append("g");
      g.append("rect").attr("class", "band-fill").attr("y", 0);
      g.append("text").attr("class", "band-label").attr("y", 13);
      return g;
    })
    .attr("class", (d) => `band${d.odd ? " odd" : ""}`)
    .call((g) => {
      g.select("rect")
        .attr("x", (d) => d.x1)
        .attr("width", (d) => Math.max(1, d.x2 - d.x1))
        .attr("height", lay.height);
      g.select("text")
        .attr("x", (d) => d.x1 + 2)
        .text((d) => d.label);
    });

  svgPart(svg, "g", "lifelines")
    .selectAll<SVGLineElement, LaneLayout>("line")
    .data(
      lay.lanes.filter((l) => l.x1 !== undefined),
      (d) => d.key,
    )
    .join("line")
    .attr("x1", (d) => d.x1!)
    .attr("x2", (d) => d.x2!)
    .attr("y1", (d) => d.y)
    .attr("y2", (d) => d.y);

  svgPart(svg, "line", "cut")
    .attr("visibility", lay.gapX === undefined ? "hidden" : "visible")
    .attr("x1", lay.gapX ?? 0)
    .attr("x2", lay.gapX ?? 0)
    .attr("y1", 16)
    .attr("y2", lay.height);

  svgPart(svg, "g", "guides")
    .selectAll<SVGGElement, GuideLayout>("g.guide")
    .data(lay.guides, (d) => d.key)
    .join((enter) => {
      const g = enter.append("g").attr("class", "guide");
      g.append("line");
      g.append("circle")
        .attr("class", "ghost")
        .attr("r", R + 1);
      g.append("title");
      return g;
    })
    .call((g) => {
      g.select("line")
        .attr("x1", (d) => d.x)
        .attr("x2", (d) => d.x)
        .attr("y1", (d) => d.y1)
        .attr("y2", (d) => d.y2);
      g.select("circle.ghost")
        .attr("visibility", (d) => (d.ghostY === undefined ? "hidden" : "visible"))
        .attr("cx", (d) => d.x)
        .attr("cy", (d) => d.ghostY ?? 0);
      g.select("title").text((d) => d.detail);
    })
    .on("pointerenter", (_ev: Event, d: GuideLayout) => detail(d.detail));

  svgPart(svg, "g", "marks")
    .selectAll<SVGCircleElement, MarkLayout>("circle.mark")
    .data(lay.marks, (d) => d.key)
    .join((enter) =>
      enter
        .append("circle")
        .attr("tabindex", "-1")
        .attr("role", "img")
        .on("pointerenter focus", (_ev: Event, d: MarkLayout) => detail(d.detail)),
    )
    .attr("class", (d) => `mark ${d.kind}${d.decision > 0 ? " deviation" : ""}`)
    .attr("cx", (d) => d.x)
    .attr("cy", (d) => d.y)
    .attr("r", (d) => (d.decision > 0 ? R + 1 : R))
    .attr("aria-label", (d) => d.detail);
  return scroll;
}

function drawSchedule(host: Sel, lay: TimelineLayout, detail: (t: string) => void): void {
  const box = part(host, "div", "schedule");
  part(box, "h3", "schedule-title").text("Schedule beside FIFO");
  const grid = part(box, "div", "schedule-grid");
  const heads = part(grid, "div", "schedule-heads", (s) => s.attr("aria-hidden", "true"));
  part(heads, "span", "seed-head").text(lay.seedLabel);
  part(heads, "span", "fifo-head").text("FIFO");
  const cols = part(grid, "div", "decisions", (s) => {
    s.attr("role", "group");
    rovingGroup(s.node(), "div.decision");
  });
  cols.attr(
    "aria-label",
    `The ${lay.decisionCount} decisions of ${lay.seedLabel} beside FIFO's; ${lay.deviations.length + lay.moreDeviations} differ`,
  );
  cols
    .selectAll<HTMLDivElement, DecisionCell>("div.decision")
    .data(lay.decisions, (d) => d.key)
    .join((enter) => {
      const c = enter.append("div").attr("tabindex", "-1");
      c.append("span").attr("class", "n");
      c.append("span").attr("class", "seed-v");
      c.append("span").attr("class", "fifo-v");
      return c.on("pointerenter focus", (_ev: Event, d: DecisionCell) => detail(d.detail));
    })
    .attr("class", (d) => `decision${d.differs ? " differs" : ""}${d.folded ? " folded" : ""}`)
    .attr("aria-label", (d) => d.detail)
    .call((c) => {
      c.select("span.n").text((d) => d.n);
      c.select("span.seed-v").text((d) => d.value);
      c.select("span.fifo-v").text((d) => d.fifo);
    });
  part(box, "p", "schedule-empty")
    .attr("hidden", lay.decisionCount === 0 ? null : "")
    .text("No decisions: at every point only one task was ready.");

  const devs = part(box, "ul", "deviations");
  devs
    .selectAll<HTMLLIElement, string>("li")
    .data(lay.moreDeviations > 0 ? [...lay.deviations, `… and ${lay.moreDeviations} more`] : lay.deviations)
    .join("li")
    .text((d) => d);
  devs.attr("hidden", lay.deviations.length === 0 ? "" : null);
  part(box, "p", "all-fifo")
    .attr("hidden", lay.deviations.length === 0 && lay.moreDeviations === 0 ? null : "")
    .text("Every decision is FIFO's: the plain first-come order fails.");
}

function drawTail(host: Sel, lay: TimelineLayout): void {
  const box = part(host, "div", "tail");
  part(box, "h3", "tail-title").text("Trace tail");
  part(box, "ol", "tail-list", (s) => s.attr("tabindex", "0").attr("aria-label", "The last events of the run"))
    .style("--tail-t", `${lay.tailColumns.t}ch`)
    .style("--tail-task", `${lay.tailColumns.task}ch`)
    .selectAll<HTMLLIElement, TailRow>("li")
    .data(lay.tail, (d) => d.key)
    .join((enter) => {
      const li = enter.append("li");
      li.append("span").attr("class", "t");
      li.append("span").attr("class", "task");
      li.append("span").attr("class", "what");
      return li;
    })
    .attr("class", (d) => (d.failed ? "failed" : null))
    .call((li) => {
      li.select("span.t").text((d) => d.t);
      li.select("span.task").text((d) => d.task);
      li.select("span.what").text((d) => d.what);
    });
}

/** Which timeline the lanes were last drawn for (a new one scrolls and clears the detail; a redraw of the same one keeps the user's place). */
const scrolledFor = new WeakMap<Element, string>();

export function drawTimeline(host: Sel, s: PanelState, width: number): void {
  const tl = s.timeline;
  if (tl === undefined) return;
  const lay = layoutTimeline(tl, width);
  const head = part(host, "div", "timeline-head");
  part(head, "h3", "caption").text(lay.caption);
  part(head, "p", "summary").text(lay.summary);
  part(host, "p", "note")
    .attr("hidden", lay.note === "" ? "" : null)
    .text(lay.note);
  part(host, "div", "legend timeline-legend", (l) => {
    l.attr("aria-hidden", "true");
    for (const [cls, text] of LEGEND) l.append("span").attr("class", `key ${cls}`).text(text);
  });
  const detail = part(host, "div", "detail", (d) => d.attr("aria-live", "polite").text(HINT));
  const onDetail = (t: string): void => void detail.text(t);

  const scroll = drawLanes(host, lay, onDetail);
  const node = scroll.node();
  const id = `${tl.seed}:${tl.traceHash}:${tl.events}`;
  if (node !== null && scrolledFor.get(node) !== id) {
    scrolledFor.set(node, id);
    detail.text(HINT); // what was hovered belonged to the last schedule
    const x = lay.guides[0]?.x;
    node.scrollLeft = x === undefined ? lay.plotWidth : Math.max(0, x - node.clientWidth / 3);
  }
  drawSchedule(host, lay, onDetail);
  drawTail(host, lay);
}
