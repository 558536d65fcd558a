/**
 * Layout of generation statistics (pure): the headline counts, event() labels as bars sorted by count, and
 * the size histogram (choices per generated case) as columns. Bars are fractions of the largest; the draw
 * step turns them into pixels.
 */
import type { StatsModel } from "../models/stats.ts";
import { OTHER_LABELS, sizeBinLabel } from "../models/stats.ts";

export interface Figure {
  readonly key: string;
  readonly label: string;
  readonly value: string;
  readonly title: string;
}

export interface Bar {
  readonly key: string;
  readonly label: string;
  readonly count: number;
  /** Of the largest bar, 0…1. */
  readonly fraction: number;
  /** Its share of the total ("34%", "<1%"). */
  readonly share: string;
  /** Count and share, "4012 (34%)". */
  readonly text: string;
}

export interface StatsLayout {
  readonly figures: readonly Figure[];
  readonly labels: readonly Bar[];
  readonly sizes: readonly Bar[];
  readonly note: string;
}

export const MAX_LABEL_BARS = 12;

function pct(n: number, total: number): string {
  if (total === 0) return "0%";
  const p = (100 * n) / total;
  return p > 0 && p < 1 ? "<1%" : `${Math.round(p)}%`;
}

export function layoutStats(m: StatsModel): StatsLayout {
  const judged = m.valid + m.invalid + m.overrun + m.interesting;
  const figures: Figure[] = [
    { key: "cases", label: "test cases", value: String(m.cases), title: "Test cases run (the final replay excluded)" },
    {
      key: "generated",
      label: "generated",
      value: String(m.generated),
      title: "Made by generation (received by the panel)",
    },
    {
      key: "shrink",
      label: "by the shrinker",
      value: String(m.shrinkCases),
      title: "Run by the shrinker (received by the panel)",
    },
    { key: "valid", label: "valid", value: `${m.valid} (${pct(m.valid, judged)})`, title: "Ran to the end and passed" },
    {
      key: "invalid",
      label: "invalid",
      value: `${m.invalid} (${pct(m.invalid, judged)})`,
      title: "Rejected by assume() or filter()",
    },
    { key: "overrun", label: "overrun", value: String(m.overrun), title: "Needed more choices than allowed" },
    { key: "failing", label: "failing", value: String(m.interesting), title: "Failed the property" },
    {
      key: "duplicates",
      label: "duplicates",
      value: m.duplicates === undefined ? "—" : String(m.duplicates),
      title: "Cases the DataTree had already seen (known at the end)",
    },
    {
      key: "tree",
      label: "DataTree nodes",
      value: `${m.treeNodes}${m.rootExhausted ? " (exhausted)" : ""}`,
      title: "Prefixes the engine's DataTree has recorded",
    },
  ];
  if (m.dropped > 0)
    figures.push({
      key: "dropped",
      label: "not shown",
      value: String(m.dropped),
      title: "Test cases the runner summarised away to keep up",
    });

  const entries = Object.entries(m.events).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const shown = entries.slice(0, MAX_LABEL_BARS);
  const rest = entries.slice(MAX_LABEL_BARS).reduce((a, e) => a + e[1], 0);
  if (rest > 0) shown.push([OTHER_LABELS, rest]);
  const labelTotal = entries.reduce((a, e) => a + e[1], 0);
  const labelMax = Math.max(1, ...shown.map((e) => e[1]));
  const bar = (key: string, label: string, count: number, max: number, total: number): Bar => {
    const share = pct(count, total);
    return { key, label, count, fraction: count / max, share, text: `${count} (${share})` };
  };
  const labels = shown.map(([label, count]) => bar(label, label, count, labelMax, labelTotal));

  // The histogram spans the bins from 0 up to the last non-empty one, so empty tails do not flatten it.
  let last = 0;
  m.sizes.forEach((n, k) => {
    if (n > 0) last = k;
  });
  const sizeMax = Math.max(1, ...m.sizes);
  const sizeTotal = m.sizes.reduce((a, n) => a + n, 0);
  const sizes = m.sizes
    .slice(0, last + 1)
    .map((count, k) => bar(String(k), sizeBinLabel(k), count, sizeMax, sizeTotal));

  const note = m.final
    ? "Final counts from the engine."
    : m.dropped > 0
      ? "Live counts from the cases received; exact counts arrive with the result."
      : "Live counts.";
  return { figures, labels, sizes, note };
}
