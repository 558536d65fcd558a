/**
 * Layout of a choice sequence as rows of cells (pure: no DOM, tested in Node). One cell per choice, wrapped
 * to the available width; its fill strength grows with the choice's complexity index (log scale, so both a
 * boolean's 0/1 and a long string's 10^130 read sensibly); spans (list elements, nested strategies) are
 * brackets under the cells, one band per depth, split where a span wraps onto the next row.
 */
import type { Cell, Sequence } from "../models/cells.ts";
import { MAX_SPAN_DEPTH } from "../models/cells.ts";
import { formatIndex } from "../models/candidates.ts";

export const CELL_W = 38;
export const CELL_H = 22;
export const GAP = 2;
export const SPAN_BAND = 4;
export const ROW_H = CELL_H + (MAX_SPAN_DEPTH + 1) * SPAN_BAND + 6;

export interface CellBox {
  readonly key: number;
  readonly pos: number;
  readonly x: number;
  readonly y: number;
  readonly type: Cell["type"];
  readonly short: string;
  /** 0 (simplest) … 1 (very complex). */
  readonly shade: number;
  readonly forced: boolean;
  /** Marked: the position that decided a comparison, or a cell that differs from the other row. */
  readonly mark: boolean;
  /** Everything about the choice, for hover, focus and screen readers. */
  readonly detail: string;
}

export interface SpanSegment {
  readonly key: string;
  readonly x1: number;
  readonly x2: number;
  readonly y: number;
  readonly depth: number;
  readonly label: string;
}

export interface SequenceLayout {
  readonly cells: readonly CellBox[];
  readonly spans: readonly SpanSegment[];
  readonly width: number;
  readonly height: number;
  /** Choices not drawn (the model keeps MAX_CELLS). */
  readonly more: number;
  readonly summary: string;
}

/** Complexity index → shade: 0 → 0, 1 → 0.5, 1000 → 0.91, 10^130 → ~1. */
export function shade(index: number): number {
  return index <= 0 ? 0 : 1 - 1 / (1 + Math.log2(1 + index));
}

export function describeCell(c: Cell): string {
  return `#${c.pos} ${c.type} ${c.text} · index ${formatIndex(c.index)}${c.forced ? " · forced" : ""} · ${c.constraints}`;
}

export function cellBox(c: Cell, x: number, y: number, mark: boolean): CellBox {
  return {
    key: c.id,
    pos: c.pos,
    x,
    y,
    type: c.type,
    short: c.short,
    shade: shade(c.index),
    forced: c.forced,
    mark,
    detail: describeCell(c),
  };
}

export function summarise(seq: Sequence): string {
  return `${seq.length} choice${seq.length === 1 ? "" : "s"}, index sum ${formatIndex(seq.indexSum)}`;
}

/** Wrapped rows of cells, `width` pixels wide, at most `maxRows` rows; `marks` are positions to highlight. */
export function layoutSequence(
  seq: Sequence | undefined,
  width: number,
  marks: ReadonlySet<number> = new Set(),
  maxRows = Infinity,
): SequenceLayout {
  if (seq === undefined) return { cells: [], spans: [], width, height: 0, more: 0, summary: "" };
  const perRow = Math.max(1, Math.floor((width + GAP) / (CELL_W + GAP)));
  const shown = Math.min(seq.cells.length, perRow * maxRows);
  if (shown < seq.cells.length)
    seq = {
      ...seq,
      cells: seq.cells.slice(0, shown),
      spans: seq.spans.filter((s) => s.start < shown).map((s) => ({ ...s, end: Math.min(s.end, shown) })),
    };
  const at = (pos: number): { x: number; y: number } => ({
    x: (pos % perRow) * (CELL_W + GAP),
    y: Math.floor(pos / perRow) * ROW_H,
  });
  const cells = seq.cells.map((c) => {
    const p = at(c.pos);
    return cellBox(c, p.x, p.y, marks.has(c.pos));
  });
  const spans: SpanSegment[] = [];
  seq.spans.forEach((s, i) => {
    // One segment per row the span covers.
    for (let start = s.start; start < s.end;) {
      const rowEnd = (Math.floor(start / perRow) + 1) * perRow;
      const end = Math.min(s.end, rowEnd);
      const a = at(start);
      spans.push({
        key: `${i}:${start}`,
        x1: a.x + 1,
        x2: a.x + (end - start) * (CELL_W + GAP) - GAP - 1,
        y: a.y + CELL_H + 3 + s.depth * SPAN_BAND,
        depth: s.depth,
        label: s.label,
      });
      start = end;
    }
  });
  const rows = Math.max(1, Math.ceil(seq.cells.length / perRow));
  return { cells, spans, width, height: rows * ROW_H, more: seq.length - seq.cells.length, summary: summarise(seq) };
}
