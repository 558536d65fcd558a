/**
 * The DataTree view: draws `layoutTree`'s arrays into an SVG, joined by node id, with zoom and pan.
 *
 * Only this file touches the DOM. Colours come from VS Code's theme variables, set through the CSSOM
 * (`.style()`), never a style attribute (the webview's CSP forbids inline styles); CSS classes are there for
 * the panel's stylesheet to refine. The caller renders at most once per animation frame; this view re-lays-out
 * at most every `LAYOUT_INTERVAL_MS` (a trailing update always draws the final state) and not at all when the
 * model's version has not changed. Positions animate only when updates are rare, so a live run does not keep
 * hundreds of transitions going.
 *
 * Keyboard (when the SVG has focus): + and - zoom, arrow keys pan, 0 or f fits the tree. Clicking a node
 * collapses or expands it. Until the user zooms or pans, each update fits the growing tree to the view.
 */
import { select, type Selection } from "d3-selection";
import "d3-transition";
import { zoom as d3zoom, zoomIdentity, type D3ZoomEvent, type ZoomBehavior } from "d3-zoom";
import type { LayoutLink, LayoutNode, TreeLayout, TreeModel } from "../models/datatree.ts";
import { layoutTree } from "../models/datatree.ts";

export interface DataTreeViewOptions {
  /** Elements drawn at most (default 300). */
  readonly maxVisible?: number;
}

export interface DataTreeView {
  update(model: TreeModel): void;
  /** Fit the whole tree in view (and follow it again as it grows). */
  fit(): void;
  dispose(): void;
}

const LAYOUT_INTERVAL_MS = 100;
const QUIET_MS = 400;
const TRANSITION_MS = 150;

const COLOURS = {
  valid: "var(--vscode-testing-iconPassed, #73c991)",
  interesting: "var(--vscode-testing-iconFailed, #f14c4c)",
  invalid: "var(--vscode-disabledForeground, #888888)",
  overrun: "var(--vscode-editorWarning-foreground, #cca700)",
  node: "var(--vscode-foreground, #cccccc)",
  background: "var(--vscode-editor-background, #1e1e1e)",
  link: "var(--vscode-foreground, #cccccc)",
  target: "var(--vscode-focusBorder, #007fd4)",
  badge: "var(--vscode-badge-background, #4d4d4d)",
  badgeText: "var(--vscode-badge-foreground, #ffffff)",
  font: "var(--vscode-font-family, sans-serif)",
} as const;

let instances = 0;

function nodeFill(d: LayoutNode, hatch: string): string {
  if (d.kind === "aggregate") return COLOURS.badge;
  if (d.status !== undefined) return COLOURS[d.status];
  return d.exhausted ? `url(#${hatch})` : COLOURS.background;
}

function linkPath(l: LayoutLink): string {
  const mx = (l.x1 + l.x2) / 2;
  return `M${l.x1},${l.y1}C${mx},${l.y1} ${mx},${l.y2} ${l.x2},${l.y2}`;
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
  const maxVisible = options.maxVisible ?? 300;
  const hatch = `datatree-hatch-${++instances}`;
  const root = select(container).append("div").attr("class", "datatree");
  root.style("position", "relative").style("width", "100%").style("height", "100%").style("min-height", "240px");

  const toolbar = root.append("div").attr("class", "datatree-toolbar");
  toolbar.style("position", "absolute").style("top", "4px").style("right", "4px").style("display", "flex").style("gap", "4px").style("align-items", "center");
  const summary = toolbar.append("span").attr("class", "datatree-summary");
  summary.style("font-size", "11px").style("opacity", "0.8").style("color", COLOURS.node).style("font-family", COLOURS.font);
  const fitButton = toolbar.append("button").attr("class", "datatree-fit").attr("type", "button").attr("title", "Fit the tree in view (0)").text("Fit");

  const svg = root.append("svg").attr("class", "datatree-svg").attr("tabindex", "0").attr("role", "img").attr("aria-label", "DataTree: explored choice-sequence prefixes");
  svg.style("width", "100%").style("height", "100%").style("display", "block").style("font-family", COLOURS.font).style("font-size", "10px").style("outline-offset", "-1px");
  const defs = svg.append("defs");
  const pattern = defs.append("pattern").attr("id", hatch).attr("patternUnits", "userSpaceOnUse").attr("width", 4).attr("height", 4).attr("patternTransform", "rotate(45)");
  pattern.append("rect").attr("width", 4).attr("height", 4).style("fill", COLOURS.background);
  pattern.append("line").attr("x1", 0).attr("y1", 0).attr("x2", 0).attr("y2", 4).attr("stroke-width", 2).style("stroke", COLOURS.node).style("stroke-opacity", "0.6");
  const viewport = svg.append("g").attr("class", "datatree-viewport");
  const linkLayer = viewport.append("g").attr("class", "datatree-links").style("fill", "none");
  const nodeLayer = viewport.append("g").attr("class", "datatree-nodes");

  let layout: TreeLayout | undefined;
  let model: TreeModel | undefined;
  let laidOut: { model: TreeModel; version: number; collapsedVersion: number } | undefined;
  let lastLayoutAt = -Infinity;
  let lastDrawAt = -Infinity;
  let trailing: ReturnType<typeof setTimeout> | undefined;
  let follow = true; // fit on each update until the user zooms or pans
  const collapsed = new Set<number>();
  let collapsedVersion = 0;
  let disposed = false;

  const zoomBehaviour: ZoomBehavior<SVGSVGElement, unknown> = d3zoom<SVGSVGElement, unknown>()
    .scaleExtent([0.02, 8])
    .on("zoom", (event: D3ZoomEvent<SVGSVGElement, unknown>) => {
      viewport.attr("transform", event.transform.toString());
      if (event.sourceEvent !== null && event.sourceEvent !== undefined) follow = false;
    });
  const svgSel = svg as unknown as Selection<SVGSVGElement, unknown, null, undefined>;
  svgSel.call(zoomBehaviour).on("dblclick.zoom", null);

  // The size is cached (a ResizeObserver keeps it): reading clientWidth after drawing would force a layout.
  let cachedSize: { w: number; h: number } | undefined;
  const measure = (): { w: number; h: number } => {
    const el = svg.node()!;
    return (cachedSize = { w: el.clientWidth || 600, h: el.clientHeight || 400 });
  };
  const resizeObserver = typeof ResizeObserver === "function" ? new ResizeObserver(() => {
    measure();
    if (follow) fitTransform(false);
  }) : undefined;
  resizeObserver?.observe(svg.node()!);
  function size(): { w: number; h: number } {
    return cachedSize ?? measure();
  }

  function fitTransform(animate: boolean): void {
    if (layout === undefined) return;
    const { x0, y0, x1, y1 } = layout.bounds;
    const { w, h } = size();
    const pad = 24;
    const bw = Math.max(1, x1 - x0 + 60); // room for labels on the right
    const bh = Math.max(1, y1 - y0);
    const k = Math.min(2, Math.max(0.02, Math.min((w - 2 * pad) / bw, (h - 2 * pad - 20) / bh)));
    const tx = pad - x0 * k + Math.max(0, (w - 2 * pad - bw * k) / 2);
    const ty = pad + 20 - y0 * k + Math.max(0, (h - 2 * pad - 20 - bh * k) / 2);
    const t = zoomIdentity.translate(tx, ty).scale(k);
    if (animate) svgSel.transition().duration(TRANSITION_MS * 2).call(zoomBehaviour.transform, t);
    else svgSel.call(zoomBehaviour.transform, t);
  }

  function fit(): void {
    follow = true;
    measure();
    fitTransform(true);
  }
  fitButton.on("click", fit);

  svg.on("keydown", (event: KeyboardEvent) => {
    const step = 40;
    switch (event.key) {
      case "+":
      case "=":
        svgSel.transition().duration(TRANSITION_MS).call(zoomBehaviour.scaleBy, 1.25);
        break;
      case "-":
      case "_":
        svgSel.transition().duration(TRANSITION_MS).call(zoomBehaviour.scaleBy, 0.8);
        break;
      case "ArrowLeft":
        svgSel.call(zoomBehaviour.translateBy, step, 0);
        break;
      case "ArrowRight":
        svgSel.call(zoomBehaviour.translateBy, -step, 0);
        break;
      case "ArrowUp":
        svgSel.call(zoomBehaviour.translateBy, 0, step);
        break;
      case "ArrowDown":
        svgSel.call(zoomBehaviour.translateBy, 0, -step);
        break;
      case "0":
      case "f":
        fit();
        return;
      default:
        return;
    }
    follow = false;
    event.preventDefault();
  });

  function toggle(d: LayoutNode): void {
    if (!d.expandable && !d.collapsed) return;
    if (collapsed.has(d.nodeId)) collapsed.delete(d.nodeId);
    else collapsed.add(d.nodeId);
    collapsedVersion++;
    if (model !== undefined) render(model, true);
  }

  // Elements remember what they last drew (a signature of the fields that style them), so an update only
  // touches the elements whose look changed: most of a live run's frames move a few nodes and recount some.
  type Drawn = Element & { __look?: string; __place?: string; __title?: string };
  function changed<E extends Element, D>(sel: Selection<E, D, SVGGElement, unknown>, key: "__look" | "__place" | "__title", sig: (d: D) => string): Selection<E, D, SVGGElement, unknown> {
    return sel.filter(function (d) {
      const el = this as unknown as Drawn;
      const s = sig(d);
      if (el[key] === s) return false;
      el[key] = s;
      return true;
    });
  }

  function draw(l: TreeLayout, animate: boolean): void {
    const links = linkLayer
      .selectAll<SVGPathElement, LayoutLink>("path")
      .data(l.links, (d) => d.id)
      .join((enter) => enter.append("path").attr("d", linkPath).style("opacity", "0"));
    changed(links, "__look", (d) => `${d.onTarget}${d.exhausted}${d.aggregate}`)
      .attr("class", (d) => `link${d.onTarget ? " on-target" : ""}${d.exhausted ? " exhausted" : ""}${d.aggregate ? " to-aggregate" : ""}`)
      .style("stroke", (d) => (d.onTarget ? COLOURS.target : COLOURS.link))
      .style("stroke-width", (d) => (d.onTarget ? "2.5" : "1"))
      .style("stroke-dasharray", (d) => (d.exhausted && !d.onTarget ? "3 2" : d.aggregate ? "1 2" : null))
      .style("opacity", (d) => (d.onTarget ? "1" : d.exhausted ? "0.35" : "0.5"));
    const movedLinks = changed(links, "__place", (d) => `${d.x1},${d.y1},${d.x2},${d.y2}`);
    if (animate) movedLinks.transition().duration(TRANSITION_MS).attr("d", linkPath);
    else movedLinks.interrupt().attr("d", linkPath);

    const nodes = nodeLayer
      .selectAll<SVGGElement, LayoutNode>("g.node")
      .data(l.nodes, (d) => d.id)
      .join((enter) => {
        const g = enter.append("g").attr("transform", (d) => `translate(${d.x},${d.y})`).style("cursor", "pointer");
        g.append("title");
        g.append("rect");
        g.append("text").attr("class", "label").style("pointer-events", "none");
        g.on("click", (event: MouseEvent, d) => {
          event.stopPropagation();
          toggle(d);
        });
        return g;
      });
    const place = (d: LayoutNode): string => `translate(${d.x},${d.y})`;
    const moved = changed(nodes, "__place", place);
    if (animate) moved.transition().duration(TRANSITION_MS).attr("transform", place);
    else moved.interrupt().attr("transform", place);
    changed(nodes, "__title", (d) => d.title)
      .select("title")
      .text((d) => d.title);
    const restyled = changed(nodes, "__look", (d) => `${d.kind}|${d.status}|${d.exhausted}|${d.onTarget}|${d.collapsed}|${d.label}|${d.kind === "aggregate" && d.statuses.interesting > 0}`);
    restyled.attr("class", (d) => `node ${d.kind}${d.status ? ` status-${d.status}` : ""}${d.exhausted ? " exhausted" : ""}${d.onTarget ? " on-target" : ""}${d.collapsed ? " collapsed" : ""}`);
    // Choice nodes are circles (a rect with full rounding), aggregates are badges sized to their label.
    restyled
      .select<SVGRectElement>("rect")
      .each(function (d) {
        const r = select(this);
        if (d.kind === "aggregate") {
          const w = 8 + 6 * d.label.length;
          r.attr("x", -2).attr("y", -6).attr("width", w).attr("height", 12).attr("rx", 6).attr("ry", 6);
        } else {
          const rad = d.kind === "root" ? 6 : d.status !== undefined ? 4.5 : 3.5;
          r.attr("x", -rad).attr("y", -rad).attr("width", 2 * rad).attr("height", 2 * rad).attr("rx", rad).attr("ry", rad);
        }
      })
      .style("fill", (d) => nodeFill(d, hatch))
      .style("stroke", (d) => (d.onTarget ? COLOURS.target : d.kind === "aggregate" && d.statuses.interesting > 0 ? COLOURS.interesting : d.kind === "aggregate" ? "none" : COLOURS.node))
      .style("stroke-width", (d) => (d.onTarget ? "2" : d.collapsed ? "2.5" : "1"))
      .style("stroke-dasharray", (d) => (d.collapsed ? "2 1" : null));
    restyled
      .select<SVGTextElement>("text")
      .text((d) => d.label)
      .attr("x", (d) => (d.kind === "aggregate" ? 2 : -6))
      .attr("y", (d) => (d.kind === "aggregate" ? 3.5 : -5))
      .attr("text-anchor", (d) => (d.kind === "aggregate" ? "start" : "end"))
      .style("fill", (d) => (d.kind === "aggregate" ? COLOURS.badgeText : COLOURS.node))
      .style("font-weight", (d) => (d.onTarget ? "bold" : null))
      .style("font-size", (d) => (d.kind === "aggregate" ? "9px" : null));
    lastDrawAt = performance.now();
  }

  function render(m: TreeModel, animate: boolean): void {
    if (disposed) return;
    if (trailing !== undefined) {
      clearTimeout(trailing);
      trailing = undefined;
    }
    const now = performance.now();
    const quiet = now - lastDrawAt > QUIET_MS;
    lastLayoutAt = now;
    layout = layoutTree(m, { maxVisible, collapsed });
    laidOut = { model: m, version: m.version, collapsedVersion };
    draw(layout, animate && quiet);
    const hidden = layout.hiddenNodes > 0 ? ` · ${layout.hiddenNodes} in aggregates` : "";
    const dropped = m.droppedCases > 0 ? ` · ${m.droppedCases} cases not received` : "";
    summary.text(`${m.cases} cases · ${m.nodeCount} nodes${m.foldedNodes > 0 ? ` (${m.foldedNodes} folded)` : ""}${hidden}${dropped}${m.root.exhausted ? " · exhausted" : ""}`);
    if (follow) fitTransform(false);
  }

  return {
    update(m: TreeModel): void {
      model = m;
      if (disposed) return;
      if (laidOut !== undefined && laidOut.model === m && laidOut.version === m.version && laidOut.collapsedVersion === collapsedVersion) return;
      if (laidOut !== undefined && laidOut.model !== m) {
        collapsed.clear(); // a new run
        follow = true;
      }
      const wait = LAYOUT_INTERVAL_MS - (performance.now() - lastLayoutAt);
      if (wait > 0 && laidOut?.model === m) {
        trailing ??= setTimeout(() => {
          trailing = undefined;
          if (model !== undefined) render(model, true);
        }, wait);
        return;
      }
      render(m, true);
    },
    fit,
    dispose(): void {
      disposed = true;
      resizeObserver?.disconnect();
      if (trailing !== undefined) clearTimeout(trailing);
      svgSel.on(".zoom", null);
      svgSel.interrupt();
      root.remove();
    },
  };
}
