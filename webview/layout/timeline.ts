/**
 * Layout of the Timeline view (pure: no DOM, tested in Node): a schedule failure's minimal run as one lane per
 * task, each event a mark, the decisions that differ from FIFO marked where they ran, the schedule beside
 * FIFO decision by decision, and the trace tail.
 *
 * The x axis is the run's order, grouped by virtual time: events at one instant sit side by side in a band
 * labelled with its time, and bands follow each other with a fixed gap, whatever the time between them. Time
 * to scale would put a whole run of `sleep(0)`s in one column and squeeze an hour-long sleep's neighbours into
 * a pixel; the order is what a schedule changes, and the band labels keep the time readable. The marks share
 * the width when they fit and scroll sideways when they do not (a slot never gets narrower than SLOT_MIN).
 */
import type { Timeline, TimelineMark, MarkKind } from "../models/timeline.ts";
import { OTHER_TASKS } from "../models/timeline.ts";

export interface LaneLayout {
  readonly key: string;
  readonly label: string;
  /** The lane's middle. */
  readonly y: number;
  /** The task's life on screen: its first and last mark (equal when it has one; absent when it has none). */
  readonly x1: number | undefined;
  readonly x2: number | undefined;
  readonly other: boolean;
}

export interface MarkLayout {
  readonly key: string;
  readonly x: number;
  readonly y: number;
  readonly kind: MarkKind;
  /** The decision whose non-FIFO choice ran it (0: none). */
  readonly decision: number;
  /** What hover and focus show: place, time, task, what happened (and the deviation). */
  readonly detail: string;
}

export interface BandLayout {
  readonly key: string;
  readonly x1: number;
  readonly x2: number;
  /** "t=10 ms", drawn only where it does not run into the previous band's label ("" then). */
  readonly label: string;
  readonly odd: boolean;
}

/** A deviation on the lanes: a guide from the task that ran to the one FIFO would have run, and that one's ghost mark. */
export interface GuideLayout {
  readonly key: string;
  readonly x: number;
  readonly y1: number;
  readonly y2: number;
  /** Where FIFO's task is waiting (its lane, at the same place in the run), or undefined when its lane is unknown. */
  readonly ghostY: number | undefined;
  readonly detail: string;
}

/**
 * One column of the schedule beside FIFO: a decision (its number, the failing schedule's choice — the index
 * among the ready tasks, 0 being FIFO's — over FIFO's 0), or a run of FIFO decisions folded into one column.
 */
export interface DecisionCell {
  readonly key: string;
  /** "12", or "5–2376" for a folded run. */
  readonly n: string;
  /** The failing schedule's choice, or "⋯" for a folded run. */
  readonly value: string;
  readonly fifo: string;
  readonly differs: boolean;
  readonly folded: boolean;
  readonly detail: string;
}

export interface TailRow {
  readonly key: string;
  readonly t: string;
  readonly task: string;
  readonly what: string;
  readonly failed: boolean;
}

export interface TimelineLayout {
  readonly caption: string;
  readonly summary: string;
  /** How much of the run is drawn, when not all of it ("" otherwise). */
  readonly note: string;
  /** The lane labels' column, and the plot beside it (scrolls sideways when wider than the room left). */
  readonly labelWidth: number;
  readonly plotWidth: number;
  readonly height: number;
  readonly laneHeight: number;
  readonly lanes: readonly LaneLayout[];
  readonly bands: readonly BandLayout[];
  readonly marks: readonly MarkLayout[];
  readonly guides: readonly GuideLayout[];
  /** Where the cut run's left-out marks would be: a dashed divider (undefined when nothing is cut). */
  readonly gapX: number | undefined;
  /** The plot's own label for screen readers. */
  readonly label: string;
  readonly seedLabel: string;
  readonly decisions: readonly DecisionCell[];
  readonly decisionCount: number;
  /** "decision 1 at t=0 ms: ran … before …", as the report says it. */
  readonly deviations: readonly string[];
  readonly moreDeviations: number;
  readonly tail: readonly TailRow[];
  /** The tail's time and task columns, in characters (the longest of each, within limits). */
  readonly tailColumns: { readonly t: number; readonly task: number };
}

export const LANE_H = 24;
/** The row of band labels above the lanes. */
export const AXIS_H = 20;
const SLOT_MIN = 14;
const SLOT_MAX = 34;
const BAND_GAP = 12;
const CUT_GAP = 36;
const PAD = 8;
/** Approximate widths of the label fonts (the layout runs without a DOM, so it cannot measure). */
const AXIS_CHAR_W = 6.2;
const LABEL_CHAR_W = 7.2;

const plural = (n: number, word: string): string => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;

function laneLabelWidth(lanes: readonly string[], width: number): number {
  const longest = lanes.reduce((n, l) => Math.max(n, l.length), 0);
  return Math.round(Math.min(Math.max(64, longest * LABEL_CHAR_W + 22), Math.max(140, width * 0.32)));
}

function deviationText(d: Timeline["deviations"][number]): string {
  return `decision ${d.decision} at t=${d.t} ms: ran ${d.chosen} before ${d.fifo}`;
}

function markDetail(tl: Timeline, m: TimelineMark): string {
  const task = m.task ?? tl.lanes[m.lane];
  const base = `#${m.i + 1} · t=${m.t} ms · ${task} · ${m.what}`;
  if (m.decision === 0) return base;
  const d = tl.deviations.find((x) => x.decision === m.decision);
  return `${base} · decision ${m.decision} differs from FIFO, which would have run ${d?.fifo ?? "another task"}`;
}

function summaryOf(tl: Timeline): string {
  const passed =
    tl.passed === 0
      ? "the first seed tried"
      : `${plural(tl.passed, "seed")} passed first${tl.passed <= tl.passedSeeds.length ? ` (${tl.passedSeeds.join(", ")})` : ""}`;
  const deviating =
    tl.deviationCount === 0 ? "all FIFO" : `${tl.deviationCount} differ${tl.deviationCount === 1 ? "s" : ""} from FIFO`;
  const strategy = tl.strategy === "pct" ? "PCT" : "random";
  return `${passed} · ${strategy} scheduling · ${plural(tl.decisions, "decision")}, ${deviating}${tl.traceHash ? ` · trace ${tl.traceHash}` : ""}`;
}

/** Schedules up to this long are shown decision by decision; longer ones fold FIFO runs away from the deviations. */
const ALL_DECISIONS = 24;
/** FIFO decisions shown on each side of a deviation, and at the start of a schedule with none. */
const CONTEXT = 2;
const LEAD = 6;

function decisionCells(tl: Timeline): DecisionCell[] {
  const value = new Map(tl.nonFifo.map((d) => [d.n, d.value]));
  const byDecision = new Map(tl.deviations.map((d) => [d.decision, d]));
  const shown = new Set<number>();
  if (tl.decisions <= ALL_DECISIONS) for (let n = 1; n <= tl.decisions; n++) shown.add(n);
  else if (tl.nonFifo.length === 0) for (let n = 1; n <= LEAD; n++) shown.add(n);
  else
    for (const { n } of tl.nonFifo)
      for (let k = Math.max(1, n - CONTEXT); k <= Math.min(tl.decisions, n + CONTEXT); k++) shown.add(k);
  const cells: DecisionCell[] = [];
  const fold = (from: number, to: number): void => {
    if (to < from) return;
    // A fold past the deviations kept may hide some beyond MAX_DEVIATIONS: it says "FIFO" only when it knows.
    const known = tl.nonFifo.length === tl.deviationCount || to <= (tl.nonFifo[tl.nonFifo.length - 1]?.n ?? 0);
    const what = known ? "all FIFO" : "not shown";
    cells.push({
      key: `f${from}`,
      n: from === to ? String(from) : `${from}–${to}`,
      value: "⋯",
      fifo: "⋯",
      differs: false,
      folded: true,
      detail: `decision${from === to ? ` ${from}` : `s ${from} to ${to}`}: ${what}`,
    });
  };
  let next = 1;
  for (const n of [...shown].sort((a, b) => a - b)) {
    fold(next, n - 1);
    const v = value.get(n) ?? 0;
    const d = byDecision.get(n);
    const detail =
      v === 0
        ? `decision ${n}: FIFO, the task ready first ran`
        : `${d !== undefined ? deviationText(d) : `decision ${n}`} (choice ${v} among the ready tasks; FIFO's is 0)`;
    cells.push({ key: `d${n}`, n: String(n), value: String(v), fifo: "0", differs: v !== 0, folded: false, detail });
    next = n + 1;
  }
  fold(next, tl.decisions);
  return cells;
}

export function layoutTimeline(tl: Timeline, width: number): TimelineLayout {
  const labelWidth = laneLabelWidth(tl.lanes, width);
  const room = Math.max(120, width - labelWidth - 4);
  const marks = tl.marks;
  const n = marks.length;
  // Band breaks: a new instant, or the cut.
  let bandsCount = 0;
  for (let k = 0; k < n; k++)
    if (k === 0 || marks[k].t !== marks[k - 1].t || (tl.gap > 0 && k === tl.gapAt)) bandsCount++;
  const fixed = 2 * PAD + Math.max(0, bandsCount - 1) * BAND_GAP + (tl.gap > 0 ? CUT_GAP : 0);
  const slot = n === 0 ? SLOT_MAX : Math.min(SLOT_MAX, Math.max(SLOT_MIN, (room - fixed) / n));

  const xs: number[] = [];
  const bands: BandLayout[] = [];
  let x = PAD;
  let gapX: number | undefined;
  let labelEnd = -Infinity;
  for (let k = 0; k < n; k++) {
    const cut = tl.gap > 0 && k === tl.gapAt;
    const newBand = k === 0 || marks[k].t !== marks[k - 1].t || cut;
    if (k > 0 && cut) {
      gapX = x + CUT_GAP / 2;
      x += CUT_GAP;
    } else if (k > 0 && newBand) x += BAND_GAP;
    if (newBand) {
      const label = `t=${marks[k].t} ms`;
      const show = x >= labelEnd;
      if (show) labelEnd = x + label.length * AXIS_CHAR_W + 8;
      bands.push({ key: `b${marks[k].i}`, x1: x, x2: x + slot, label: show ? label : "", odd: bands.length % 2 === 1 });
    } else {
      const b = bands[bands.length - 1];
      bands[bands.length - 1] = { ...b, x2: x + slot };
    }
    xs.push(x + slot / 2);
    x += slot;
  }
  // The last band's label may reach past its marks.
  const plotWidth = Math.max(room, Math.ceil(Math.max(x + PAD, labelEnd)));
  const laneY = (lane: number): number => AXIS_H + lane * LANE_H + LANE_H / 2;

  const first = new Map<number, number>();
  const last = new Map<number, number>();
  marks.forEach((m, k) => {
    if (!first.has(m.lane)) first.set(m.lane, xs[k]);
    last.set(m.lane, xs[k]);
  });
  const lanes: LaneLayout[] = tl.lanes.map((label, i) => ({
    key: `l${i}`,
    label,
    y: laneY(i),
    x1: first.get(i),
    x2: last.get(i),
    other: label === OTHER_TASKS && i === tl.lanes.length - 1,
  }));

  const markLayouts: MarkLayout[] = marks.map((m, k) => ({
    key: `m${m.i}`,
    x: xs[k],
    y: laneY(m.lane),
    kind: m.kind,
    decision: m.decision,
    detail: markDetail(tl, m),
  }));

  const guides: GuideLayout[] = [];
  for (const d of tl.deviations) {
    const k = marks.findIndex((m) => m.i === d.at);
    if (k < 0) continue;
    const y = laneY(marks[k].lane);
    const ghostY = d.fifoLane >= 0 ? laneY(d.fifoLane) : undefined;
    guides.push({
      key: `g${d.decision}`,
      x: xs[k],
      y1: Math.min(y, ghostY ?? y),
      y2: Math.max(y, ghostY ?? y),
      ghostY,
      detail: `${deviationText(d)} (FIFO would have run ${d.fifo} here)`,
    });
  }

  const notes: string[] = [];
  if (tl.gap > 0)
    notes.push(`${plural(tl.gap, "event")} in the middle are not drawn (#${tl.gapAt + 1} to #${tl.gapAt + tl.gap})`);
  if (tl.truncated > 0)
    notes.push(
      `the run had ${plural(tl.truncated, "more event")} than the timeline keeps; the trace tail is the report's`,
    );
  const tail: TailRow[] = tl.tail.map((l, i) => ({
    key: `t${i}`,
    t: `t=${l.t}`,
    task: l.task,
    what: l.what,
    failed: l.what.startsWith("rejected"),
  }));
  const t0 = marks[0]?.t ?? 0;
  const t1 = marks[n - 1]?.t ?? 0;
  const tasks = tl.lanes.filter((l, i) => !(l === OTHER_TASKS && i === tl.lanes.length - 1)).length;
  const span = t0 === t1 ? `all at t=${t0} ms of virtual time` : `over t=${t0}–${t1} ms of virtual time`;
  return {
    caption: `Failing schedule: seed ${tl.seed}`,
    summary: summaryOf(tl),
    note: notes.join("; "),
    labelWidth,
    plotWidth,
    height: AXIS_H + tl.lanes.length * LANE_H + 4,
    laneHeight: LANE_H,
    lanes,
    bands,
    marks: markLayouts,
    guides,
    gapX,
    label: `Timeline: ${plural(tl.events, "event")} of ${plural(tasks, "task")}, ${span}${guides.length > 0 ? `; ${plural(guides.length, "decision")} differing from FIFO marked` : ""}`,
    seedLabel: `seed ${tl.seed}`,
    decisions: decisionCells(tl),
    decisionCount: tl.decisions,
    deviations: tl.deviations.map(deviationText),
    moreDeviations: Math.max(0, tl.deviationCount - tl.deviations.length),
    tail,
    tailColumns: {
      t: tail.reduce((w, r) => Math.max(w, r.t.length), 3),
      task: Math.min(
        28,
        tail.reduce((w, r) => Math.max(w, r.task.length), 4),
      ),
    },
  };
}
