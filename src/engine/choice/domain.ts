/**
 * Which values a choice may take under its constraints: whether a value is legal, the simplest legal value (the
 * one at complexity index 0), and how many there are (the DataTree's measure of when a subtree is exhausted).
 */
import type {
  BooleanConstraints,
  BytesConstraints,
  ChoiceType,
  ChoiceValue,
  Constraints,
  FloatConstraints,
  IntegerConstraints,
  StringConstraints,
} from "./types.ts";
import { simplestFloat } from "./floatOrder.ts";
import { mixedWidths, utf16DomainSize } from "./utf16.ts";

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

export function lowBound(c: IntegerConstraints): number {
  return c.min ?? -MAX_SAFE;
}
export function highBound(c: IntegerConstraints): number {
  return c.max ?? MAX_SAFE;
}
/** The integer the shrinker moves toward: shrinkTowards clamped into the bounds. */
export function towards(c: IntegerConstraints): number {
  return Math.min(Math.max(c.shrinkTowards, lowBound(c)), highBound(c));
}

export function permitted(type: ChoiceType, value: ChoiceValue, c: Constraints): boolean {
  switch (type) {
    case "integer": {
      const k = c as IntegerConstraints;
      // −0 is a float's value, never an integer's: one queued for a float and met by an integer draw was recorded
      // as an integer −0, and the DataTree, which reads it as 0, called the run flaky.
      return (
        typeof value === "number" &&
        Number.isSafeInteger(value) &&
        value >= lowBound(k) &&
        value <= highBound(k) &&
        !Object.is(value, -0)
      );
    }
    case "float": {
      const k = c as FloatConstraints;
      if (typeof value !== "number") return false;
      if (Number.isNaN(value)) return k.allowNaN;
      // A zero bound is signed, as in Hypothesis: min +0 excludes −0, max −0 excludes +0 (−0 ≤ x ≤ +0 has both).
      if (value === 0) return k.min <= 0 && k.max >= 0 && zeroPermitted(Object.is(value, -0), k.min, k.max);
      return value >= k.min && value <= k.max;
    }
    case "boolean": {
      const k = c as BooleanConstraints;
      if (typeof value !== "boolean") return false;
      return value ? k.p > 0 : k.p < 1;
    }
    case "string": {
      const k = c as StringConstraints;
      if (typeof value !== "string") return false;
      let n = 0;
      for (const ch of value) {
        if (!k.alphabet.contains(ch.codePointAt(0) as number)) return false;
        n++;
      }
      return n >= k.minSize && n <= k.maxSize;
    }
    case "bytes": {
      const k = c as BytesConstraints;
      return value instanceof Uint8Array && value.length >= k.minSize && value.length <= k.maxSize;
    }
  }
}

/**
 * Whether a zero of this sign lies within bounds that include zero. A zero bound is signed, as in Hypothesis:
 * min +0 excludes −0 and max −0 excludes +0. Bounds [+0, −0] contradict each other; rather than an empty
 * range they read as zero of either sign (Hypothesis rejects them; st.floats accepts what a sorted pair of
 * zeros can give, since −0 <= 0 and 0 <= −0 are both true).
 */
export function zeroPermitted(negative: boolean, min: number, max: number): boolean {
  const contradictory = Object.is(min, 0) && Object.is(max, -0);
  return contradictory || (negative ? !Object.is(min, 0) : !Object.is(max, -0));
}

/** The simplest legal value: the value at index 0. */
export function simplest(type: ChoiceType, c: Constraints): ChoiceValue {
  switch (type) {
    case "integer":
      return towards(c as IntegerConstraints);
    case "float": {
      const k = c as FloatConstraints;
      return simplestFloat(k.min, k.max, k.allowNaN);
    }
    case "boolean":
      return (c as BooleanConstraints).p >= 1;
    case "string": {
      const k = c as StringConstraints;
      if (k.minSize === 0) return "";
      return String.fromCodePoint(k.alphabet.atShrinkIndex(0)).repeat(k.minSize);
    }
    case "bytes":
      return new Uint8Array((c as BytesConstraints).minSize);
  }
}

/**
 * Number of legal values, or Infinity when it is too large to matter for exhaustion (above 2^31).
 * The DataTree uses it to know when every value below a node has been tried.
 */
export function domainSize(type: ChoiceType, c: Constraints): number {
  const CAP = 2 ** 31;
  switch (type) {
    case "integer": {
      const k = c as IntegerConstraints;
      const n = highBound(k) - lowBound(k) + 1;
      return n > CAP ? Infinity : n;
    }
    case "float": {
      const k = c as FloatConstraints;
      const nan = k.allowNaN ? 1 : 0;
      if (k.min > k.max) return nan;
      // Zero bounds are signed: [−0, −0] and [0, 0] hold one zero, [−0, 0] (and the contradictory [0, −0]) both.
      if (k.min === k.max)
        return (
          (k.min === 0
            ? (zeroPermitted(false, k.min, k.max) ? 1 : 0) + (zeroPermitted(true, k.min, k.max) ? 1 : 0)
            : 1) + nan
        );
      return Infinity;
    }
    case "boolean": {
      const p = (c as BooleanConstraints).p;
      return p <= 0 || p >= 1 ? 1 : 2;
    }
    case "string":
    case "bytes": {
      const k = c as StringConstraints | BytesConstraints;
      const base = type === "bytes" ? 256 : (k as StringConstraints).alphabet.size;
      // One character (or none): one value per length (or only the empty string). No loop over 2^31 lengths.
      if (base === 0) return k.minSize === 0 ? 1 : 0;
      if (base === 1) return k.maxSize - k.minSize + 1 > CAP ? Infinity : k.maxSize - k.minSize + 1;
      if (type === "string" && mixedWidths((k as StringConstraints).alphabet))
        return utf16DomainSize(k as StringConstraints, CAP);
      let total = 0;
      let pow = base ** k.minSize;
      for (let len = k.minSize; len <= k.maxSize; len++) {
        total += pow;
        if (total > CAP) return Infinity;
        pow *= base;
      }
      return total;
    }
  }
}
