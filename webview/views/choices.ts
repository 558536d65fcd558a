/**
 * The choice-sequence view: the shrink target (animated as it shrinks) above the most recent test case, each
 * with a caption (length, index sum, which pass produced it), a legend of the choice types, and below them one
 * shared details line that hover or keyboard focus fills in, and a selected cell (click, Enter) keeps. The two
 * rows are drawn separately: the target changes on accepted shrinks, the current case on every batch, and
 * frames.ts paces them apart.
 */
import type { ChoicesModel } from "../model.ts";
import { layoutSequence } from "../layout/sequence.ts";
import { drawSequence } from "./sequence.ts";
import { part, type Sel, text } from "./dom.ts";

const TYPES = ["integer", "float", "boolean", "string", "bytes"] as const;
/** Target changes closer together than this are not animated: a burst of shrinks would only be a blur. */
const ANIMATE_GAP_MS = 600;
/** The current case is a ticker: two rows of cells are enough to see its shape. */
const CURRENT_ROWS = 2;

function frame(host: Sel): { detail: Sel<HTMLDivElement>; target: Sel<HTMLDivElement>; current: Sel<HTMLDivElement> } {
  part(host, "div", "legend", (s) =>
    s
      .attr("aria-hidden", "true")
      .selectAll("span")
      .data([...TYPES, "simple → complex"])
      .join("span")
      .attr("class", (d) => (d === "simple → complex" ? "key shade-key" : `key ${d}`))
      .call(text, (d) => d),
  );
  const target = part(host, "div", "row target");
  const current = part(host, "div", "row current");
  // Below the rows, where a selected cell's full value has the panel's width.
  const detail = part(host, "div", "detail", (s) =>
    s
      .attr("aria-live", "polite")
      .call(
        text,
        "Hover over a cell to see its value, index and constraints; click one (or Enter) to keep them here. Arrow keys move between cells.",
      ),
  );
  return { detail, target, current };
}

const lastTargetAt = new WeakMap<Element, number>();

export function drawTarget(host: Sel, m: ChoicesModel, width: number): void {
  const { detail, target } = frame(host);
  const node = target.node();
  const now = performance.now();
  const animate = node !== null && now - (lastTargetAt.get(node) ?? -Infinity) >= ANIMATE_GAP_MS;
  if (node) lastTargetAt.set(node, now);
  part(target, "h3", "caption").call(
    text,
    m.target === undefined
      ? "Shrink target: none yet (no failing case found)"
      : `Shrink target${m.targetPass ? ` (from ${m.targetPass})` : ""} · ${m.shrinks} shrink${m.shrinks === 1 ? "" : "s"}`,
  );
  const lay = layoutSequence(m.target, width);
  part(target, "p", "summary").call(
    text,
    m.target === undefined ? "" : `${lay.summary}${lay.more > 0 ? ` · first ${m.target.cells.length} drawn` : ""}`,
  );
  drawSequence(part(target, "div", "cells"), lay, {
    label: "Shrink target",
    animate,
    onDetail: (t) => void detail.call(text, t),
  });
}

export function drawCurrent(host: Sel, m: ChoicesModel, width: number): void {
  const { detail, current } = frame(host);
  const cur = m.current;
  part(current, "h3", "caption").call(
    text,
    cur === undefined
      ? "Current test case: none yet"
      : `Current test case #${cur.id} · ${cur.origin}${cur.pass ? ` (${cur.pass})` : ""} · ${cur.status}`,
  );
  const lay = layoutSequence(cur?.seq, width, undefined, CURRENT_ROWS);
  part(current, "p", "summary").call(
    text,
    cur === undefined ? "" : `${lay.summary}${lay.more > 0 ? ` · first ${lay.cells.length} drawn` : ""}`,
  );
  drawSequence(part(current, "div", "cells"), lay, {
    label: "Current test case",
    animate: false,
    byPosition: true,
    onDetail: (t) => void detail.call(text, t),
  });
}
