/**
 * A schedule failure (simTest) as the Timeline view shows it: the `schedule` a failing run's result event and
 * failure report carry (ScheduleInfo), read once into a small JSON-safe record.
 *
 * It comes from the runner through the host, so it is untrusted like every message: each field is checked and
 * clipped here, malformed events and deviations are dropped, and only display strings and integers reach the
 * model (it is saved with setState). A run keeps up to 2,000 events; more than MAX_MARKS are kept as the first
 * and last ones around a count (the failure is at the end), so the drawing stays small.
 *
 * Lanes are the tasks in the order they were created ("main" first). A deviation names the wakeup it ran as
 * `label (what)`; it is placed on the first event after the previous deviation's with that time, task and
 * what — the event the scheduler recorded when it ran that wakeup, unless the same task logged the same thing
 * at the same instant just before (then the mark sits on that twin, one step early).
 */
import type { ScheduleInfo } from "../../src/shared/protocol.ts";
import { clip, count, text } from "./untrusted.ts";

export type MarkKind = "start" | "spawn" | "step" | "done" | "failed";

export interface TimelineMark {
  /** The event's place in the run (0-based), kept when marks around it are cut. */
  readonly i: number;
  /** Virtual time, ms. */
  readonly t: number;
  readonly lane: number;
  readonly what: string;
  readonly kind: MarkKind;
  /** The task, for a mark in the "other tasks" lane (a lane's own marks are named by the lane). */
  readonly task?: string;
  /** The decision (1-based) whose non-FIFO choice ran this event; 0 for none. */
  readonly decision: number;
}

export interface TimelineDeviation {
  readonly decision: number;
  readonly t: number;
  /** What ran, and what FIFO would have run: `label (what)`. */
  readonly chosen: string;
  readonly fifo: string;
  /** Their lanes (−1 when the label names no known task). */
  readonly chosenLane: number;
  readonly fifoLane: number;
  /** The event it ran, as a place in the run (−1 when not found). */
  readonly at: number;
}

export interface TraceLine {
  readonly t: number;
  readonly task: string;
  readonly what: string;
}

export interface Timeline {
  readonly seed: number;
  readonly strategy: "random" | "pct";
  readonly traceHash: string;
  /** How many seeds passed first, and the first of them. */
  readonly passed: number;
  readonly passedSeeds: readonly number[];
  /** How many decisions the run made (points where more than one task was ready). */
  readonly decisions: number;
  /** The decisions that differ from FIFO: their number (1-based) and the choice made (0 would be FIFO's), the first MAX_DEVIATIONS. */
  readonly nonFifo: readonly { readonly n: number; readonly value: number }[];
  /** Task labels, one lane each; a last "other tasks" lane when there were more than MAX_LANES. */
  readonly lanes: readonly string[];
  readonly marks: readonly TimelineMark[];
  /** Marks left out between the first and last kept (0 when none), and where: before marks[gapAt]. */
  readonly gap: number;
  readonly gapAt: number;
  /** Events of the run: those the engine sent plus those it left out (`truncated`). */
  readonly events: number;
  readonly truncated: number;
  readonly deviations: readonly TimelineDeviation[];
  /** How many decisions differ from FIFO (deviations beyond MAX_DEVIATIONS are counted, not kept). */
  readonly deviationCount: number;
  /** The run's last events, as the report's trace tail. */
  readonly tail: readonly TraceLine[];
}

export const MAX_MARKS = 600;
/** How many of the first events are kept when a run is cut (its start: who spawned whom). */
export const HEAD_MARKS = 150;
export const MAX_LANES = 24;
export const MAX_DEVIATIONS = 50;
export const TAIL_LINES = 20;
/** The engine's own cap on a run's events (world.ts TIMELINE_EVENTS); more is malformed. */
const MAX_EVENTS = 2000;
const MAX_LABEL = 80;
const MAX_WHAT = 200;
export const OTHER_TASKS = "other tasks";

function list(x: unknown): readonly unknown[] {
  return Array.isArray(x) ? x : [];
}

function kindOf(what: string): MarkKind {
  if (what === "start") return "start";
  if (what === "done") return "done";
  if (what.startsWith("spawn ")) return "spawn";
  if (what.startsWith("rejected")) return "failed";
  return "step";
}

/** The lane a `label (what)` names: the longest task label it starts with. */
function laneNamed(lanes: readonly string[], s: string): number {
  let best = -1;
  lanes.forEach((l, i) => {
    if (s.startsWith(`${l} (`) && (best < 0 || l.length > lanes[best].length)) best = i;
  });
  return best;
}

/** The report's own trace tail (`  [t=5] task 2     wake …`): the lines after "trace hash:", task told by the lanes. */
function tailFromText(report: string, lanes: readonly string[]): TraceLine[] {
  const lines = report.split("\n");
  const from = lines.findIndex((l) => l.startsWith("trace hash:"));
  if (from < 0) return [];
  const out: TraceLine[] = [];
  for (const line of lines.slice(from + 1)) {
    const m = /^\s+\[t=(\d+)\] (.*)$/.exec(line);
    if (m === null) break;
    const rest = m[2];
    const task =
      lanes
        .filter((l) => rest.startsWith(l) && /^(\s|$)/.test(rest.slice(l.length)))
        .sort((a, b) => b.length - a.length)[0] ?? "";
    out.push({ t: Number(m[1]), task: clip(task, MAX_LABEL), what: clip(rest.slice(task.length).trim(), MAX_WHAT) });
  }
  return out.slice(-TAIL_LINES);
}

/** A ScheduleInfo, checked and clipped; undefined unless it is one (at least its seed and its events). */
export function readSchedule(x: ScheduleInfo | undefined | unknown): Timeline | undefined {
  if (typeof x !== "object" || x === null) return undefined;
  const o = x as Record<string, unknown>;
  const seed = typeof o.seed === "number" && Number.isSafeInteger(o.seed) ? o.seed : undefined;
  if (seed === undefined || !Array.isArray(o.events)) return undefined;

  const tasks = list(o.tasks).flatMap((t) => (typeof t === "string" ? [clip(t, MAX_LABEL)] : []));
  const lanes = tasks.slice(0, MAX_LANES);
  let other = -1;
  const laneOf = (task: string): number => {
    const i = lanes.indexOf(task);
    if (i >= 0 && i !== other) return i;
    if (lanes.length < MAX_LANES) {
      lanes.push(task); // a task the list left out: a lane of its own while there is room
      return lanes.length - 1;
    }
    if (other < 0) other = lanes.push(OTHER_TASKS) - 1;
    return other;
  };

  const all: Omit<TimelineMark, "decision">[] = [];
  // Each event's own task (its lane may be "other tasks"): what deviations and the tail name.
  const taskOf: string[] = [];
  for (const e of o.events.slice(0, MAX_EVENTS)) {
    if (typeof e !== "object" || e === null) continue;
    const r = e as Record<string, unknown>;
    const t = count(r.t);
    const task = text(r.task, MAX_LABEL);
    const what = text(r.what, MAX_WHAT);
    if (t === undefined || task === undefined || what === undefined) continue;
    const lane = laneOf(task);
    all.push({ i: all.length, t, lane, what, kind: kindOf(what), ...(lane === other ? { task } : {}) });
    taskOf.push(task);
  }

  const deviations: TimelineDeviation[] = [];
  const decisionAt = new Map<number, number>();
  let from = 0;
  const rawDeviations = list(o.deviations);
  for (const d of rawDeviations.slice(0, MAX_DEVIATIONS)) {
    if (typeof d !== "object" || d === null) continue;
    const r = d as Record<string, unknown>;
    const decision = count(r.decision);
    const t = count(r.t);
    const chosen = text(r.chosen, MAX_LABEL + MAX_WHAT);
    const fifo = text(r.fifo, MAX_LABEL + MAX_WHAT);
    if (decision === undefined || t === undefined || chosen === undefined || fifo === undefined) continue;
    const at = all.findIndex((m, k) => k >= from && m.t === t && `${taskOf[k]} (${m.what})` === chosen);
    if (at >= 0) {
      from = at + 1;
      decisionAt.set(at, decision);
    }
    deviations.push({
      decision,
      t,
      chosen,
      fifo,
      chosenLane: laneNamed(lanes, chosen),
      fifoLane: laneNamed(lanes, fifo),
      at,
    });
  }

  const marked = all.map((m) => ({ ...m, decision: decisionAt.get(m.i) ?? 0 }));
  const gap = Math.max(0, marked.length - MAX_MARKS);
  const marks = gap > 0 ? [...marked.slice(0, HEAD_MARKS), ...marked.slice(HEAD_MARKS + gap)] : marked;
  const truncated = count(o.truncated) ?? 0;
  // The engine makes at most maxSteps decisions (100,000 by default); more is malformed.
  const schedule = list(o.schedule).slice(0, 1_000_000);
  const nonFifo: { n: number; value: number }[] = [];
  let deviationCount = 0;
  schedule.forEach((d, i) => {
    const value = count(d) ?? 0;
    if (value === 0) return;
    deviationCount++;
    if (nonFifo.length < MAX_DEVIATIONS) nonFifo.push({ n: i + 1, value });
  });
  const passedBefore = list(o.passedBefore).filter(
    (s): s is number => typeof s === "number" && Number.isSafeInteger(s),
  );
  const tail =
    truncated === 0
      ? all.slice(-TAIL_LINES).map((m) => ({ t: m.t, task: taskOf[m.i], what: m.what }))
      : tailFromText(typeof o.text === "string" ? o.text.slice(0, 100_000) : "", tasks);
  return {
    seed,
    strategy: o.strategy === "pct" ? "pct" : "random",
    traceHash: text(o.traceHash, 32) ?? "",
    passed: passedBefore.length,
    passedSeeds: passedBefore.slice(0, 10),
    decisions: schedule.length,
    nonFifo,
    lanes,
    marks,
    gap,
    gapAt: gap > 0 ? HEAD_MARKS : 0,
    events: all.length + truncated,
    truncated,
    deviations,
    deviationCount: Math.max(deviations.length, deviationCount),
    tail,
  };
}
