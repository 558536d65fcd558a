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
 * (`.style()`), never a style attribute (the webview's CSP forbids inline styles). The view holds no model: it
 * draws the layouts it is shown (`TreeFrame`, laid out where the model lives — in the panel, the fold worker) and
 * asks for a new one when its size or the user's zoom changes (`onParams`). Only what changed is written.
 */
import { select, type Selection } from "d3-selection";
import "d3-transition";
import type { TreeModel } from "../models/datatree.ts";
import { treeFrame, type IcicleLayout, type IcicleRect, type TreeFrame, type TreeParams } from "../layout/datatree.ts";

export interface DataTreeViewOptions {
  /** Rectangles drawn at most (default 400). */
  readonly maxVisible?: number;
  /**
   * The view needs a new layout (its size or the user's zoom changed): whoever holds the model lays it out as
   * asked (`treeFrame`) and calls `show`. In the panel that is the fold worker (webview/fold.ts).
   */
  readonly onParams: (params: TreeParams) => void;
}

export interface DataTreeView {
  /** Draw a layout (a stale one, laid out for another zoom than the one asked for since, is skipped). */
  show(frame: TreeFrame): void;
  /** Back to the whole tree (and to following the target as the run goes on). */
  fit(): void;
  dispose(): void;
}

const TRANSITION_MS = 200;
/** The two lines above the drawing. */
const LINE_H = 22;
/** Crumbs shown of a long path: the first, then "…", then the last few. */
const CRUMBS = 6;
/** createLocalDataTreeView lays its model out at most this often. */
const LOCAL_LAYOUT_MS = 100;

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
 * Create the view in `container` (which it fills); it asks for its first layout in a microtask. Call
 * `show(frame)` with each layout (at most once per frame) and `dispose()` when the panel goes away.
 *
 * @example
 * const view = createDataTreeView(el, { onParams: (p) => view.show(treeFrame(model, p, 1)) });
 */
export function createDataTreeView(container: HTMLElement, options: DataTreeViewOptions): DataTreeView {
  const maxVisible = options.maxVisible ?? 400;
  const hatch = `datatree-hatch-${++instances}`;
  const root = select(container).append("div").attr("class", "datatree");
  root
    .style("position", "relative")
    .style("width", "100%")
    .style("height", "100%")
    .style("min-height", "200px")
    .style("font-family", COLOURS.font);

  // Two lines: what the tree holds and the way back to all of it; then the path of the node in view.
  const toolbar = root.append("div").attr("class", "datatree-toolbar");
  toolbar
    .style("display", "flex")
    .style("gap", "8px")
    .style("align-items", "center")
    .style("height", `${LINE_H}px`)
    .style("font-size", "11px")
    .style("color", COLOURS.node);
  const summary = toolbar.append("span").attr("class", "datatree-summary");
  summary
    .style("opacity", "0.8")
    .style("flex", "1 1 auto")
    .style("min-width", "0")
    .style("overflow", "hidden")
    .style("white-space", "nowrap")
    .style("text-overflow", "ellipsis");
  const fitButton = toolbar
    .append("button")
    .attr("class", "datatree-fit")
    .attr("type", "button")
    .attr("title", "Show the whole tree (0)")
    .text("Whole tree");
  fitButton.style("white-space", "nowrap").style("flex", "0 0 auto");
  const crumbs = root.append("nav").attr("class", "datatree-path").attr("aria-label", "Path of the node in view");
  crumbs
    .style("height", `${LINE_H}px`)
    .style("line-height", `${LINE_H}px`)
    .style("font-size", "11px")
    .style("color", COLOURS.node)
    .style("overflow", "hidden")
    .style("white-space", "nowrap")
    .style("text-overflow", "ellipsis");

  const svg = root.append("svg").attr("class", "datatree-svg").attr("tabindex", "0").attr("role", "img");
  svg
    .style("width", "100%")
    .style("height", `calc(100% - ${2 * LINE_H + 2}px)`)
    .style("display", "block")
    .style("font-size", "11px")
    .style("outline-offset", "-1px");
  const defs = svg.append("defs");
  const pattern = defs
    .append("pattern")
    .attr("id", hatch)
    .attr("patternUnits", "userSpaceOnUse")
    .attr("width", 6)
    .attr("height", 6)
    .attr("patternTransform", "rotate(45)");
  pattern
    .append("line")
    .attr("x1", 0)
    .attr("y1", 0)
    .attr("x2", 0)
    .attr("y2", 6)
    .attr("stroke-width", 2)
    .style("stroke", COLOURS.node)
    .style("stroke-opacity", "0.35");
  const layer = svg.append("g").attr("class", "datatree-rects");

  let layout: IcicleLayout | undefined;
  let shown: TreeFrame | undefined;
  let asked: TreeParams | undefined;
  /** The node the user zoomed into; undefined: follow the target. */
  let chosen: number | undefined;
  let disposed = false;

  // The size is cached (a ResizeObserver keeps it): reading clientWidth after drawing would force a layout.
  let cachedSize: { w: number; h: number } | undefined;
  const measure = (): { w: number; h: number } => {
    const el = svg.node()!;
    return (cachedSize = { w: el.clientWidth || 600, h: el.clientHeight || 280 });
  };
  /** Ask for a layout, unless the last one asked for is the same. */
  function request(): void {
    if (disposed) return;
    const { w, h } = cachedSize ?? measure();
    if (
      asked !== undefined &&
      asked.width === w &&
      asked.height === h &&
      asked.chosen === chosen &&
      asked.maxVisible === maxVisible
    )
      return;
    asked = { width: w, height: h, chosen, maxVisible };
    options.onParams(asked);
  }
  const resizeObserver =
    typeof ResizeObserver === "function"
      ? new ResizeObserver(() => {
          measure();
          request();
        })
      : undefined;
  resizeObserver?.observe(svg.node()!);

  function zoomTo(nodeId: number | undefined): void {
    chosen = nodeId;
    request();
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
    const shown: Crumb[] =
      all.length <= CRUMBS
        ? [...all]
        : [
            all[0]!,
            { nodeId: all[all.length - CRUMBS + 1]!.nodeId, label: "…" },
            ...all.slice(all.length - CRUMBS + 2),
          ];
    crumbs
      .selectAll<HTMLSpanElement, Crumb>("span.crumb")
      .data(shown, (d) => `${d.nodeId}${d.label === "…" ? "…" : ""}`)
      .join((enter) => {
        const s = enter.append("span").attr("class", "crumb");
        s.append("span").attr("class", "sep").attr("aria-hidden", "true").text(" › ");
        s.append("a")
          .attr("href", "#")
          .style("color", COLOURS.link)
          .on("click", (event: MouseEvent, d) => {
            event.preventDefault();
            zoomTo(d.nodeId === all[0]?.nodeId ? undefined : d.nodeId);
          });
        return s;
      })
      .each(function (d, i) {
        const s = select(this);
        s.select(".sep").style("display", () => (i === 0 ? "none" : null));
        s.select("a")
          .text(d.label)
          .attr("aria-current", i === shown.length - 1 ? "location" : null)
          .attr("title", d.label === "…" ? "Go up to here" : null);
      });
  }

  function draw(l: IcicleLayout, animate: boolean): void {
    const ms = animate ? TRANSITION_MS : 0;
    const groups = layer
      .selectAll<SVGGElement, IcicleRect>("g.cell")
      .data(l.rects, (d) => d.id)
      .join(
        (enter) => {
          const g = enter
            .append("g")
            .attr("class", "cell")
            .attr("transform", (d) => `translate(${d.x},${d.y})`);
          g.append("title");
          g.append("rect")
            .attr("class", "box")
            .attr("width", (d) => Math.max(0, d.w))
            .attr("height", (d) => Math.max(0, d.h));
          g.append("rect").attr("class", "hatch").style("pointer-events", "none");
          g.append("text").attr("class", "label").attr("x", 4).attr("y", 12).style("pointer-events", "none");
          g.append("text")
            .attr("class", "sub")
            .attr("x", 4)
            .attr("y", 25)
            .style("pointer-events", "none")
            .style("font-size", "10px")
            .style("opacity", "0.8");
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
      boxes
        .transition()
        .duration(ms)
        .attr("width", (d) => Math.max(0, d.w))
        .attr("height", (d) => Math.max(0, d.h));
    } else {
      moved.interrupt().attr("transform", place);
      boxes
        .interrupt()
        .attr("width", (d) => Math.max(0, d.w))
        .attr("height", (d) => Math.max(0, d.h));
    }
    moved
      .select<SVGRectElement>("rect.hatch")
      .attr("width", (d) => (d.exhausted ? Math.max(0, d.w) : 0))
      .attr("height", (d) => (d.exhausted ? Math.max(0, d.h) : 0));
    const look = (d: IcicleRect): string =>
      `cell ${d.kind}${d.status ? ` status-${d.status}` : ""}${d.leaf ? " leaf" : ""}${d.exhausted ? " exhausted" : ""}${d.onTarget ? " on-target" : ""}${d.zoomable || d.nodeId === l.focus ? " zoomable" : ""}`;
    const restyled = changed(groups, "look", (d) => `${look(d)} ${d.statuses.interesting > 0}`);
    restyled.attr("class", look).style("cursor", (d) => (d.zoomable || d.nodeId === l.focus ? "pointer" : null));
    restyled
      .select<SVGRectElement>("rect.box")
      .style("fill", fill)
      .style("fill-opacity", opacity)
      .style("stroke", (d) => (d.onTarget ? COLOURS.target : COLOURS.background))
      .style("stroke-width", (d) => (d.onTarget ? "2" : "1"));
    restyled.select<SVGRectElement>("rect.hatch").style("fill", `url(#${hatch})`);
    restyled
      .select("text.label")
      .style("fill", COLOURS.node)
      .style("font-weight", (d) => (d.onTarget ? "bold" : null));
    restyled.select("text.sub").style("fill", COLOURS.node);
    const relabelled = changed(groups, "text", (d) => `${d.label}\n${d.sub}`);
    relabelled.select("text.label").text((d) => d.label);
    relabelled.select("text.sub").text((d) => d.sub);
    changed(groups, "title", (d) => d.title)
      .select("title")
      .text((d) => d.title);
  }

  function render(f: TreeFrame, animate: boolean): void {
    shown = f;
    layout = f.layout;
    draw(f.layout, animate);
    drawPath(f.layout);
    svg.attr(
      "aria-label",
      `DataTree: ${f.cases} test cases as prefixes of choices, ${f.layout.path.map((p) => p.label).join(" › ")} in view`,
    );
    // The engine's own count, as the statistics show it; then what this view holds and draws.
    const hidden = f.layout.hiddenNodes > 0 ? ` · ${f.layout.hiddenNodes} not drawn` : "";
    const dropped = f.droppedCases > 0 ? ` · ${f.droppedCases} cases not received` : "";
    summary
      .text(`${f.cases} runs · DataTree ${f.engineNodes} nodes${f.exhausted ? " (exhausted)" : ""}${hidden}${dropped}`)
      .attr(
        "title",
        `${f.cases} runs of the property: every case, the replays of the minimal example included (the statistics' "test cases" leave those out). The engine's DataTree holds ${f.engineNodes} nodes (as in the statistics). This view keeps ${f.nodeCount} prefixes${f.foldedNodes > 0 ? ` (${f.foldedNodes} folded into their parents to bound memory)` : ""} and draws ${f.layout.rects.length} rectangles.`,
      );
  }

  // After the caller has its view (its onParams may call show).
  queueMicrotask(request);
  return {
    show(f: TreeFrame): void {
      if (disposed) return;
      // A new run forgets the user's zoom: node ids start again.
      if (shown !== undefined && f.model !== shown.model && chosen !== undefined) {
        chosen = undefined;
        request();
        return;
      }
      if (f.params.chosen !== chosen) return; // laid out for a zoom since left; the asked-for one follows
      if (chosen !== undefined && f.layout.focus !== chosen) chosen = undefined; // the node was folded away
      render(f, shown !== undefined && shown.model === f.model && shown.layout.focus !== f.layout.focus);
    },
    fit,
    dispose(): void {
      disposed = true;
      resizeObserver?.disconnect();
      layer.selectAll("*").interrupt();
      root.remove();
    },
  };
}

/**
 * The view with its model laid out beside it, for the view's own tests (the panel lays out in its fold, on the
 * page too when no worker starts). `update` takes the model after each fold (laid out at most every
 * LOCAL_LAYOUT_MS; the last always).
 */
export function createLocalDataTreeView(
  container: HTMLElement,
  options: Omit<DataTreeViewOptions, "onParams"> = {},
): DataTreeView & { update(model: TreeModel): void } {
  let model: TreeModel | undefined;
  let modelId = 0;
  let params: TreeParams | undefined;
  let laidOut: { model: TreeModel; version: number; params: TreeParams } | undefined;
  let lastAt = -Infinity;
  let trailing: ReturnType<typeof setTimeout> | undefined;
  const layOut = (): void => {
    if (trailing !== undefined) clearTimeout(trailing);
    trailing = undefined;
    if (model === undefined || params === undefined) return;
    if (
      laidOut !== undefined &&
      laidOut.model === model &&
      laidOut.version === model.version &&
      laidOut.params === params
    )
      return;
    laidOut = { model, version: model.version, params };
    lastAt = performance.now();
    view.show(treeFrame(model, params, modelId));
  };
  const view = createDataTreeView(container, {
    ...options,
    onParams: (p) => {
      params = p;
      layOut();
    },
  });
  return {
    ...view,
    update(m: TreeModel): void {
      if (m !== model) modelId++;
      const wait = m === model ? LOCAL_LAYOUT_MS - (performance.now() - lastAt) : 0;
      model = m;
      if (wait <= 0) layOut();
      else trailing ??= setTimeout(layOut, wait);
    },
    dispose(): void {
      if (trailing !== undefined) clearTimeout(trailing);
      view.dispose();
    },
  };
}
