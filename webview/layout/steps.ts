/**
 * Layout of the Steps view (pure: no DOM, tested in Node): a machine's sequence as rule calls, one row per
 * statement of the repro, each rule call beside the block of choice cells it drew.
 *
 * Which sequence: the minimal one once the run reports it, else the shrink target, else the latest generated
 * case — and the cells of that same case (the choice-sequence view's cells: the target's carry their ids from
 * target to target, so a surviving step's cells stay put and simplify in place). Choices no step owns (the swarm
 * flags before the first step, the final "another step?" of a sequence that ended) get a muted row of their
 * own, so every cell of the case appears exactly once. Each block is laid out by layoutSequence, as one row
 * of cells at its true positions' colours and details.
 */
import type { PanelState } from "../model.ts";
import type { Sequence } from "../models/cells.ts";
import type { Step, StepKind, Steps } from "../models/steps.ts";
import type { SequenceLayout } from "./sequence.ts";
import { CELL_H, CELL_W, GAP, SPAN_BAND, describeCell, layoutSequence } from "./sequence.ts";
import type { Token } from "./result.ts";
import { tokenize } from "./result.ts";

export type StepsPhase = "generating" | "shrinking" | "minimal";

export interface StepRowLayout {
  /** Stable key for the d3 join: the step's id, so a step kept from one target to the next keeps its row. */
  readonly key: string;
  readonly kind: StepKind | "construct" | "choices" | "gap";
  /** The call's number among the sequence's calls ("" for the rest). */
  readonly n: string;
  /** The statement, highlighted (empty for rows that are not statements). */
  readonly tokens: readonly Token[];
  readonly code: string;
  /** Muted text: what a row of unowned choices is, or how many steps a cut left out. */
  readonly note: string;
  readonly failed: boolean;
  readonly cells: SequenceLayout | undefined;
  /** The row for screen readers. */
  readonly label: string;
}

export interface StepsLayout {
  readonly phase: StepsPhase;
  readonly caption: string;
  readonly summary: string;
  /** What the last shrink did to the sequence since the view last drew it ("−3 steps"), or "". */
  readonly delta: string;
  readonly calls: number;
  readonly rows: readonly StepRowLayout[];
  readonly explanation: string | undefined;
  readonly state: string | undefined;
  /** Cells under the statements (a narrow panel) instead of beside them. */
  readonly stacked: boolean;
  /** The width of the cells column (the widest block, within limits). */
  readonly cellsWidth: number;
  /** The statements column in characters (the longest, with its "fails here"), so the cells sit close beside. */
  readonly codeChars: number;
  /** Shrink targets and the result animate (rows leave, cells simplify); generated cases just replace. */
  readonly animate: boolean;
}

/** What the view drew last time, for the "−n steps" between two targets it showed. */
export interface DrawnSteps {
  readonly phase: StepsPhase;
  readonly calls: number;
}

/** Below this width the cells go under the statements. */
export const STACK_BELOW = 560;
/** Beside the statements, the cells column takes at most this share of the width. */
const CELLS_SHARE = 0.42;
/** Room for the "fails here" badge after a statement, in characters of the statement's font. */
const FAILS_CHARS = 13;
/** A block wider than its column wraps onto at most this many rows of cells. */
const BLOCK_ROWS = 2;

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The cells of choices [start, end) as a sequence of their own (positions from 0, ids and spans kept). */
export function blockOf(
  seq: Sequence,
  start: number,
  end: number,
): { block: Sequence; original: Sequence["cells"] } | undefined {
  const original = seq.cells.slice(start, Math.min(end, seq.cells.length));
  if (original.length === 0) return undefined;
  const cells = original.map((c) => ({ ...c, pos: c.pos - start }));
  // Spans inside the block, one level up (the step's own span is the block itself).
  const spans = seq.spans
    .filter((s) => s.start >= start && s.end <= end && s.depth > 0)
    .map((s) => ({ ...s, start: s.start - start, end: s.end - start, depth: s.depth - 1 }));
  let indexSum = 0;
  for (const c of original) indexSum += c.index;
  return { block: { cells, spans, length: end - start, indexSum }, original };
}

/**
 * One block's cells, keyed by the case's cell ids (a target's persist from target to target), or by their
 * place in the block when `byPlace` (a generated case's ids are its positions, which shift with every case: keyed
 * so, a row would rebuild all its cells for each case).
 */
function layoutBlock(
  seq: Sequence | undefined,
  start: number,
  end: number,
  width: number,
  byPlace: boolean,
): SequenceLayout | undefined {
  if (seq === undefined || start < 0) return undefined;
  const b = blockOf(seq, start, end);
  if (b === undefined) return undefined;
  const lay = layoutSequence(b.block, width, undefined, BLOCK_ROWS);
  // Details name the choice's true position in the case; one row of cells is only as tall as its brackets.
  const cells = lay.cells.map((c, i) => ({ ...c, key: byPlace ? i : c.key, detail: describeCell(b.original[i]) }));
  const depth = b.block.spans.reduce((d, s) => Math.max(d, s.depth + 1), 0);
  const oneRow = lay.cells.every((c) => c.y === 0);
  return { ...lay, cells, height: oneRow ? CELL_H + 2 + depth * SPAN_BAND : lay.height };
}

/** What a run of choices that belongs to no step is, from the span that opens it. */
function unownedNote(seq: Sequence, start: number): string {
  const span = seq.spans.find((s) => s.depth === 0 && s.start === start && s.end > s.start);
  if (span === undefined) return "choices outside the steps";
  if (span.label === "swarm") return "swarm flags, one per rule (T: off in this sequence)";
  if (span.label === "step") return "no further step";
  return `${span.label} choices`;
}

function which(s: PanelState): { steps: Steps; seq: Sequence | undefined; phase: StepsPhase } | undefined {
  const m = s.steps;
  if (m.final !== undefined) return { steps: m.final, seq: s.choices.target, phase: "minimal" };
  if (m.target !== undefined) return { steps: m.target, seq: s.choices.target, phase: "shrinking" };
  if (m.current !== undefined) return { steps: m.current, seq: s.choices.current?.seq, phase: "generating" };
  return undefined;
}

function captionOf(s: PanelState, phase: StepsPhase): string {
  if (phase === "minimal") return s.run.failure?.flaky ? "Failing steps (flaky: not shrunk)" : "Minimal failing steps";
  if (phase === "shrinking") {
    if (s.run.status !== "running") return "Shrink target when the run ended";
    return `Shrink target${s.choices.targetPass ? ` (from ${s.choices.targetPass})` : ""}`;
  }
  const c = s.choices.current;
  return c === undefined ? "Latest test case" : `Latest test case #${c.id} · ${c.origin} · ${c.status}`;
}

function summaryOf(s: PanelState, steps: Steps, phase: StepsPhase): string {
  const first = s.steps.firstCalls;
  const shrinks = s.choices.shrinks;
  const now = plural(steps.calls, "step");
  if (phase === "generating") return `${now} · ${steps.className}`;
  const from = first !== undefined && first !== steps.calls ? `, from ${first} in the first failing case` : "";
  return `${now}${from}${shrinks > 0 ? ` · ${plural(shrinks, "shrink")}` : ""}`;
}

export function layoutSteps(s: PanelState, width: number, drawn?: DrawnSteps): StepsLayout | undefined {
  const w = which(s);
  if (w === undefined) return undefined;
  const { steps, seq, phase } = w;
  const stacked = width < STACK_BELOW;
  let widest = 0;
  let pos = 0;
  for (const st of steps.steps) if (st.start >= 0) widest = Math.max(widest, st.end - st.start);
  const blockW = (n: number) => n * (CELL_W + GAP) - GAP;
  const cellsWidth = stacked
    ? Math.max(CELL_W, width - 40)
    : Math.max(CELL_W, Math.min(blockW(Math.max(widest, 4)), Math.floor(width * CELLS_SHARE)));
  const rows: StepRowLayout[] = [];
  const unowned = (start: number, end: number): void => {
    if (seq === undefined || end <= start) return;
    const cells = layoutBlock(seq, start, end, cellsWidth, phase === "generating");
    if (cells === undefined) return;
    const note = unownedNote(seq, start);
    rows.push({
      key: `u${start}`,
      kind: "choices",
      n: "",
      tokens: [],
      code: "",
      note,
      failed: false,
      cells,
      label: `${note}: ${plural(end - start, "choice")}`,
    });
  };
  const construct = `const state = new ${steps.className}();`;
  rows.push({
    key: "construct",
    kind: "construct",
    n: "",
    tokens: tokenize(construct),
    code: construct,
    note: "",
    failed: false,
    cells: undefined,
    label: construct,
  });
  let call = 0;
  const last = (i: number): boolean => !steps.steps.slice(i).some((x) => x.start >= 0);
  steps.steps.forEach((st: Step, i) => {
    if (i === steps.gapAt && steps.gap > 0) {
      rows.push({
        key: "gap",
        kind: "gap",
        n: "",
        tokens: [],
        code: "",
        note: `… ${plural(steps.gap, "more step")} not shown …`,
        failed: false,
        cells: undefined,
        label: `${plural(steps.gap, "step")} not shown`,
      });
      call += steps.gap;
      pos = st.start >= 0 ? st.start : pos;
    }
    if (st.start >= 0) {
      unowned(pos, st.start);
      pos = Math.max(pos, st.end);
    } else if (seq !== undefined && pos < seq.length && last(i)) {
      // The choices after the last step (its "no further step") come before the closing calls.
      unowned(pos, seq.length);
      pos = seq.length;
    }
    const isCall = st.kind === "rule" || st.kind === "initialize";
    if (isCall) call++;
    const cells = layoutBlock(seq, st.start, st.end, cellsWidth, phase === "generating");
    const n = isCall ? String(call) : "";
    rows.push({
      key: `s${st.id}`,
      kind: st.kind,
      n,
      tokens: tokenize(st.code),
      code: st.code,
      note: "",
      failed: st.failed,
      cells,
      label: `${isCall ? `Step ${n}` : st.kind === "invariant" ? "Invariant" : "Teardown"}: ${st.code}${st.failed ? ", fails here" : ""}${cells ? `, ${plural(st.end - st.start, "choice")}` : ""}`,
    });
  });
  if (seq !== undefined && pos < seq.length) unowned(pos, seq.length);
  const failing = steps.failedIn !== undefined || steps.explanation !== undefined;
  // One character more than the longest: a column exactly as wide as its text may round below it and wrap.
  const codeChars = 1 + rows.reduce((n, r) => Math.max(n, r.code.length + (r.failed ? FAILS_CHARS : 0)), 0);
  const delta =
    drawn !== undefined && drawn.phase !== "generating" && phase !== "generating" && drawn.calls > steps.calls
      ? `−${plural(drawn.calls - steps.calls, "step")}`
      : "";
  return {
    phase,
    caption: captionOf(s, phase),
    summary: summaryOf(s, steps, phase),
    delta,
    calls: steps.calls,
    rows,
    explanation: failing ? steps.explanation : undefined,
    state: failing ? steps.state : undefined,
    stacked,
    cellsWidth,
    codeChars,
    animate: phase !== "generating",
  };
}
