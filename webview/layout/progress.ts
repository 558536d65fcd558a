/**
 * Layout of shrink progress (pure; d3-scale computes, it does not touch the DOM): the target's
 * sort key over the run as two stacked step charts sharing the x axis (shrink candidates so far) — length on
 * top, index sum (log scale: sums span hundreds of orders of magnitude) below — and the pass table.
 */
import { scaleLinear, scaleSymlog } from "d3-scale";
import type { PassRow, ProgressModel, TargetPhase, TargetRow } from "../models/progress.ts";
import { series } from "../models/progress.ts";
import { formatIndex } from "../models/candidates.ts";

/** top: room for the first panel's title, above its frame (each title sits in the space above its panel). */
export const MARGIN = { left: 54, right: 10, top: 16, bottom: 20 };
export const PANEL_H = 70;
export const PANEL_GAP = 16;

export interface Tick {
  readonly key: string;
  readonly pos: number;
  readonly label: string;
}

export interface ChartPanel {
  readonly key: "length" | "index";
  readonly title: string;
  readonly y: number;
  readonly path: string;
  readonly yTicks: readonly Tick[];
  readonly last: { readonly x: number; readonly y: number; readonly label: string } | undefined;
}

export interface ProgressLayout {
  readonly width: number;
  readonly height: number;
  readonly innerWidth: number;
  readonly panels: readonly ChartPanel[];
  readonly xTicks: readonly Tick[];
  readonly points: number;
  readonly passes: readonly (PassRow & { readonly current: boolean })[];
  readonly currentPass: string;
  readonly totals: string | undefined;
  /** The target phase's caption and the best score per label (absent when the property calls no target()). */
  readonly targets: { readonly caption: string; readonly rows: readonly TargetRow[] } | undefined;
}

const TARGET_CAPTIONS: Record<TargetPhase, string> = {
  none: "target(): best score per label (the target phase starts halfway through generation)",
  climbing: "Target phase: climbing toward higher target() scores",
  done: "target(): best score per label (target phase done)",
};

function fmt(n: number): string {
  return Math.abs(n) >= 1e4 ? n.toExponential(0).replace("e+", "e") : String(Math.round(n));
}

/**
 * Whole-number ticks of a linear scale over counts (lengths, accepted shrinks): d3's own over a small domain are
 * fractions, which rounded read "0 0 1 1" — each whole number once instead.
 */
export function countTicks(scale: { ticks(count: number): number[] }, count: number): number[] {
  return [...new Set(scale.ticks(count).filter(Number.isInteger))];
}

/** 0 and up to three powers of ten spread over [1, max] (symlog's own ticks crowd at the top). */
export function logTicks(max: number): number[] {
  const top = Math.floor(Math.log10(Math.max(1, max)));
  if (top <= 0) return [0, 1];
  const step = Math.max(1, Math.ceil(top / 3));
  const out = [0];
  for (let k = top; k > 0; k -= step) out.push(10 ** k);
  return out.sort((a, b) => a - b);
}

/** Tenths of a pixel: finer than a screen draws, and the path's text stays short. */
const tenth = (v: number): number => Math.round(v * 10) / 10;

/**
 * The step line through the points (each value held until the next x) as H/V segments in tenths of a pixel,
 * a level that does not change drawn once: the shortest text for the browser to parse on every redraw.
 */
export function stepPath(xs: readonly number[], ys: readonly number[]): string {
  if (xs.length === 0) return "";
  let y = tenth(ys[0]);
  let out = `M${tenth(xs[0])},${y}`;
  for (let i = 1; i < xs.length; i++) {
    const ny = tenth(ys[i]);
    if (ny === y && i < xs.length - 1) continue;
    out += `H${tenth(xs[i])}`;
    if (ny !== y) out += `V${ny}`;
    y = ny;
  }
  return out;
}

export function layoutProgress(m: ProgressModel, width: number): ProgressLayout {
  const pts = series(m);
  const innerWidth = Math.max(40, width - MARGIN.left - MARGIN.right);
  const maxX = Math.max(1, pts.length > 0 ? pts[pts.length - 1].x : 1);
  const x = scaleLinear().domain([0, maxX]).range([0, innerWidth]);
  const panels: ChartPanel[] = [];
  const specs = [
    { key: "length" as const, title: "length", value: (p: (typeof pts)[number]) => p.length, log: false },
    { key: "index" as const, title: "index sum", value: (p: (typeof pts)[number]) => p.indexSum, log: true },
  ];
  specs.forEach((spec, i) => {
    const top = MARGIN.top + i * (PANEL_H + PANEL_GAP);
    const max = Math.max(1, ...pts.map(spec.value));
    // symlog: like log, but 0 (a fully simplified case) is on the chart.
    const y = (spec.log ? scaleSymlog() : scaleLinear()).domain([0, max]).range([PANEL_H, 0]);
    const d = stepPath(
      pts.map((p) => x(p.x)),
      pts.map((p) => y(spec.value(p))),
    );
    const ticks = spec.log ? logTicks(max) : countTicks(y, 3);
    const lastPt = pts[pts.length - 1];
    panels.push({
      key: spec.key,
      title: spec.title,
      y: top,
      path: d ?? "",
      yTicks: ticks.map((t) => ({ key: String(t), pos: y(t), label: spec.log ? formatIndex(t) : fmt(t) })),
      last:
        lastPt === undefined
          ? undefined
          : {
              x: x(lastPt.x),
              y: y(spec.value(lastPt)),
              label: spec.log ? formatIndex(spec.value(lastPt)) : String(spec.value(lastPt)),
            },
    });
  });
  const t = m.totals;
  return {
    width,
    height: MARGIN.top + 2 * PANEL_H + PANEL_GAP + MARGIN.bottom,
    innerWidth,
    panels,
    xTicks: countTicks(x, Math.max(2, Math.floor(innerWidth / 80))).map((v) => ({
      key: String(v),
      pos: x(v),
      label: fmt(v),
    })),
    points: pts.length,
    passes: m.passes.map((r) => ({ ...r, current: r.name === m.currentPass })),
    currentPass: m.currentPass,
    targets:
      m.targets.length === 0 && m.targetPhase === "none"
        ? undefined
        : { caption: TARGET_CAPTIONS[m.targetPhase], rows: m.targets },
    totals:
      t === undefined
        ? undefined
        : `${t.shrinkCalls} shrink calls, ${t.shrinks} shrinks, ${t.examples} examples in ${t.timeMs < 10000 ? `${Math.round(t.timeMs)} ms` : `${(t.timeMs / 1000).toFixed(1)} s`}${t.shrinkStopped ? ` · stopped: ${t.shrinkStopped}` : ""}`,
  };
}
