/**
 * The complexity index: the order that defines "simpler" for one choice.
 *
 * Each type has a complexity index: a bijection between the values legal under the constraints and
 * 0, 1, 2, … where index 0 is the simplest legal value. The index is relative to the constraints: for an
 * integer drawn with min 1 the simplest value is 1, so the shrinker never proposes a value the generator could
 * not have produced. Sequences are compared shortlex: shorter first, then index by index (`sortKey`).
 *
 *   integer  zigzag around shrinkTowards (clamped into the bounds): t, t+1, t−1, t+2, …; once one bound
 *            is reached the other side continues in order.
 *   float    see floatOrder.ts: integral before fractional, fewer binary digits first, then by size; signs
 *            interleave. The index is made constraint-relative by moving the simplest legal float to 0.
 *   boolean  false, true (a boolean with p = 1 has only true, at index 0).
 *   string   by UTF-16 length (JavaScript's `.length`: an astral character counts two), then character by
 *            character in the alphabet's shrink order (intervals.ts) — so "000" comes before "0𐀀", as a reader
 *            of `.length` expects. Every BMP character precedes every astral one in that order, which keeps
 *            the counting below small (utf16.ts).
 *   bytes    shortlex over byte values, from minSize up.
 */
import type {
  BooleanConstraints,
  BytesConstraints,
  ChoiceType,
  ChoiceValue,
  Constraints,
  IntegerConstraints,
  StringConstraints,
} from "./types.ts";
import { compareFloats, floatFromKey, floatKey } from "./floatOrder.ts";
import { mixedWidths, utf16FromIndex, utf16Index, utf16IndexNumber } from "./utf16.ts";
import { highBound, lowBound, simplest, towards } from "./domain.ts";
import { stringFromCodePoints } from "../util/strings.ts";

/** Above this, index arithmetic in doubles may round: switch to BigInt. */
const EXACT_LIMIT = 2 ** 52;

function integerIndex(v: number, c: IntegerConstraints): number {
  const t = towards(c);
  const below = t - lowBound(c);
  const above = highBound(c) - t;
  if (v > t) {
    const d = v - t;
    return d <= below ? 2 * d - 1 : below + d;
  }
  if (v < t) {
    const d = t - v;
    return d <= above ? 2 * d : above + d;
  }
  return 0;
}

/** The exact integer index (bigint arithmetic only when doubles could round). */
function integerIndexExact(v: number, c: IntegerConstraints): bigint {
  const fast = integerIndex(v, c);
  if (fast < EXACT_LIMIT && Math.abs(v) < EXACT_LIMIT && Math.abs(c.shrinkTowards) < EXACT_LIMIT) return BigInt(fast);
  const t = BigInt(towards(c));
  const x = BigInt(v);
  const below = t - BigInt(lowBound(c));
  const above = BigInt(highBound(c)) - t;
  if (x > t) {
    const d = x - t;
    return d <= below ? 2n * d - 1n : below + d;
  }
  if (x < t) {
    const d = t - x;
    return d <= above ? 2n * d : above + d;
  }
  return 0n;
}

function integerFromIndex(index: bigint, c: IntegerConstraints): number {
  const t = BigInt(towards(c));
  const below = t - BigInt(lowBound(c));
  const above = BigInt(highBound(c)) - t;
  const m = below < above ? below : above;
  if (index <= 2n * m) return Number(index % 2n === 1n ? t + (index + 1n) / 2n : t - index / 2n);
  return Number(above > below ? t + (index - below) : t - (index - above));
}

function codePoints(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) out.push(ch.codePointAt(0) as number);
  return out;
}

/** Digits (each < base) read as one number, most significant first: halves multiplied, so long sequences are not quadratic. */
function digitsValue(digits: ArrayLike<number>, from: number, to: number, b: bigint): bigint {
  if (to - from <= 64) {
    let lex = 0n;
    for (let i = from; i < to; i++) lex = lex * b + BigInt(digits[i]);
    return lex;
  }
  const mid = (from + to) >>> 1;
  return digitsValue(digits, from, mid, b) * b ** BigInt(to - mid) + digitsValue(digits, mid, to, b);
}

/** Shortlex index of a sequence of digits (each < base) of length ≥ minSize. */
function sequenceIndex(digits: ArrayLike<number>, base: number, minSize: number): bigint {
  const b = BigInt(base);
  // The values shorter than `digits`, Σ base^len over len in [minSize, length): a geometric sum in closed form.
  const length = digits.length;
  let offset: bigint;
  if (base === 1) offset = BigInt(length - minSize);
  else offset = (b ** BigInt(length) - b ** BigInt(minSize)) / (b - 1n);
  return offset + digitsValue(digits, 0, length, b);
}

function sequenceFromIndex(index: bigint, base: number, minSize: number, maxSize: number): number[] {
  const beyond = (): never => {
    throw new RangeError(`index ${index} is beyond the longest legal value`);
  };
  const b = BigInt(base);
  let len: number;
  let i: bigint;
  if (base <= 1) {
    // One value per length (only zeros), or with no digits at all only the empty sequence.
    if (base === 0 && (index > 0n || minSize > 0)) beyond();
    len = minSize + Number(index);
    i = 0n;
  } else {
    // The values shorter than len number (b^len − b^minSize) / (b − 1), so the length is the largest len with
    // b^len ≤ t = index·(b − 1) + b^minSize: estimated from t's bit length, then corrected.
    const low = b ** BigInt(minSize);
    const t = index * (b - 1n) + low;
    len = Math.max(minSize, Math.floor((t.toString(16).length * 4) / Math.log2(base)) - 1);
    while (b ** BigInt(len + 1) <= t) len++;
    while (len > minSize && b ** BigInt(len) > t) len--;
    i = index - (b ** BigInt(len) - low) / (b - 1n);
  }
  if (len > maxSize) beyond();
  const digits = new Array<number>(len).fill(0);
  if (base > 1) digitsOf(i, b, digits, 0, len);
  return digits;
}

/** Writes `value` as `to − from` digits in base b into digits[from, to), most significant first, halving as it goes. */
function digitsOf(value: bigint, b: bigint, digits: number[], from: number, to: number): void {
  if (to - from <= 64) {
    let v = value;
    for (let p = to - 1; p >= from; p--) {
      digits[p] = Number(v % b);
      v /= b;
    }
    return;
  }
  const mid = (from + to) >>> 1;
  const pow = b ** BigInt(to - mid);
  digitsOf(value / pow, b, digits, from, mid);
  digitsOf(value % pow, b, digits, mid, to);
}

/**
 * The complexity index of a legal value under its constraints: 0 is the simplest legal value.
 * Exact (bigint) for every type; `choiceFromIndex` is its inverse.
 */
export function choiceToIndex(type: ChoiceType, value: ChoiceValue, c: Constraints): bigint {
  switch (type) {
    case "integer":
      return integerIndexExact(value as number, c as IntegerConstraints);
    case "boolean":
      return (c as BooleanConstraints).p >= 1 ? 0n : value ? 1n : 0n;
    case "float": {
      const s = floatKey(simplest("float", c) as number);
      const k = floatKey(value as number);
      // Move the simplest legal float to index 0 and shift the keys below it up by one.
      if (k === s) return 0n;
      return k < s ? k + 1n : k;
    }
    case "string": {
      const k = c as StringConstraints;
      const digits = codePoints(value as string).map((cp) => k.alphabet.shrinkIndex(cp));
      if (mixedWidths(k.alphabet)) return utf16Index(digits, (value as string).length, k);
      return sequenceIndex(digits, k.alphabet.size, k.minSize);
    }
    case "bytes":
      return sequenceIndex(value as Uint8Array, 256, (c as BytesConstraints).minSize);
  }
}

export function choiceFromIndex(type: ChoiceType, index: bigint, c: Constraints): ChoiceValue {
  switch (type) {
    case "integer":
      return integerFromIndex(index, c as IntegerConstraints);
    case "boolean":
      return (c as BooleanConstraints).p >= 1 ? true : index !== 0n;
    case "float": {
      const s = floatKey(simplest("float", c) as number);
      if (index === 0n) return floatFromKey(s);
      return floatFromKey(index <= s ? index - 1n : index);
    }
    case "string": {
      const k = c as StringConstraints;
      const digits = mixedWidths(k.alphabet)
        ? utf16FromIndex(index, k)
        : sequenceFromIndex(index, k.alphabet.size, k.minSize, k.maxSize);
      for (let p = 0; p < digits.length; p++) digits[p] = k.alphabet.atShrinkIndex(digits[p]);
      return stringFromCodePoints(digits);
    }
    case "bytes": {
      const k = c as BytesConstraints;
      return Uint8Array.from(sequenceFromIndex(index, 256, k.minSize, k.maxSize));
    }
  }
}

/** sequenceIndex in doubles: exact while below 2^53 (every partial sum is then exact), approximate above. */
function sequenceIndexNumber(length: number, digitAt: (i: number) => number, base: number, minSize: number): number {
  let offset = 0;
  let pow = base ** minSize;
  for (let len = minSize; len < length; len++) {
    offset += pow;
    pow *= base;
  }
  let lex = 0;
  for (let i = 0; i < length; i++) lex = lex * base + digitAt(i);
  return offset + lex;
}

/** The index as a JS number for display and events (exact below 2^53, approximate above; no BigInt work). */
export function indexNumber(type: ChoiceType, value: ChoiceValue, c: Constraints): number {
  if (type === "integer") return integerIndex(value as number, c as IntegerConstraints);
  if (type === "boolean") return (c as BooleanConstraints).p >= 1 || !value ? 0 : 1;
  if (type === "string") {
    const k = c as StringConstraints;
    if (mixedWidths(k.alphabet)) return utf16IndexNumber(value as string, k);
    const cps = codePoints(value as string);
    return sequenceIndexNumber(cps.length, (i) => k.alphabet.shrinkIndex(cps[i]), k.alphabet.size, k.minSize);
  }
  if (type === "bytes") {
    const b = value as Uint8Array;
    return sequenceIndexNumber(b.length, (i) => b[i], 256, (c as BytesConstraints).minSize);
  }
  return Number(choiceToIndex(type, value, c));
}

/**
 * Compare two legal values of one choice in the index order, without building indices where it can.
 * Negative when a is simpler.
 */
export function compareChoice(type: ChoiceType, a: ChoiceValue, b: ChoiceValue, c: Constraints): number {
  switch (type) {
    case "integer": {
      const k = c as IntegerConstraints;
      const ia = integerIndex(a as number, k);
      const ib = integerIndex(b as number, k);
      if (ia < EXACT_LIMIT && ib < EXACT_LIMIT) return ia - ib;
      const ea = integerIndexExact(a as number, k);
      const eb = integerIndexExact(b as number, k);
      return ea < eb ? -1 : ea > eb ? 1 : 0;
    }
    case "boolean":
      return indexNumber(type, a, c) - indexNumber(type, b, c);
    case "float": {
      const s = simplest("float", c) as number;
      if (Object.is(a, b)) return 0;
      if (Object.is(a, s)) return -1;
      if (Object.is(b, s)) return 1;
      return compareFloats(a as number, b as number);
    }
    case "string": {
      // UTF-16 length first, then code point by code point (equal lengths: neither is a prefix of the other).
      const k = c as StringConstraints;
      const x = a as string;
      const y = b as string;
      if (x.length !== y.length) return x.length - y.length;
      for (let i = 0; i < x.length;) {
        const p = x.codePointAt(i) as number;
        const q = y.codePointAt(i) as number;
        if (p !== q) return k.alphabet.shrinkIndex(p) - k.alphabet.shrinkIndex(q);
        i += p > 0xffff ? 2 : 1;
      }
      return 0;
    }
    case "bytes": {
      const x = a as Uint8Array;
      const y = b as Uint8Array;
      if (x.length !== y.length) return x.length - y.length;
      for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] - y[i];
      return 0;
    }
  }
}
