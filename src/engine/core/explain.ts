/**
 * The explain phase: after shrinking, which parts of the minimal case do not matter.
 *
 * A minimal example shows simplest values everywhere, including where any value would fail the same way —
 * and a reader cannot tell `0` the value that matters from `0` the placeholder. So, after Hypothesis's
 * explain phase, each slice of the minimal case that a person reads as one thing (a property's argument, a
 * machine step's argument) is varied on its own, the rest of the case kept:
 * - first with values borrowed from other slices of the same shape (random values rarely hit `a === b`, the
 *   one value that passes), then with random values of the slice's own kinds;
 * - a slice whose variation changes how many choices it takes (a list that grows) is taken as the attempt drew
 *   it and spliced back between the unchanged prefix and suffix, then run again;
 * - the first variation that passes, or fails another way (another error origin), proves the slice matters;
 *   SAME_FAILURES variations that fail the same way mark it free; mostly rejected variations (filters, assume)
 *   give up on it, unmarked.
 * Slices are tried largest first, and a slice inside one already free is free too, without calls.
 * The phase is bounded (MAX_CALLS property calls, MAX_MS of time) and adds nothing to a passing run: it runs
 * once, on the final failure. Its cases are recorded in the DataTree like any other, so a property that turns
 * out flaky here is reported flaky.
 */
import type { ChoiceValue } from "../choice/types.ts";
import { choiceEquals, choiceKey, choiceText, sameChoices as sameSequences } from "../choice/identity.ts";
import { domainSize } from "../choice/domain.ts";
import { Status } from "./datatree.ts";
import { generateChoice } from "./distribution.ts";
import type { Random } from "../util/random.ts";
import type { TestCase } from "./testCase.ts";
import { now } from "../util/clock.ts";

/** A range [start, end) of the case's choices that a person reads as one thing. */
export interface Slice {
  readonly start: number;
  readonly end: number;
}

/** Variations failing the same way that make a slice free (Hypothesis's figure). */
export const SAME_FAILURES = 100;
/** Attempts per slice at most. */
const MAX_ATTEMPTS = 500;
/** The whole phase's budget of calls and time. */
export const MAX_CALLS = 2000;
const MAX_MS = 10_000;

export interface ExplainHost {
  /**
   * Run `choices` as a prefix — beyond it, random draws when `extend`, else the simplest values (which end a
   * list or a machine's sequence) — and return the executed case (recorded by the host).
   */
  run(choices: readonly ChoiceValue[], extend: boolean): Generator<TestCase, TestCase, TestCase>;
  readonly random: Random;
  /** Asked before every call: true when the run must stop now (the property turned out flaky). */
  stop(): boolean;
  /**
   * Draw `choices` (random draws beyond them) as the property's arguments without calling it — a plain property
   * can — and return the drawn case with its spans, or undefined when drawing ended it (a filter, an overrun).
   * A variation of another length is then spliced before any call: each variation costs one call.
   */
  draw?(choices: readonly ChoiceValue[]): TestCase | undefined;
}

/** The slices of `target` that vary freely, in the order given. */
export function* explain(
  target: TestCase,
  slices: readonly Slice[],
  host: ExplainHost,
): Generator<TestCase, Slice[], TestCase> {
  const started = now();
  let calls = 0;
  const budget = () => calls < MAX_CALLS && now() - started < MAX_MS && !host.stop();
  const choices = target.choices;
  const nodes = target.nodes;
  const spans = target.spans;
  const free: Slice[] = [];
  // Only slices that can vary: a forced choice, or one with a single legal value, is no finding when "free".
  const order = slices.filter((s) =>
    nodes.slice(s.start, s.end).some((n) => !n.forced && domainSize(n.type, n.constraints) > 1),
  );
  order.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const run = function* (attempt: readonly ChoiceValue[], extend: boolean): Generator<TestCase, TestCase, TestCase> {
    calls++;
    return yield* host.run(attempt, extend);
  };

  for (const slice of order) {
    if (!budget()) break;
    if (free.some((f) => f.start <= slice.start && slice.end <= f.end)) {
      free.push(slice);
      continue;
    }
    const { start, end } = slice;
    const borrowed = borrowedValues(target, slices, slice);
    // The span this slice is, if it is one: where a variation of another length is read back from.
    const spanIndex = spans.findIndex((s) => s.start === start && s.end === end);
    let same = 0;
    // A variation failing the same way: true once SAME_FAILURES have, and the slice is free.
    const sameAgain = (): boolean => {
      if (++same < SAME_FAILURES) return false;
      free.push(slice);
      return true;
    };
    const tried = new Set<string>();
    for (let n = 0; n < MAX_ATTEMPTS + borrowed.length && budget(); n++) {
      if (n - 10 - borrowed.length > same * 5) break; // mostly rejected: no verdict
      const replacement = n < borrowed.length ? borrowed[n]! : randomValues(target, start, end, host.random);
      const attempt = [...choices.slice(0, start), ...replacement, ...choices.slice(end)];
      // The target itself again (a random variation that drew the same values): it fails the same way, uncalled.
      if (sameChoices(target, attempt)) {
        if (sameAgain()) break;
        continue;
      }
      let tc: TestCase;
      // Drawn first where the property allows it: the attempt as it will run, spliced if its length changed, and
      // called once.
      const drawn = host.draw?.(attempt);
      if (drawn !== undefined) {
        const reshaped = drawn.choiceCount !== choices.length || !suffixKept(drawn, target, end);
        const next = reshaped ? splice(drawn, choices, start, end, spanIndex, replacement) : drawn.choices;
        // Spliced back, a variation may be the target itself (it fails the same way, uncalled) or one already run.
        if (sameSequences(next, choices)) {
          if (sameAgain()) break;
          continue;
        }
        const key = valuesKey(next);
        if (tried.has(key)) continue;
        tried.add(key);
        tc = yield* run(next, false);
      } else {
        tc = yield* run(attempt, true);
        if (tc.status === Status.Overrun) continue;
        if (tc.choiceCount !== choices.length || !suffixKept(tc, target, end)) {
          // Another length: splice the slice as this attempt drew it back between the old prefix and suffix, and
          // run that without random draws after it — a case that went on past the old end (a machine whose
          // failing step passed now, and drew more steps) must not fail later and count as failing the same way.
          // (A slice that is no span of its own, e.g. one integer, kept its length: it is spliced as it was made.)
          if (!budget()) break;
          const spliced = splice(tc, choices, start, end, spanIndex, replacement);
          // The attempt already ran exactly these choices (a last argument has no suffix to put back): once is enough.
          if (!sameChoices(tc, spliced)) tc = yield* run(spliced, false);
        }
      }
      if (tc.status === Status.Overrun) continue;
      // A variation that passes, or fails another way, changes the outcome: the slice matters. So does one the
      // property rejects (assume() in a rule or a body): "or any other generated value" would promise a repro
      // that no longer fails once pasted with it.
      if (
        tc.status === Status.Valid ||
        tc.status === Status.Invalid ||
        (tc.status === Status.Interesting && tc.origin !== target.origin)
      )
        break;
      if (tc.status === Status.Interesting && sameAgain()) break;
    }
  }
  return slices.filter((s) => free.includes(s));
}

/**
 * The target's choices with the slice [start, end) replaced as `tc` drew it (its span `spanIndex`), or by
 * `replacement` when it is no span of its own (one integer keeps its length).
 */
function splice(
  tc: TestCase,
  choices: readonly ChoiceValue[],
  start: number,
  end: number,
  spanIndex: number,
  replacement: readonly ChoiceValue[],
): ChoiceValue[] {
  const drawn = spanIndex >= 0 ? tc.spans[spanIndex] : undefined;
  const infix = drawn !== undefined && drawn.start === start ? tc.choices.slice(start, drawn.end) : replacement;
  return [...choices.slice(0, start), ...infix, ...choices.slice(end)];
}

/** A choice sequence as text: equal texts, equal sequences. */
function valuesKey(values: readonly ChoiceValue[]): string {
  return values.map(choiceText).join(",");
}

/** Whether `tc` ran exactly `choices`. */
function sameChoices(tc: TestCase, choices: readonly ChoiceValue[]): boolean {
  if (tc.choiceCount !== choices.length) return false;
  for (let i = 0; i < choices.length; i++)
    if (!choiceEquals(tc.nodes[i]!.type, tc.valueAt(i), choices[i]!)) return false;
  return true;
}

/** Whether `tc` ends with the target's choices from `end` on (the variation kept the rest in place). */
function suffixKept(tc: TestCase, target: TestCase, end: number): boolean {
  const offset = tc.choiceCount - target.choiceCount;
  for (let i = end; i < target.choiceCount; i++)
    if (!choiceEquals(target.nodes[i]!.type, tc.valueAt(i + offset), target.valueAt(i))) return false;
  return true;
}

/** The values of other slices with the same kinds of choices (distinct, not the slice's own). */
function borrowedValues(target: TestCase, slices: readonly Slice[], slice: Slice): ChoiceValue[][] {
  const nodes = target.nodes;
  const len = slice.end - slice.start;
  const key = (s: Slice) =>
    nodes
      .slice(s.start, s.end)
      .map((n) => `${n.type}:${String(choiceKey(n.type, n.value))}`)
      .join("|");
  const seen = new Set([key(slice)]);
  const out: ChoiceValue[][] = [];
  for (const other of slices) {
    if (other === slice || other.end - other.start !== len) continue;
    let fits = true;
    for (let j = 0; j < len && fits; j++) fits = nodes[other.start + j]!.type === nodes[slice.start + j]!.type;
    if (!fits || seen.has(key(other))) continue;
    seen.add(key(other));
    out.push(nodes.slice(other.start, other.end).map((n) => n.value));
  }
  return out;
}

/** Random values of the slice's own kinds (forced choices kept). */
function randomValues(target: TestCase, start: number, end: number, random: Random): ChoiceValue[] {
  const out: ChoiceValue[] = [];
  for (let i = start; i < end; i++) {
    const n = target.nodes[i]!;
    out.push(n.forced ? n.value : generateChoice(n.type, n.constraints, random));
  }
  return out;
}

/** A property's slices: its arguments (the top-level "argument" spans drawArgs opens). */
export function argumentSlices(tc: TestCase): Slice[] {
  return tc.spans.filter((s) => s.depth === 0 && s.label === "argument").map((s) => ({ start: s.start, end: s.end }));
}
