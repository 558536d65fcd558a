/**
 * Generation statistics, the view Tyche gives Hypothesis users: how many cases ran (generated, and by the
 * shrinker) and how many were valid, invalid, overruns, failing or duplicates, the labels passed to event() with their counts, and the
 * distribution of test-case sizes (number of choices, in powers-of-two bins). Counts and histograms only —
 * never the cases themselves — so memory does not grow with the run.
 *
 * Live numbers come from the test-case events the panel received (the runner may drop some under load; those
 * are counted separately); the result event's statistics, exact and complete, replace them at the end.
 */
import type { ResultEvent, TestCaseEvent } from "../../src/shared/protocol.ts";

export interface StatsModel {
  /** Test cases received (the final replay of the minimal example excluded, as the engine counts). */
  readonly cases: number;
  /** …of which made by generation, and by the shrinker. */
  readonly generated: number;
  readonly shrinkCases: number;
  /** …by status. */
  readonly valid: number;
  readonly invalid: number;
  readonly overrun: number;
  readonly interesting: number;
  /** Test-case events the runner summarised away. */
  readonly dropped: number;
  /** Known only from the result. */
  readonly duplicates: number | undefined;
  readonly events: Readonly<Record<string, number>>;
  /** sizes[k]: generated cases whose choice count falls in bin k (see sizeBin). */
  readonly sizes: readonly number[];
  readonly treeNodes: number;
  readonly rootExhausted: boolean;
  /** True once the result's exact statistics replaced the live counts. */
  readonly final: boolean;
}

export const SIZE_BINS = 16;
/** Distinct event() labels kept; the rest are counted under one "other labels" entry. */
export const MAX_LABELS = 100;
export const OTHER_LABELS = "(other labels)";

export const emptyStats: StatsModel = {
  cases: 0,
  generated: 0,
  shrinkCases: 0,
  valid: 0,
  invalid: 0,
  overrun: 0,
  interesting: 0,
  dropped: 0,
  duplicates: undefined,
  events: {},
  sizes: new Array<number>(SIZE_BINS).fill(0),
  treeNodes: 0,
  rootExhausted: false,
  final: false,
};

/** Bin 0 holds size 0, bin k ≥ 1 holds sizes in [2^(k−1), 2^k); the last bin is open-ended. */
export function sizeBin(n: number): number {
  if (n <= 0) return 0;
  return Math.min(SIZE_BINS - 1, 1 + Math.floor(Math.log2(n)));
}

export function sizeBinLabel(k: number): string {
  if (k === 0) return "0";
  const lo = 2 ** (k - 1);
  const hi = 2 ** k - 1;
  if (k === SIZE_BINS - 1) return `${lo}+`;
  return lo === hi ? String(lo) : `${lo}–${hi}`;
}

/** Fold a batch of test cases into the counts (one new model per batch, not per case). */
export function addCases(m: StatsModel, batch: readonly TestCaseEvent[], dropped: number): StatsModel {
  if (batch.length === 0 && dropped === 0) return m;
  let cases = m.cases;
  let { generated, shrinkCases, valid, invalid, overrun, interesting } = m;
  const sizes = m.sizes.slice();
  let events: Record<string, number> | undefined;
  for (const e of batch) {
    // The engine's statistics leave out the final replays and the explain phase's variations; so do these.
    if (e.origin === "final" || e.origin === "explain") continue;
    cases++;
    // The target phase's attempts spend generation's budget: they count as generated.
    if (e.origin === "generate" || e.origin === "target") {
      generated++;
      sizes[sizeBin(e.choices.length)]++;
    } else if (e.origin === "shrink") shrinkCases++;
    if (e.status === "valid") valid++;
    else if (e.status === "invalid") invalid++;
    else if (e.status === "overrun") overrun++;
    else interesting++;
    if (e.events !== undefined && e.events.length > 0 && !m.final) {
      events ??= { ...m.events };
      for (const label of e.events) {
        const key = label in events || Object.keys(events).length < MAX_LABELS ? label : OTHER_LABELS;
        events[key] = (events[key] ?? 0) + 1;
      }
    }
  }
  return {
    ...m,
    cases,
    generated,
    shrinkCases,
    valid,
    invalid,
    overrun,
    interesting,
    dropped: m.dropped + dropped,
    sizes,
    events: events ?? m.events,
  };
}

export function addTree(m: StatsModel, totalNodes: number, rootExhausted: boolean): StatsModel {
  if (m.treeNodes === totalNodes && m.rootExhausted === rootExhausted) return m;
  return { ...m, treeNodes: totalNodes, rootExhausted };
}

/**
 * The result's exact counts: what the engine itself counted, dropped cases included — its examples (the cases that
 * searched) and the shrinker's cases make the panel's test cases. The engine splits only its examples by outcome;
 * the split the panel shows stays the one of every case it received.
 */
export function addResult(m: StatsModel, r: ResultEvent): StatsModel {
  const s = r.statistics;
  const events: Record<string, number> = {};
  for (const [label, n] of Object.entries(s.events ?? {})) {
    const key = label in events || Object.keys(events).length < MAX_LABELS ? label : OTHER_LABELS;
    events[key] = (events[key] ?? 0) + n;
  }
  // A result without shrinkCases counts every case in its examples.
  const apart = typeof s.shrinkCases === "number";
  return {
    ...m,
    cases: s.examples + (apart ? s.shrinkCases : 0),
    shrinkCases: apart ? s.shrinkCases : m.shrinkCases,
    duplicates: s.duplicates,
    events,
    final: true,
  };
}
