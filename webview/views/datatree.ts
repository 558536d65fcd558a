/**
 * The DataTree view: draws `layoutIcicle`'s rectangles into an SVG, joined by id. Depth runs left to right, a
 * node's height is its share of the cases; the run's failures and exhausted subtrees stand out by colour and
 * hatching, the target's path by its outline.
 *
 * Zoom is focus, not scale: clicking a node lays out its subtree in the whole view (text keeps its size),
 * clicking the node in view (the left column) or a crumb of the path above goes back up. Until the user
 * zooms, the view follows the target: the root, or the ancestor from which the target's path ends in view.
 * Keyboard (the SVG has focus): Escape, Backspace or - goes up one level; 0, f or Home back to the root (and to
 * following the target).
 *
 * Only this file touches the DOM. Colours come from VS Code's theme variables, set through the CSSOM
 * (`.style()`), never a style attribute (the webview's CSP forbids inline styles). The caller renders at most
 * once per animation frame; this view re-lays-out at most every `LAYOUT_INTERVAL_MS` (a trailing update always
 * draws the final state) and not at all when neither the model nor the focus changed.
 */
import { select, type Selection } from "d3-selection";
import "d3-transition";
import type { TreeModel } from "../models/datatree.ts";
import { columnsFor, followTarget, layoutIcicle, type IcicleLayout, type IcicleRect } from "../layout/datatree.ts";

export interface DataTreeViewOptions {
  /** Rectangles drawn at most (default 400). */
  readonly maxVisible?: number;
}

export interface DataTreeView {
  update(model: TreeModel): void;
  /** Back to the whole tree (and to following the target as the run goes on). */
  fit(): void;
  dispose(): void;
}

const LAYOUT_INTERVAL_MS = 100;
const TRANSITION_MS = 200;
/** The two lines above the drawing. */
const LINE_H = 22;
/** Crumbs shown of a long path: the first, then "…", then the last few. */
const CRUMBS = 6;

const COLOURS = {
  valid: "var(--vscode-testing-iconPassed, #73c991)",
  interesting: "var(--vscode-testing-iconFailed, #f14c4c)",
  invalid: "var(--vscode-disabledForeground, #888888)",
  overrun: "var(--vscode-editorWarning-foreground, #cca700)",
  node: "var(--vscode-foreground, #cccccc)",
  background: "var(--vscode-editor-background, #1e1e1e)",
  target: "var(--vscode-focusBorder, #007fd4)",
  badge: "var(--vscode-badge-background, #4d4d4d)",
  link: "var(--vscode-textLink-foreground, #3794ff)",
  font: "var(--vscode-font-family, sans-serif)",
} as const;

let instances = 0;

/** A leaf is its status's colour; an inner node is tinted by its most frequent status, fainter. */
function fill(d: IcicleRect): string {
  if (d.kind === "rest") return COLOURS.badge;
  if (d.status === undefined) return COLOURS.background;
  return COLOURS[d.status];
}

function opacity(d: IcicleRect): string {
  if (d.kind === "rest") return "0.35";
  if (d.leaf) return "0.85";
  return d.statuses.interesting > 0 ? "0.45" : "0.3";
}

type Cells = Selection<SVGGElement, IcicleRect, SVGGElement, unknown>;
const drawnBy = new WeakMap<Element, Record<string, string>>();

/** The cells whose `aspect` (its signature by `sig`) differs from what they last drew, now remembered as drawn. */
function changed(cells: Cells, aspect: string, sig: (d: IcicleRect) => string): Cells {
  return cells.filter(function (d) {
    let drawn = drawnBy.get(this);
    if (drawn === undefined) drawnBy.set(this, (drawn = {}));
    const s = sig(d);
    if (drawn[aspect] === s) return false;
    drawn[aspect] = s;
    return true;
  });
}

/**
 * Create the view in `container` (which it fills). Call `update(model)` after applying events (at most once per
 * frame); call `dispose()` when the panel goes away.
 *
 * @example
 * const view = createDataTreeView(document.getElementById("datatree")!);
 * requestAnimationFrame(() => view.update(treeModel));
 */
export function createDataTreeView(container: HTMLElement, options: DataTreeViewOptions = {}): DataTreeView {
  const maxVisible = options.maxVisible ?? 400;
  const hatch = `datatree-hatch-${++instances}`;
  const root = select(container).append("div").attr("class", "datatree");
  root.style("position", "relative").style("width", "100%").style("height", "100%").style("min-height", "200px").style("font-family", COLOURS.font);

  // Two lines: what the tree holds and the way back to all of it; then the path of the node in view.
  const toolbar = root.append("div").attr("class", "datatree-toolbar");
  toolbar.style("display", "flex").style("gap", "8px").style("align-items", "center").style("height", `${LINE_H}px`).style("font-size", "11px").style("color", COLOURS.node);
  const summary = toolbar.append("span").attr("class", "datatree-summary");
  summary.style("opacity", "0.8").style("flex", "1 1 auto").style("min-width", "0").style("overflow", "hidden").style("white-space", "nowrap").style("text-overflow", "ellipsis");
  const fitButton = toolbar.append("button").attr("class", "datatree-fit").attr("type", "button").attr("title", "Show the whole tree (0)").text("Whole tree");
  fitButton.style("white-space", "nowrap").style("flex", "0 0 auto");
  const crumbs = root.append("nav").attr("class", "datatree-path").attr("aria-label", "Path of the node in view");
  crumbs.style("height", `${LINE_H}px`).style("line-height", `${LINE_H}px`).style("font-size", "11px").style("color", COLOURS.node).style("overflow", "hidden").style("white-space", "nowrap").style("text-overflow", "ellipsis");

  const svg = root.append("svg").attr("class", "datatree-svg").attr("tabindex", "0").attr("role", "img");
  svg.style("width", "100%").style("height", `calc(100% - ${2 * LINE_H + 2}px)`).style("display", "block").style("font-size", "11px").style("outline-offset", "-1px");
  const defs = svg.append("defs");
  const pattern = defs.append("pattern").attr("id", hatch).attr("patternUnits", "userSpaceOnUse").attr("width", 6).attr("height", 6).attr("patternTransform", "rotate(45)");
  pattern.append("line").attr("x1", 0).attr("y1", 0).attr("x2", 0).attr("y2", 6).attr("stroke-width", 2).style("stroke", COLOURS.node).style("stroke-opacity", "0.35");
  const layer = svg.append("g").attr("class", "datatree-rects");

  let layout: IcicleLayout | undefined;
  let model: TreeModel | undefined;
  let laidOut: { model: TreeModel; version: number; focus: number | undefined; w: number; h: number } | undefined;
  let lastLayoutAt = -Infinity;
  let trailing: ReturnType<typeof setTimeout> | undefined;
  /** The node the user zoomed into; undefined: follow the target. */
  let chosen: number | undefined;
  let disposed = false;

  // The size is cached (a ResizeObserver keeps it): reading clientWidth after drawing would force a layout.
  let cachedSize: { w: number; h: number } | undefined;
  const measure = (): { w: number; h: number } => {
    const el = svg.node()!;
    return (cachedSize = { w: el.clientWidth || 600, h: el.clientHeight || 280 });
  };
  const resizeObserver = typeof ResizeObserver === "function" ? new ResizeObserver(() => {
    const before = cachedSize;
    const now = measure();
    if (model !== undefined && (before === undefined || before.w !== now.w || before.h !== now.h)) render(model, false);
  }) : undefined;
  resizeObserver?.observe(svg.node()!);
  const size = (): { w: number; h: number } => cachedSize ?? measure();

  function zoomTo(nodeId: number | undefined): void {
    chosen = nodeId;
    if (model !== undefined) render(model, true);
  }
  function up(): void {
    if (layout === undefined || layout.path.length < 2) return zoomTo(undefined);
    zoomTo(layout.path[layout.path.length - 2]!.nodeId);
  }
  function fit(): void {
    zoomTo(undefined);
  }
  fitButton.on("click", fit);

  svg.on("keydown", (event: KeyboardEvent) => {
    switch (event.key) {
      case "Escape":
      case "Backspace":
      case "-":
        up();
        break;
      case "0":
      case "f":
      case "Home":
        fit();
        break;
      default:
        return;
    }
    event.preventDefault();
  });

  function drawPath(l: IcicleLayout): void {
    // A long path keeps its first crumb and its last few; the elided ones are one "…" that goes to the first hidden.
    type Crumb = { nodeId: number; label: string };
    const all: readonly Crumb[] = l.path;
    const shown: Crumb[] = all.length <= CRUMBS ? [...all] : [all[0]!, { nodeId: all[all.length - CRUMBS + 1]!.nodeId, label: "…" }, ...all.slice(all.length - CRUMBS + 2)];
    crumbs
      .selectAll<HTMLSpanElement, Crumb>("span.crumb")
      .data(shown, (d) => `${d.nodeId}${d.label === "…" ? "…" : ""}`)
      .join((enter) => {
        const s = enter.append("span").attr("class", "crumb");
        s.append("span").attr("class", "sep").attr("aria-hidden", "true").text(" › ");
        s.append("a").attr("href", "#").style("color", COLOURS.link).on("click", (event: MouseEvent, d) => {
          event.preventDefault();
          zoomTo(d.nodeId === all[0]?.nodeId ? undefined : d.nodeId);
        });
        return s;
      })
      .each(function (d, i) {
        const s = select(this);
        s.select(".sep").style("display", () => (i === 0 ? "none" : null));
        s.select("a").text(d.label).attr("aria-current", i === shown.length - 1 ? "location" : null).attr("title", d.label === "…" ? "Go up to here" : null);
      });
  }

  function draw(l: IcicleLayout, animate: boolean): void {
    const ms = animate ? TRANSITION_MS : 0;
    const groups = layer
      .selectAll<SVGGElement, IcicleRect>("g.cell")
      .data(l.rects, (d) => d.id)
      .join(
        (enter) => {
          const g = enter.append("g").attr("class", "cell").attr("transform", (d) => `translate(${d.x},${d.y})`);
          g.append("title");
          g.append("rect").attr("class", "box").attr("width", (d) => Math.max(0, d.w)).attr("height", (d) => Math.max(0, d.h));
          g.append("rect").attr("class", "hatch").style("pointer-events", "none");
          g.append("text").attr("class", "label").attr("x", 4).attr("y", 12).style("pointer-events", "none");
          g.append("text").attr("class", "sub").attr("x", 4).attr("y", 25).style("pointer-events", "none").style("font-size", "10px").style("opacity", "0.8");
          g.on("click", (event: MouseEvent, d) => {
            event.stopPropagation();
            if (layout === undefined) return;
            if (d.kind === "node" && d.nodeId === layout.focus) up();
            else if (d.kind === "node" && d.zoomable) zoomTo(d.nodeId);
          });
          return g;
        },
        (update) => update,
        (exit) => exit.remove(),
      );
    // Each element remembers what it last drew: a live run's update moves and recounts a few rectangles, and
    // every DOM write is a style invalidation — so only what changed is written.
    const place = (d: IcicleRect): string => `translate(${d.x},${d.y})`;
    const moved = changed(groups, "place", (d) => `${place(d)} ${d.w} ${d.h}`);
    const boxes = moved.select<SVGRectElement>("rect.box");
    if (ms > 0) {
      moved.transition().duration(ms).attr("transform", place);
      boxes.transition().duration(ms).attr("width", (d) => Math.max(0, d.w)).attr("height", (d) => Math.max(0, d.h));
    } else {
      moved.interrupt().attr("transform", place);
      boxes.interrupt().attr("width", (d) => Math.max(0, d.w)).attr("height", (d) => Math.max(0, d.h));
    }
    moved
      .select<SVGRectElement>("rect.hatch")
      .attr("width", (d) => (d.exhausted ? Math.max(0, d.w) : 0))
      .attr("height", (d) => (d.exhausted ? Math.max(0, d.h) : 0));
    const look = (d: IcicleRect): string => `cell ${d.kind}${d.status ? ` status-${d.status}` : ""}${d.leaf ? " leaf" : ""}${d.exhausted ? " exhausted" : ""}${d.onTarget ? " on-target" : ""}${d.zoomable || d.nodeId === l.focus ? " zoomable" : ""}`;
    const restyled = changed(groups, "look", (d) => `${look(d)} ${d.statuses.interesting > 0}`);
    restyled.attr("class", look).style("cursor", (d) => (d.zoomable || d.nodeId === l.focus ? "pointer" : null));
    restyled
      .select<SVGRectElement>("rect.box")
      .style("fill", fill)
      .style("fill-opacity", opacity)
      .style("stroke", (d) => (d.onTarget ? COLOURS.target : COLOURS.background))
      .style("stroke-width", (d) => (d.onTarget ? "2" : "1"));
    restyled.select<SVGRectElement>("rect.hatch").style("fill", `url(#${hatch})`);
    restyled.select("text.label").style("fill", COLOURS.node).style("font-weight", (d) => (d.onTarget ? "bold" : null));
    restyled.select("text.sub").style("fill", COLOURS.node);
    const relabelled = changed(groups, "text", (d) => `${d.label}\n${d.sub}`);
    relabelled.select("text.label").text((d) => d.label);
    relabelled.select("text.sub").text((d) => d.sub);
    changed(groups, "title", (d) => d.title)
      .select("title")
      .text((d) => d.title);
  }

  function render(m: TreeModel, animate: boolean): void {
    if (disposed) return;
    if (trailing !== undefined) {
      clearTimeout(trailing);
      trailing = undefined;
    }
    lastLayoutAt = performance.now();
    const { w, h } = size();
    const focus = chosen ?? followTarget(m, columnsFor(w));
    layout = layoutIcicle(m, { width: w, height: h, focus, maxVisible });
    if (chosen !== undefined && layout.focus !== chosen) chosen = undefined; // the node was folded away
    laidOut = { model: m, version: m.version, focus: chosen, w, h };
    draw(layout, animate);
    drawPath(layout);
    svg.attr("aria-label", `DataTree: ${m.cases} test cases as prefixes of choices, ${layout.path.map((p) => p.label).join(" › ")} in view`);
    // The engine's own count, as the statistics show it; then what this view holds and draws.
    const hidden = layout.hiddenNodes > 0 ? ` · ${layout.hiddenNodes} not drawn` : "";
    const dropped = m.droppedCases > 0 ? ` · ${m.droppedCases} cases not received` : "";
    summary
      .text(`${m.cases} runs · DataTree ${m.engineNodes} nodes${m.root.exhausted ? " (exhausted)" : ""}${hidden}${dropped}`)
      .attr("title", `${m.cases} runs of the property: every case, the replays of the minimal example included (the statistics' "test cases" leave those out). The engine's DataTree holds ${m.engineNodes} nodes (as in the statistics). This view keeps ${m.nodeCount} prefixes${m.foldedNodes > 0 ? ` (${m.foldedNodes} folded into their parents to bound memory)` : ""} and draws ${layout.rects.length} rectangles.`);
  }

  return {
    update(m: TreeModel): void {
      model = m;
      if (disposed) return;
      const { w, h } = size();
      if (laidOut !== undefined && laidOut.model === m && laidOut.version === m.version && laidOut.focus === chosen && laidOut.w === w && laidOut.h === h) return;
      if (laidOut !== undefined && laidOut.model !== m) chosen = undefined; // a new run
      const wait = LAYOUT_INTERVAL_MS - (performance.now() - lastLayoutAt);
      if (wait > 0 && laidOut?.model === m) {
        trailing ??= setTimeout(() => {
          trailing = undefined;
          if (model !== undefined) render(model, false);
        }, wait);
        return;
      }
      render(m, false);
    },
    fit,
    dispose(): void {
      disposed = true;
      resizeObserver?.disconnect();
      if (trailing !== undefined) clearTimeout(trailing);
      layer.selectAll("*").interrupt();
      root.remove();
    },
  };
}

