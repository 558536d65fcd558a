/**
 * Shrink progress: the target's sort key over the run (its length and index sum, one point per accepted
 * shrink), each pass's runs, calls and accepted shrinks, the pass running now, and the totals at the end.
 *
 * Memory stays bounded on long runs: the series keeps every point until MAX_POINTS, then halves its
 * resolution (every other point, always keeping the first and the newest) and from then on only keeps one
 * point in `stride` — so a chart of a million shrinks costs the same as one of six hundred. Six hundred is about
 * a point per pixel column of a wide chart: more would only lengthen the path the panel redraws (and the copy
 * each accepted shrink makes of the series) without changing a pixel.
 */
export interface ProgressPoint {
  /** Shrink candidates proposed so far when this target was accepted (the x axis). */
  readonly x: number;
  readonly length: number;
  readonly indexSum: number;
}

export interface PassRow {
  readonly name: string;
  readonly runs: number;
  readonly calls: number;
  readonly accepted: number;
  readonly candidates: number;
}

export interface Totals {
  readonly examples: number;
  readonly shrinkCalls: number;
  readonly shrinks: number;
  readonly timeMs: number;
  readonly shrinkStopped: string | undefined;
}

/** A target() label and its best score so far (display text: scores may be ±Infinity, which JSON cannot hold). */
export interface TargetRow {
  readonly label: string;
  readonly score: string;
}

/** Whether the run has a target phase: none yet, climbing now, or over. */
export type TargetPhase = "none" | "climbing" | "done";

export interface ProgressModel {
  readonly points: readonly ProgressPoint[];
  /** Keep one point in `stride` (1 until the series first fills). */
  readonly stride: number;
  /** Points offered since the last one kept. */
  readonly skipped: number;
  /** The newest point even when the stride skipped it: the chart always ends at the current target. */
  readonly last: ProgressPoint | undefined;
  readonly passes: readonly PassRow[];
  readonly currentPass: string;
  /** Calls and accepted of the current pass before its current run (the end event reports per run). */
  readonly base: { readonly calls: number; readonly accepted: number };
  readonly totals: Totals | undefined;
  /** target() labels (the first MAX_TARGETS by name) with their best scores, and where the target phase is. */
  readonly targets: readonly TargetRow[];
  readonly targetPhase: TargetPhase;
}

export const MAX_POINTS = 600;

export const MAX_TARGETS = 12;

export const emptyProgress: ProgressModel = {
  points: [],
  stride: 1,
  skipped: 0,
  last: undefined,
  passes: [],
  currentPass: "",
  base: { calls: 0, accepted: 0 },
  totals: undefined,
  targets: [],
  targetPhase: "none",
};

/** A score as shown: up to 6 significant digits, infinities spelled out. */
function scoreText(v: number): string {
  if (v === Infinity) return "∞";
  if (v === -Infinity) return "−∞";
  return Number.isInteger(v) && Math.abs(v) < 1e15 ? String(v) : String(Number(v.toPrecision(6)));
}

/**
 * The best score per label from a targets event (untrusted data: only string labels with numeric scores are
 * kept, at most MAX_TARGETS of them, by label). A null score is an infinite one the host's postMessage (JSON)
 * flattened — target() takes no NaN — and its label still has a best score to show.
 */
export function setTargets(m: ProgressModel, best: unknown): ProgressModel {
  if (typeof best !== "object" || best === null) return m;
  const rows: TargetRow[] = [];
  for (const [label, v] of Object.entries(best as Record<string, unknown>)) {
    if (typeof v === "number" && !Number.isNaN(v)) rows.push({ label: label.slice(0, 80), score: scoreText(v) });
    else if (v === null) rows.push({ label: label.slice(0, 80), score: "±∞" });
  }
  rows.sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  return { ...m, targets: rows.slice(0, MAX_TARGETS) };
}

/** A phase began: the target phase climbs, and any phase after it means it is over. */
export function phaseStarted(m: ProgressModel, phase: string): ProgressModel {
  const targetPhase = phase === "target" ? "climbing" : m.targetPhase === "climbing" ? "done" : m.targetPhase;
  return targetPhase === m.targetPhase ? m : { ...m, targetPhase };
}

/** Append a point, halving the resolution when full (pure: returns a new model). */
export function addPoint(m: ProgressModel, p: ProgressPoint): ProgressModel {
  const skipped = m.skipped + 1;
  if (skipped < m.stride) return { ...m, skipped, last: p };
  let points = [...m.points, p];
  let stride = m.stride;
  if (points.length > MAX_POINTS) {
    points = points.filter((_, i) => i % 2 === 0 || i === points.length - 1);
    stride *= 2;
  }
  return { ...m, points, stride, skipped: 0, last: p };
}

/** The series as drawn: the kept points plus the newest one. */
export function series(m: ProgressModel): readonly ProgressPoint[] {
  const last = m.last;
  if (last === undefined || m.points[m.points.length - 1] === last) return m.points;
  return [...m.points, last];
}

function updatePass(passes: readonly PassRow[], name: string, f: (r: PassRow) => PassRow): PassRow[] {
  const i = passes.findIndex((r) => r.name === name);
  const row = i >= 0 ? passes[i] : { name, runs: 0, calls: 0, accepted: 0, candidates: 0 };
  const next = passes.slice();
  if (i >= 0) next[i] = f(row);
  else next.push(f(row));
  return next;
}

export function passStarted(m: ProgressModel, name: string): ProgressModel {
  const row = m.passes.find((r) => r.name === name);
  return {
    ...m,
    currentPass: name,
    base: { calls: row?.calls ?? 0, accepted: row?.accepted ?? 0 },
    passes: updatePass(m.passes, name, (r) => ({ ...r, runs: r.runs + 1 })),
  };
}

/** The pass's own count of calls and accepted shrinks for this run replaces what candidates suggested. */
export function passEnded(m: ProgressModel, name: string, calls: number, accepted: number): ProgressModel {
  const base = m.currentPass === name ? m.base : { calls: 0, accepted: 0 };
  return {
    ...m,
    currentPass: m.currentPass === name ? "" : m.currentPass,
    passes: updatePass(m.passes, name, (r) => ({
      ...r,
      calls: base.calls + calls,
      accepted: base.accepted + accepted,
    })),
  };
}

/** Live counts while a pass runs, from its candidates (calls: those not answered from the DataTree). */
export function passCandidates(
  m: ProgressModel,
  name: string,
  candidates: number,
  calls: number,
  accepted: number,
): ProgressModel {
  if (candidates === 0) return m;
  return {
    ...m,
    passes: updatePass(m.passes, name, (r) => ({
      ...r,
      candidates: r.candidates + candidates,
      calls: r.calls + calls,
      accepted: r.accepted + accepted,
    })),
  };
}
