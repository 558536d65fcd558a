/**
 * A state machine's steps as the panel shows them: the presentation the engine attaches to a machine's test
 * cases, shrink targets and result (`{ kind: "steps", … }`), read once into small JSON-safe records.
 *
 * The presentation comes from the runner through the host, so it is untrusted like every message: each field
 * is checked and clipped here, anything malformed is dropped (a step without its code, a non-string state),
 * and nothing but display strings and integers reaches the model (it is saved with setState).
 *
 * Three sequences are kept, one per phase of a run, and the view shows the latest that exists:
 *  - `current`, the latest test case before any failure (not updated afterwards, so a shrinking run does not
 *    read the steps of every candidate it runs);
 *  - `target`, the shrink target, its step ids carried over from the previous target (cells.ts `carryIds`), so
 *    deleted steps vanish and simplified steps change in place;
 *  - `final`, the minimal sequence from the result, ids carried from the last target, with the invariant call
 *    and teardown the engine adds to the repro.
 * Each step keeps its choices' [start, end), which index the cells of the same case (the choice-sequence
 * view's cell model), so the view draws every step over its own block of cells.
 */
import type { Presentation } from "../../src/shared/protocol.ts";
import { carryIds } from "./cells.ts";
import { clip, count as position, text } from "./untrusted.ts";

export type StepKind = "initialize" | "rule" | "invariant" | "teardown";
export type FailedKind = "invariant" | "rule" | "initialize";

export interface Step {
  /** Stable key for d3 joins: kept while a step survives from one shrink target to the next. */
  readonly id: number;
  readonly kind: StepKind;
  readonly name: string;
  /** The statement, as the repro prints it: `const accounts_0 = state.open({ name: "a" });`. */
  readonly code: string;
  /** The step's choices [start, end) in its case; −1 when it drew none (invariant and teardown calls). */
  readonly start: number;
  readonly end: number;
  /** The step the sequence failed in: the invariant call, or the rule that threw. */
  readonly failed: boolean;
}

export interface Steps {
  readonly className: string;
  /** The steps kept: all of them, or the first and last when there are more than MAX_STEPS. */
  readonly steps: readonly Step[];
  /** Steps left out between the first and the last kept (0 when none), and where: before steps[gapAt]. */
  readonly gap: number;
  readonly gapAt: number;
  /** Initialize and rule calls in the whole sequence (what "−n steps" counts). */
  readonly calls: number;
  readonly failedIn: { readonly kind: FailedKind; readonly name: string } | undefined;
  readonly explanation: string | undefined;
  readonly state: string | undefined;
}

/** A presentation as read: its steps still without ids. */
type Read = Omit<Steps, "steps"> & { readonly steps: readonly Omit<Step, "id">[] };

export interface StepsModel {
  /** A case of this run presented steps: a machine run. Only then is the Steps view shown. */
  readonly machine: boolean;
  readonly current: Steps | undefined;
  readonly target: Steps | undefined;
  readonly final: Steps | undefined;
  /** Calls in the first failing sequence, for "from n". */
  readonly firstCalls: number | undefined;
  readonly nextId: number;
}

export const emptySteps: StepsModel = {
  machine: false,
  current: undefined,
  target: undefined,
  final: undefined,
  firstCalls: undefined,
  nextId: 0,
};

/** More steps than this are shown as the first and last ones around a count: the DOM stays small. */
export const MAX_STEPS = 120;
/** How many of the last steps are kept when a sequence is cut: the failure is at its end. */
export const TAIL_STEPS = 30;
const MAX_CODE = 400;
const MAX_NAME = 120;
const MAX_STATE = 4000;

const KINDS = new Set<string>(["initialize", "rule", "invariant", "teardown"]);
const FAILED_KINDS = new Set<string>(["invariant", "rule", "initialize"]);

/** One step, checked; undefined when it is not one. Ids are given later. */
function readStep(x: unknown): Omit<Step, "id" | "failed"> | undefined {
  if (typeof x !== "object" || x === null) return undefined;
  const s = x as Record<string, unknown>;
  const kind = typeof s.kind === "string" && KINDS.has(s.kind) ? (s.kind as StepKind) : undefined;
  const name = text(s.name, MAX_NAME);
  const code = text(s.code, MAX_CODE);
  if (kind === undefined || name === undefined || code === undefined) return undefined;
  const start = position(s.start);
  const end = position(s.end);
  const drew = start !== undefined && end !== undefined && end > start;
  // Arguments the explain phase found free: said after the statement, as the failure message marks them.
  const free = Array.isArray(s.free)
    ? s.free.flatMap((n) => (typeof n === "string" ? [n.slice(0, MAX_NAME)] : []))
    : [];
  const shown = free.length === 0 ? code : `${code} // ${free.join(", ")}: or any other generated value`;
  return { kind, name, code: shown, start: drew ? start : -1, end: drew ? end : -1 };
}

/** Which step failed: the last call of the failing invariant or rule (a rule that threw ends the steps). */
function failedIndex(steps: readonly Omit<Step, "id" | "failed">[], failedIn: Steps["failedIn"]): number {
  if (failedIn === undefined) return -1;
  for (let i = steps.length - 1; i >= 0; i--)
    if (steps[i].kind === failedIn.kind && steps[i].name === failedIn.name) return i;
  return -1;
}

/**
 * A presentation's steps, checked and clipped; undefined unless it is a machine's. A failing invariant that
 * the steps do not call (cases and shrink targets stop at the last rule; only the repro adds the call) gets
 * its call appended, as the repro will print it, so every failing sequence ends on its failing step.
 */
export function readSteps(p: Presentation | undefined | unknown): Read | undefined {
  if (typeof p !== "object" || p === null) return undefined;
  const o = p as Record<string, unknown>;
  if (o.kind !== "steps" || !Array.isArray(o.steps)) return undefined;
  const className = text(o.className, MAX_NAME) ?? "";
  const f = o.failedIn as Record<string, unknown> | null | undefined;
  const failedIn =
    typeof f === "object" &&
    f !== null &&
    typeof f.kind === "string" &&
    FAILED_KINDS.has(f.kind) &&
    typeof f.name === "string"
      ? { kind: f.kind as FailedKind, name: clip(f.name, MAX_NAME) }
      : undefined;
  const all: Omit<Step, "id" | "failed">[] = [];
  for (const x of o.steps as unknown[]) {
    const s = readStep(x);
    if (s !== undefined) all.push(s);
  }
  let at = failedIndex(all, failedIn);
  if (failedIn?.kind === "invariant" && at < 0) {
    // After the last rule or initialize call, before a teardown.
    const before = all.length > 0 && all[all.length - 1].kind === "teardown" ? all.length - 1 : all.length;
    all.splice(before, 0, {
      kind: "invariant",
      name: failedIn.name,
      code: clip(`state.${failedIn.name}();`, MAX_CODE),
      start: -1,
      end: -1,
    });
    at = before;
  }
  const calls = all.filter((s) => s.kind === "rule" || s.kind === "initialize").length;
  const gap = Math.max(0, all.length - MAX_STEPS);
  const gapAt = gap > 0 ? MAX_STEPS - TAIL_STEPS : 0;
  const marked = all.map((s, i) => ({ ...s, failed: i === at }));
  const steps = gap > 0 ? [...marked.slice(0, gapAt), ...marked.slice(gapAt + gap)] : marked;
  return {
    className,
    steps,
    gap,
    gapAt,
    calls,
    failedIn,
    explanation: text(o.explanation, MAX_CODE),
    state: text(o.state, MAX_STATE),
  };
}

const sameStep = (a: Omit<Step, "id">, b: Omit<Step, "id">): boolean => a.kind === b.kind && a.code === b.code;

/** Steps with ids carried over from `prev` (fresh from `nextId` for the rest); returns the next unused id. */
function withIds(prev: Steps | undefined, read: Read, nextId: number): { steps: Steps; nextId: number } {
  const carried = carryIds<Omit<Step, "id"> & { id?: number }>(
    prev?.steps ?? [],
    read.steps,
    sameStep,
    (s) => s.id ?? -1,
    nextId,
  );
  return {
    steps: { ...read, steps: read.steps.map((s, i) => ({ ...s, id: carried.ids[i] })) },
    nextId: carried.nextId,
  };
}

/** The latest generated case's steps (while no failure is known; afterwards the target is what is shown). */
export function caseSteps(m: StepsModel, p: unknown): StepsModel {
  const read = readSteps(p);
  if (read === undefined) return m;
  // Ids by position: the rows of one case are reused for the next, with no transitions between cases.
  return { ...m, machine: true, current: { ...read, steps: read.steps.map((s, i) => ({ ...s, id: i })) } };
}

/** A new shrink target (or the first failing case, which is the target until the shrinker finds better). */
export function targetSteps(m: StepsModel, p: unknown): StepsModel {
  const read = readSteps(p);
  if (read === undefined) return m;
  const { steps, nextId } = withIds(m.target, read, Math.max(m.nextId, MAX_STEPS + 1));
  return { ...m, machine: true, target: steps, nextId, firstCalls: m.firstCalls ?? read.calls };
}

/** The minimal sequence, from the result event or the run's failure report. */
export function finalSteps(m: StepsModel, p: unknown): StepsModel {
  const read = readSteps(p);
  if (read === undefined) return m;
  const { steps, nextId } = withIds(m.target, read, Math.max(m.nextId, MAX_STEPS + 1));
  return { ...m, machine: true, final: steps, nextId, firstCalls: m.firstCalls ?? read.calls };
}
