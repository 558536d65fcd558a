/**
 * Choices: the five primitive draws every strategy bottoms out in — integer, float, boolean, string, bytes —
 * each drawn under explicit constraints. A test case is a sequence of choices, each a (type, value,
 * constraints) triple; everything else in the engine — replay, the database, the DataTree, the shrinker, the
 * panel — speaks this sequence. This file holds their types only: how they are stored (storage.ts), which values
 * are legal (domain.ts), their order of simplicity (complexityIndex.ts, order.ts) and identity (identity.ts).
 */
import type { IntervalSet } from "./intervals.ts";

export type ChoiceType = "integer" | "float" | "boolean" | "string" | "bytes";
export type ChoiceValue = number | boolean | string | Uint8Array;

export interface IntegerConstraints {
  /** Inclusive bounds; null for unbounded on that side (draws then stay within the safe-integer range). */
  readonly min: number | null;
  readonly max: number | null;
  readonly shrinkTowards: number;
}
export interface FloatConstraints {
  /**
   * Inclusive bounds; ±Infinity are legal values exactly when a bound is infinite. A zero bound is signed:
   * min +0 excludes −0 and max −0 excludes +0 (as in Hypothesis), so [−0, −0] is −0 alone (see zeroPermitted).
   */
  readonly min: number;
  readonly max: number;
  readonly allowNaN: boolean;
}
export interface BooleanConstraints {
  /** Probability of true when generating; 0 or 1 make the choice forced. */
  readonly p: number;
}
export interface StringConstraints {
  readonly alphabet: IntervalSet;
  readonly minSize: number;
  readonly maxSize: number;
}
export interface BytesConstraints {
  readonly minSize: number;
  readonly maxSize: number;
}

export interface ConstraintsOf {
  integer: IntegerConstraints;
  float: FloatConstraints;
  boolean: BooleanConstraints;
  string: StringConstraints;
  bytes: BytesConstraints;
}
export interface ValueOf {
  integer: number;
  float: number;
  boolean: boolean;
  string: string;
  bytes: Uint8Array;
}
export type Constraints = ConstraintsOf[ChoiceType];

/** One recorded draw. `forced` marks a value the strategy fixed (it is never shrunk). */
export interface ChoiceNode<T extends ChoiceType = ChoiceType> {
  readonly type: T;
  readonly value: ValueOf[T];
  readonly constraints: ConstraintsOf[T];
  readonly forced: boolean;
}

/** The value sequence a test case made (the choice sequence without its constraints). */
export type Choices = readonly ChoiceValue[];
