/**
 * Shrink candidates in words: how a candidate's sort key compares with the current target's ("shorter by 3",
 * "position 4: index 19 → 5"), what became of it (the verdict), and a bounded list of the most recent ones
 * per pass. "Simpler" is the engine's shortlex order on (length, indices); the engine reports which position
 * decided it, so the panel never recomputes the order.
 */
import type { ShrinkCandidateEvent, SortKeyComparison } from "../../src/shared/protocol.ts";
import type { Sequence } from "./cells.ts";

export type Verdict = "accepted" | "passed" | "invalid" | "overrun" | "not-simpler" | "rejected";

export interface CandidateRow {
  /** Sequence number of the candidate in this run: the join key. */
  readonly seq: number;
  readonly pass: string;
  readonly comparison: string;
  /** Where the sort keys differ: a position, or -1 when the lengths decided it (or they are equal). */
  readonly position: number;
  readonly simpler: boolean;
  readonly verdict: Verdict;
  readonly cached: boolean;
  readonly length: number;
}

export interface LatestCandidate {
  readonly row: CandidateRow;
  readonly candidate: Sequence;
  /** The target it was compared against (shared with the choices model, not copied). */
  readonly target: Sequence | undefined;
}

export interface CandidatesModel {
  readonly count: number;
  readonly latest: LatestCandidate | undefined;
  /** The last ROWS_PER_PASS candidates of each pass, oldest first. */
  readonly byPass: Readonly<Record<string, readonly CandidateRow[]>>;
  /** Passes in the order they first proposed a candidate. */
  readonly passes: readonly string[];
}

export const ROWS_PER_PASS = 40;
/** Pass names are a fixed small set in the engine; this only guards against a misbehaving stream. */
const MAX_PASSES = 64;

export const emptyCandidates: CandidatesModel = { count: 0, latest: undefined, byPass: {}, passes: [] };

/** Compact numbers: complexity indices can be astronomically large (a long string's index). */
export function formatIndex(n: number): string {
  if (!Number.isFinite(n) || n >= Number.MAX_VALUE) return "∞";
  if (Math.abs(n) < 1e6) return String(n);
  return n.toExponential(2).replace("e+", "e");
}

/** The comparison as a person would say it, candidate against target. */
export function describeComparison(c: SortKeyComparison): string {
  switch (c.by) {
    case "length": {
      const [cand, target] = c.lengths;
      const d = Math.abs(target - cand);
      if (d === 0) return "same length";
      return `${cand < target ? "shorter" : "longer"} by ${d} (${cand} vs ${target} choices)`;
    }
    case "position":
      return `position ${c.position}: index ${formatIndex(c.indices[1])} → ${formatIndex(c.indices[0])}`;
    default:
      return "same sort key";
  }
}

export function verdictOf(e: Pick<ShrinkCandidateEvent, "accepted" | "status" | "comparison">): Verdict {
  if (e.accepted) return "accepted";
  if (e.comparison.order >= 0) return "not-simpler";
  if (e.status === "valid") return "passed";
  if (e.status === "invalid") return "invalid";
  if (e.status === "overrun") return "overrun";
  return "rejected";
}

export const VERDICT_TEXT: Readonly<Record<Verdict, string>> = {
  accepted: "accepted: simpler and still fails",
  passed: "rejected: simpler, but the test passed",
  invalid: "rejected: invalid (assume or filter)",
  overrun: "rejected: ran out of choices",
  "not-simpler": "rejected: not simpler than the target",
  rejected: "rejected",
};

export function toRow(e: ShrinkCandidateEvent, seq: number): CandidateRow {
  const c = e.comparison;
  return {
    seq,
    pass: e.pass,
    comparison: describeComparison(c),
    position: c.by === "position" ? c.position : -1,
    simpler: c.order < 0,
    verdict: verdictOf(e),
    cached: e.cached,
    length: e.choices.length,
  };
}

/**
 * Add a batch's candidates (in order). Only the rows are kept per pass; the full cells are built for the last
 * candidate of the batch alone, since only it can be on screen. `toSeq` builds those cells.
 */
export function addCandidates(
  m: CandidatesModel,
  batch: readonly { readonly event: ShrinkCandidateEvent; readonly target: Sequence | undefined }[],
  toSeq: (e: ShrinkCandidateEvent) => Sequence,
): CandidatesModel {
  if (batch.length === 0) return m;
  const byPass: Record<string, readonly CandidateRow[]> = { ...m.byPass };
  const grown: Record<string, CandidateRow[]> = {};
  let passes = m.passes;
  let count = m.count;
  let lastRow: CandidateRow | undefined;
  for (const { event } of batch) {
    const row = toRow(event, count++);
    lastRow = row;
    let list = grown[row.pass];
    if (list === undefined) {
      if (byPass[row.pass] === undefined) {
        if (passes.length >= MAX_PASSES) continue;
        passes = [...passes, row.pass];
      }
      list = grown[row.pass] = (byPass[row.pass] ?? []).slice();
    }
    list.push(row);
    // Trim occasionally rather than per row: amortised O(1) per candidate.
    if (list.length > 2 * ROWS_PER_PASS) list.splice(0, list.length - ROWS_PER_PASS);
  }
  for (const [pass, list] of Object.entries(grown))
    byPass[pass] = list.length > ROWS_PER_PASS ? list.slice(-ROWS_PER_PASS) : list;
  const last = batch[batch.length - 1];
  const latest = lastRow === undefined ? m.latest : { row: lastRow, candidate: toSeq(last.event), target: last.target };
  return { count, latest, byPass, passes };
}
