/**
 * Layout of the sort-key comparison (pure): the latest candidate under the target it was compared with,
 * cell for cell on one line each, so the deciding position lines up. Shortlex compares lengths first, then
 * indices left to right, so the window of columns shown is the one around where the two keys part: the
 * deciding position, or the end of the shorter sequence when the lengths decided.
 */
import type { CandidateRow, CandidatesModel } from "../models/candidates.ts";
import { VERDICT_TEXT } from "../models/candidates.ts";
import type { Sequence } from "../models/cells.ts";
import type { CellBox } from "./sequence.ts";
import { CELL_H, CELL_W, GAP, cellBox } from "./sequence.ts";

export const LINE_H = CELL_H + 18;

export interface ComparisonLayout {
  readonly pass: string;
  readonly comparison: string;
  readonly verdict: CandidateRow["verdict"];
  readonly verdictText: string;
  readonly cached: boolean;
  readonly target: readonly CellBox[];
  readonly candidate: readonly CellBox[];
  /** Columns [from, to) are shown; x of the deciding column, or -1. */
  readonly from: number;
  readonly to: number;
  readonly markX: number;
  readonly width: number;
  readonly height: number;
}

export interface CandidateListLayout {
  readonly passes: readonly { readonly name: string; readonly count: number; readonly selected: boolean }[];
  readonly rows: readonly CandidateRow[];
  readonly selected: string;
}

function row(
  seq: Sequence | undefined,
  from: number,
  to: number,
  y: number,
  decide: number,
  other: Sequence | undefined,
): CellBox[] {
  if (seq === undefined) return [];
  const out: CellBox[] = [];
  for (let pos = from; pos < to && pos < seq.cells.length; pos++) {
    const c = seq.cells[pos];
    const o = other?.cells[pos];
    // Differences other than the deciding one are marked too: a pass often changes several choices at once.
    const differs = o === undefined || o.index !== c.index || o.type !== c.type;
    // Keys are positions here: the two rows are aligned by position, not by identity.
    out.push({ ...cellBox(c, (pos - from) * (CELL_W + GAP), y, pos === decide || differs), key: pos });
  }
  return out;
}

export function layoutComparison(m: CandidatesModel, width: number): ComparisonLayout | undefined {
  const latest = m.latest;
  if (latest === undefined) return undefined;
  const { row: r, candidate, target } = latest;
  const cols = Math.max(1, Math.floor((width + GAP) / (CELL_W + GAP)));
  const decide = r.position >= 0 ? r.position : Math.min(candidate.length, target?.length ?? 0);
  const longest = Math.max(candidate.cells.length, target?.cells.length ?? 0);
  const from = Math.max(0, Math.min(decide - Math.floor(cols / 2), longest - cols));
  const to = from + cols;
  return {
    pass: r.pass,
    comparison: r.comparison,
    verdict: r.verdict,
    verdictText: VERDICT_TEXT[r.verdict],
    cached: r.cached,
    target: row(target, from, to, 0, r.position, candidate),
    candidate: row(candidate, from, to, LINE_H, r.position, target),
    from,
    to,
    markX: r.position >= from && r.position < to ? (r.position - from) * (CELL_W + GAP) : -1,
    width,
    height: 2 * LINE_H,
  };
}

/** The recent candidates of one pass, newest first; `selected` defaults to the pass that proposed the latest. */
export function layoutCandidateList(m: CandidatesModel, selected: string | undefined): CandidateListLayout {
  const current =
    selected !== undefined && m.byPass[selected] !== undefined ? selected : (m.latest?.row.pass ?? m.passes[0] ?? "");
  return {
    passes: m.passes.map((name) => ({ name, count: m.byPass[name]?.length ?? 0, selected: name === current })),
    rows: (m.byPass[current] ?? []).slice().reverse(),
    selected: current,
  };
}
