/**
 * Pacing the panel's views over animation frames. Each view is a task that draws part of the model: it is
 * redrawn only when one of its inputs is a new object (or the width changed), while a run streams at most as
 * often as the fold sends the part of the state it follows (fold.ts PART_GAP_MS) — nobody reads a test case
 * that is replaced sixty times a second — and the views share a per-frame budget, so a long run keeps frames
 * short. main.ts makes the tasks and asks for a frame's drawing.
 */
import type { PanelState } from "./model.ts";
import { PART_GAP_MS, type PacedPart } from "./fold.ts";
import type { SectionId } from "./sections.ts";

/** One view's drawing, paced. */
export interface ViewTask {
  readonly name: string;
  /** The section it draws in (none: always drawn). */
  readonly section: SectionId | undefined;
  readonly minGapMs: number;
  inputs(s: PanelState): readonly unknown[];
  draw(s: PanelState, w: number): void;
  drawn: readonly unknown[] | undefined;
  drawnWidth: number;
  at: number;
}

/** A view paced like `part` (none: drawn whenever its inputs change). */
export function task(
  name: string,
  part: PacedPart | undefined,
  inputs: ViewTask["inputs"],
  draw: ViewTask["draw"],
): ViewTask {
  const section =
    name === "header" ? undefined : name === "target" || name === "current" ? "choices" : (name as SectionId);
  return {
    name,
    section,
    minGapMs: part === undefined ? 0 : PART_GAP_MS[part],
    inputs,
    draw,
    drawn: undefined,
    drawnWidth: -1,
    at: -Infinity,
  };
}

/**
 * Script time per frame for views, and views per frame: one, since each also costs style, layout and paint
 * after the script, and two in a frame were most of the frames over 12 ms in bench/panel-replay.mjs. The rest
 * wait for the next frame, round robin, so none starves.
 */
const FRAME_BUDGET_MS = 3;
const VIEWS_PER_FRAME = 1;

export interface Frame {
  readonly state: PanelState;
  /** The panel's width now, and the width views draw at. */
  readonly width: number;
  readonly drawWidth: number;
  /** A run is streaming: views are paced and those out of sight wait. */
  readonly live: boolean;
  /** Draw every changed view now, budget and pacing aside (another run has started). */
  readonly all: boolean;
  /** Whether a task is to be drawn at all in this frame (its section shown, and in sight while live). */
  wanted(t: ViewTask): boolean;
  /** After a view drew `inputs`. */
  drawn(t: ViewTask, inputs: readonly unknown[]): void;
}

/** What is left after a frame: views over the budget (draw them next frame), or the ms until a paced one is due. */
export interface FrameLeft {
  readonly pending: boolean;
  readonly dueInMs: number;
}

export class ViewPacer {
  private nextTask = 0;

  constructor(private readonly tasks: readonly ViewTask[]) {}

  /** Draw the views whose part of the model changed, within the frame's budget. */
  draw(frame: Frame): FrameLeft {
    const { state: s, width, live, all } = frame;
    const start = performance.now();
    let pending = false;
    let earliest = Infinity;
    let views = 0;
    const first = this.nextTask;
    const tasks = this.tasks;
    for (let k = 0; k < tasks.length; k++) {
      const i = (first + k) % tasks.length;
      const t = tasks[i];
      if (!frame.wanted(t)) continue;
      const inputs = t.inputs(s);
      if (!changed(t, inputs, width)) continue;
      const now = performance.now();
      // Paced while a run streams, except the first content of a view that showed nothing (a run's first case).
      const wait = live && !all && t.drawn?.some((x) => x !== undefined) ? t.at + t.minGapMs - now : 0;
      if (wait > 0) {
        earliest = Math.min(earliest, wait);
        continue;
      }
      if (!all && (now - start > FRAME_BUDGET_MS || views >= VIEWS_PER_FRAME)) {
        pending = true;
        continue;
      }
      try {
        t.draw(s, frame.drawWidth);
      } catch (e) {
        // One view failing must not stop the others (or the fold).
        console.error(`shrinkscope: the ${t.name} view failed`, e);
      }
      views++;
      frame.drawn(t, inputs);
      t.drawn = inputs;
      t.drawnWidth = width;
      t.at = performance.now();
      this.nextTask = (i + 1) % tasks.length;
    }
    return { pending, dueInMs: earliest };
  }
}

function changed(t: ViewTask, inputs: readonly unknown[], width: number): boolean {
  if (t.drawnWidth !== width || t.drawn === undefined) return true;
  return inputs.some((x, i) => x !== t.drawn?.[i]);
}
