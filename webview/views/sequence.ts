/**
 * Draws a SequenceLayout: cells (a fill whose opacity is the complexity shade, and a short label) and span
 * brackets. Cells are joined by their stable id, so when the shrink target changes, cells deleted from it fade
 * and shrink away, surviving cells slide to their new positions, and cells whose value got simpler flash.
 * Hover or keyboard focus on a cell reports its details (value, index, constraints) through `onDetail`; a click
 * (or Enter) selects the cell, whose details then stay — its full value, which the cell cuts to five
 * characters — until another is selected (the row keeps the selection by the cell's id, through shrinks).
 *
 * Why HTML boxes and not SVG: rows change every frame while a run streams, and SVG re-lays-out all of its text
 * on any change (the profile showed tens of ms a frame for a few hundred cells). Fixed-size, absolutely
 * positioned boxes with CSS containment confine each change to its own cell. Each cell is placed by left/top
 * and its fill is its type's colour mixed into the background by a custom property (panel.css): a transform,
 * a clip or an opacity per cell would each add a paint layer node that every frame walks. Styles are set
 * through the CSSOM (`.style`), which the panel's CSP allows. The row listens for its cells' events itself
 * (one set of listeners per row, not per cell).
 *
 * Keyboard: the row is one tab stop; arrow keys, Home and End move between cells (a roving focus).
 */
import type { BaseType } from "d3-selection";
import "d3-transition";
import type { CellBox, SequenceLayout, SpanSegment } from "../layout/sequence.ts";
import { CELL_H } from "../layout/sequence.ts";
import { attr, motion, part, rovingGroup, type Sel } from "./dom.ts";

export interface SequenceOptions {
  readonly label: string;
  /** Animate changes (the shrink target); off for rows that change every frame. */
  readonly animate: boolean;
  readonly onDetail: (text: string) => void;
  /**
   * Join cells by position instead of by choice id: for a row that shows a new test case on every draw (and does
   * not animate), each cell element is reused and only what changed is written, instead of the whole row made
   * and removed.
   */
  readonly byPosition?: boolean;
}

// The fill's strength, as a share of the type's colour (panel.css mixes it over the background); capped at 70 % so
// the label stays readable on the strongest fill in light themes too.
const strength = (d: CellBox): string => `${(12 + 58 * d.shade).toFixed(1)}%`;
const px = (n: number): string => `${n}px`;
/** Place a cell by left/top, writing only what moved (as the CSSOM serialises it, so unchanged reads equal). */
function place(el: HTMLElement, d: CellBox): void {
  const left = px(d.x);
  const top = px(d.y);
  if (el.style.left !== left) el.style.left = left;
  if (el.style.top !== top) el.style.top = top;
}
/** What the details line says of the selected cell. */
const selectedText = (d: CellBox): string => `Selected: ${d.detail}`;

/** A row's element, carrying the current draw's details callback for the listeners made with it. */
type RowNode = HTMLDivElement & { onDetail?: (text: string) => void };

export function drawSequence<P extends BaseType>(
  host: Sel<P>,
  lay: SequenceLayout,
  opts: SequenceOptions,
): Sel<HTMLDivElement> {
  const row = part(host, "div", "sequence", (s) => {
    s.attr("role", "group");
    const node = s.node()!;
    rovingGroup(node, "div.cell:not(.leaving)");
    // One listener per row, not per cell (cells are made and dropped as a run streams): the cell an event is
    // for and its data are found from its target.
    const cellOf = (ev: Event): { el: HTMLElement; d: CellBox } | undefined => {
      const el = (ev.target as Element | null)?.closest?.("div.cell");
      const d = el ? (el as unknown as { __data__?: CellBox }).__data__ : undefined;
      return el instanceof HTMLElement && d !== undefined && node.contains(el) ? { el, d } : undefined;
    };
    const select = (el: HTMLElement, d: CellBox): void => {
      node.querySelector("div.cell.selected")?.classList.remove("selected");
      el.classList.add("selected");
      node.dataset.selected = String(d.key);
      node.dataset.selectedDetail = selectedText(d);
      (node as RowNode).onDetail?.(node.dataset.selectedDetail);
    };
    const show = (ev: Event): void => {
      const c = cellOf(ev);
      if (c) (node as RowNode).onDetail?.(c.d.detail);
    };
    node.addEventListener("pointerover", show);
    node.addEventListener("focusin", show);
    node.addEventListener("click", (ev) => {
      const c = cellOf(ev);
      if (c) select(c.el, c.d);
    });
    node.addEventListener("keydown", (ev) => {
      if (ev.key !== "Enter" && ev.key !== " ") return;
      const c = cellOf(ev);
      if (!c) return;
      ev.preventDefault();
      select(c.el, c.d);
    });
    // Hover shows a cell's details for a moment; leaving the row brings back the selected one's.
    node.addEventListener("pointerleave", () => {
      const chosen = node.dataset.selectedDetail;
      if (chosen !== undefined) (node as RowNode).onDetail?.(chosen);
    });
  });
  const rowNode = row.node()! as RowNode;
  // The listeners above were made once; they report to this draw's callback.
  rowNode.onDetail = opts.onDetail;
  row
    .style("width", `${lay.width}px`)
    .style("height", `${Math.max(lay.height, CELL_H + 4)}px`)
    .attr("aria-label", `${opts.label}: ${lay.summary}${lay.more > 0 ? `, ${lay.more} more not drawn` : ""}`);
  const ms = opts.animate ? motion(350) : 0;
  const detail = opts.onDetail;
  // Brackets under the cells; both layers made once.
  const spanLayer = part(row, "div", "spans");
  const cellLayer = part(row, "div", "cells");

  cellLayer
    .selectAll<HTMLDivElement, CellBox>("div.cell")
    .data(lay.cells, opts.byPosition ? (_d, i) => String(i) : (d) => String(d.key))
    .join(
      (enter) => {
        const c = enter
          .append("div")
          .attr("tabindex", "-1")
          .style("left", (d) => px(d.x))
          .style("top", (d) => px(d.y));
        c.append("span").attr("class", "label");
        if (ms > 0) c.style("opacity", "0").transition().duration(ms).style("opacity", "1");
        return c;
      },
      (update) => {
        // A surviving cell whose index changed got simpler (or, rarely, different): flash it.
        update.each(function (d) {
          const flash = ms > 0 && this.dataset.shade !== undefined && this.dataset.shade !== String(d.shade);
          if (this.classList.contains("changed") !== flash) this.classList.toggle("changed", flash);
        });
        if (ms > 0)
          update
            .transition()
            .duration(ms)
            .style("left", (d) => px(d.x))
            .style("top", (d) => px(d.y));
        else
          update.each(function (d) {
            place(this, d);
          });
        return update;
      },
      (exit) => {
        if (ms === 0) return exit.remove();
        exit
          .classed("leaving", true)
          .attr("tabindex", null)
          .transition()
          .duration(ms)
          .style("opacity", "0")
          .style("transform", "scale(0.2)")
          .remove();
        return exit;
      },
    )
    .each(function (d) {
      // Write only what changed: a row redrawn every few frames mostly keeps its cells, and every DOM write
      // would cost a style invalidation.
      const selected = rowNode.dataset.selected === String(d.key);
      const cls = `cell ${d.type}${d.forced ? " forced" : ""}${d.mark ? " mark" : ""}${selected ? " selected" : ""}${this.classList.contains("changed") ? " changed" : ""}${this.classList.contains("leaving") ? " leaving" : ""}`;
      if (this.className !== cls) this.className = cls;
      // The selected cell got simpler: its details follow.
      if (selected && rowNode.dataset.selectedDetail !== selectedText(d)) {
        rowNode.dataset.selectedDetail = selectedText(d);
        detail(rowNode.dataset.selectedDetail);
      }
      if (this.getAttribute("aria-label") !== d.detail) this.setAttribute("aria-label", d.detail);
      const shade = String(d.shade);
      if (this.dataset.shade !== shade) {
        this.dataset.shade = shade;
        this.style.setProperty("--strength", strength(d));
      }
      const label = this.lastChild as HTMLElement;
      if (label.textContent !== d.short) label.textContent = d.short;
    });

  spanLayer
    .selectAll<HTMLDivElement, SpanSegment>("div.span")
    .data(lay.spans, (d) => d.key)
    .join("div")
    .call(attr, "class", (d) => `span depth${d.depth}`)
    .call(attr, "title", (d) => d.label)
    .style("left", (d) => px(d.x1))
    .style("top", (d) => px(d.y))
    .style("width", (d) => `${Math.max(2, d.x2 - d.x1)}px`);
  return row;
}
