/**
 * Choices: the five primitive draws every strategy bottoms out in, and the order that defines "simpler".
 *
 * A test case is a sequence of choices, each a (type, value, constraints) triple. Everything else in the
 * engine — replay, the database, the DataTree, the shrinker, the panel — speaks this sequence.
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
import { IntervalSet } from "./intervals.ts";
import { compareFloats, floatFromKey, floatKey, simplestFloat } from "./floatOrder.ts";
import { mixedWidths, utf16DomainSize, utf16FromIndex, utf16Index, utf16IndexNumber } from "./utf16.ts";

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

// ---------------------------------------------------------------------------------------------- flat storage

/** A choice's value as choice storage keeps it (ChoiceData, the DataTree's runs): by its kind's type code. */
export function storedValue(code: number, values: Float64Array, objects: unknown[] | null, i: number): ChoiceValue {
  switch (code & 7) {
    case 2:
      return values[i] !== 0;
    case 3:
    case 4:
      return (objects as unknown[])[i] as ChoiceValue;
    default:
      return values[i];
  }
}

/**
 * How a TestCase stores its choices (and what DataTree.insert reads): parallel arrays, one slot per choice —
 * the kind (the type's code, | FORCED_BIT when forced) in an Int32Array, the constraints, and the value: a
 * number (booleans as 0/1) in a Float64Array, a string or bytes in a side array. Numbers are stored unboxed, so
 * drawing an integer allocates nothing; the DataTree copies its runs out of these arrays. ChoiceNode objects
 * are built from it only when asked for (shrinking, events). `length` choices are held; `clear` empties it
 * for reuse (a generated case's storage is reused by the next one: TestCase).
 */
export class ChoiceData {
  codes: Int32Array;
  values: Float64Array;
  constraints: Constraints[];
  /** String and bytes values by position (made on first use). */
  objects: unknown[] | null = null;
  length = 0;
  /** (8: typed arrays of up to 64 bytes live on the JS heap, cheap to make; larger ones need a backing store.) */
  constructor(capacity = 8) {
    this.codes = new Int32Array(capacity);
    this.values = new Float64Array(capacity);
    this.constraints = new Array<Constraints>(capacity);
  }

  push(code: number, constraints: Constraints, value: ChoiceValue): void {
    const i = this.length;
    if (i === this.codes.length) this.grow();
    this.codes[i] = code;
    this.constraints[i] = constraints;
    switch (code & 7) {
      case 2:
        this.values[i] = value ? 1 : 0;
        break;
      case 3:
      case 4:
        (this.objects ??= [])[i] = value;
        break;
      default:
        this.values[i] = value as number;
    }
    this.length = i + 1;
  }

  /** push() for a choice stored as a number (an integer, a float, a boolean as 0/1). */
  pushNumber(code: number, constraints: Constraints, value: number): void {
    const i = this.length;
    if (i === this.codes.length) this.grow();
    this.codes[i] = code;
    this.constraints[i] = constraints;
    this.values[i] = value;
    this.length = i + 1;
  }

  value(i: number): ChoiceValue {
    return storedValue(this.codes[i], this.values, this.objects, i);
  }

  clear(): void {
    this.length = 0;
  }

  /** A copy holding just the choices (for a case that outlives reused storage). */
  copy(): ChoiceData {
    const out = new ChoiceData(Math.max(this.length, 1));
    out.assign(this, this.length);
    return out;
  }

  /** Hold choices [0, n) of `from` instead of its own (growing as needed). */
  assign(from: ChoiceData, n: number): void {
    while (this.codes.length < n) this.grow();
    // A loop, not set(subarray(…)): most cases hold a few dozen choices, and each subarray is an object.
    const codes = this.codes;
    const values = this.values;
    for (let i = 0; i < n; i++) {
      codes[i] = from.codes[i];
      values[i] = from.values[i];
      this.constraints[i] = from.constraints[i];
    }
    if (from.objects !== null) {
      const objects = (this.objects ??= []);
      for (let i = 0; i < n; i++) objects[i] = from.objects[i];
    }
    this.length = n;
  }

  private grow(): void {
    const n = this.codes.length * 2;
    const codes = new Int32Array(n);
    codes.set(this.codes);
    const values = new Float64Array(n);
    values.set(this.values);
    this.codes = codes;
    this.values = values;
  }
}
export const FORCED_BIT = 8;
export const TYPE_NAMES: readonly ChoiceType[] = ["integer", "float", "boolean", "string", "bytes"];

export function typeCode(type: ChoiceType): number {
  switch (type) {
    case "integer":
      return 0;
    case "float":
      return 1;
    case "boolean":
      return 2;
    case "string":
      return 3;
    case "bytes":
      return 4;
  }
}

export function typeAt(data: ChoiceData, i: number): ChoiceType {
  return TYPE_NAMES[data.codes[i] & 7];
}
export function forcedAt(data: ChoiceData, i: number): boolean {
  return (data.codes[i] & FORCED_BIT) !== 0;
}
export function constraintsAt(data: ChoiceData, i: number): Constraints {
  return data.constraints[i];
}
export function valueAt(data: ChoiceData, i: number): ChoiceValue {
  return data.value(i);
}
export function nodeAt(data: ChoiceData, i: number): ChoiceNode {
  return { type: typeAt(data, i), value: valueAt(data, i), constraints: constraintsAt(data, i), forced: forcedAt(data, i) };
}

/** Flat storage of ChoiceNode objects (for callers that hold nodes, e.g. DataTree.record). */
export function dataOfNodes(nodes: readonly ChoiceNode[]): ChoiceData {
  const data = new ChoiceData(Math.max(nodes.length, 1));
  for (const n of nodes) data.push(typeCode(n.type) | (n.forced ? FORCED_BIT : 0), n.constraints, n.value);
  return data;
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

function lowBound(c: IntegerConstraints): number {
  return c.min ?? -MAX_SAFE;
}
function highBound(c: IntegerConstraints): number {
  return c.max ?? MAX_SAFE;
}
function towards(c: IntegerConstraints): number {
  return Math.min(Math.max(c.shrinkTowards, lowBound(c)), highBound(c));
}

// ---------------------------------------------------------------------------------------------- legality

export function permitted(type: ChoiceType, value: ChoiceValue, c: Constraints): boolean {
  switch (type) {
    case "integer": {
      const k = c as IntegerConstraints;
      return typeof value === "number" && Number.isSafeInteger(value) && value >= lowBound(k) && value <= highBound(k);
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
      if (k.min === k.max) return (k.min === 0 ? (zeroPermitted(false, k.min, k.max) ? 1 : 0) + (zeroPermitted(true, k.min, k.max) ? 1 : 0) : 1) + nan;
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
      if (type === "string" && mixedWidths((k as StringConstraints).alphabet)) return utf16DomainSize(k as StringConstraints, CAP);
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

// ---------------------------------------------------------------------------------------------- indices

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

/**
 * How many elements one String.fromCharCode / fromCodePoint call takes: a call spreads its arguments on the stack,
 * and some hundred thousand of them overflow it (a RangeError), so longer strings are built chunk by chunk.
 */
const CHUNK = 8192;

/** A string from UTF-16 code units (or bytes), for any number of them. */
export function stringFromCharCodes(units: ArrayLike<number>): string {
  const n = units.length;
  if (n <= CHUNK) return String.fromCharCode.apply(null, units as number[]);
  // Typed arrays (bytes: long byte arrays are DataTree keys) are cut into views, not copied into arrays. No
  // Buffer here: this module is also compiled for the panel, in the browser.
  const typed = ArrayBuffer.isView(units) ? (units as unknown as Uint8Array) : undefined;
  const parts: string[] = [];
  for (let i = 0; i < n; i += CHUNK) {
    const end = Math.min(i + CHUNK, n);
    const chunk = typed !== undefined ? typed.subarray(i, end) : Array.prototype.slice.call(units, i, end);
    parts.push(String.fromCharCode.apply(null, chunk as unknown as number[]));
  }
  return parts.join("");
}

/** A string from code points, for any number of them. */
export function stringFromCodePoints(cps: ArrayLike<number>): string {
  const n = cps.length;
  if (n <= CHUNK) return String.fromCodePoint.apply(null, cps as number[]);
  const parts: string[] = [];
  for (let i = 0; i < n; i += CHUNK) parts.push(String.fromCodePoint.apply(null, Array.prototype.slice.call(cps, i, Math.min(i + CHUNK, n)) as number[]));
  return parts.join("");
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
      const digits = mixedWidths(k.alphabet) ? utf16FromIndex(index, k) : sequenceFromIndex(index, k.alphabet.size, k.minSize, k.maxSize);
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
      for (let i = 0; i < x.length; ) {
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

/** Two values of one choice are the same choice (floats by Object.is, so −0 ≠ 0 and NaN = NaN). */
export function choiceEquals(type: ChoiceType, a: ChoiceValue, b: ChoiceValue): boolean {
  if (type === "bytes") {
    const x = a as Uint8Array;
    const y = b as Uint8Array;
    if (!(x instanceof Uint8Array) || !(y instanceof Uint8Array) || x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
    return true;
  }
  return Object.is(a, b);
}

/** Whether two value sequences are the same choices (−0 is not 0; byte strings by their bytes). */
export function sameChoices(a: readonly ChoiceValue[], b: readonly ChoiceValue[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x instanceof Uint8Array || y instanceof Uint8Array ? !choiceEquals("bytes", x, y) : !Object.is(x, y)) return false;
  }
  return true;
}

/** A primitive key for Maps (Map uses SameValueZero, which would merge −0 and 0). */
export function choiceKey(type: ChoiceType, v: ChoiceValue): string | number | boolean {
  if (type === "bytes") return stringFromCharCodes(v as Uint8Array);
  if (type === "float" && Object.is(v, -0)) return "-0";
  return v as string | number | boolean;
}

// ---------------------------------------------------------------------------------------------- sort key

/** The value sequence a test case made (the choice sequence without its constraints). */
export type Choices = readonly ChoiceValue[];

export interface SortKey {
  readonly length: number;
  readonly indices: readonly bigint[];
}

/** Shortlex key: (length, indices). "Simpler" means exactly "smaller sortKey" everywhere in Shrinkscope. */
export function sortKey(nodes: readonly ChoiceNode[]): SortKey {
  return { length: nodes.length, indices: nodes.map((n) => choiceToIndex(n.type, n.value, n.constraints)) };
}

/** How two sequences compare and what decided it: the length, or the first differing position. */
export type SortKeyComparison =
  | { readonly order: -1 | 0 | 1; readonly by: "length"; readonly lengths: readonly [number, number] }
  | { readonly order: -1 | 1; readonly by: "position"; readonly position: number; readonly indices: readonly [number, number] }
  | { readonly order: 0; readonly by: "equal" };

/** Compare two node sequences shortlex, reporting the deciding position (used by the shrinker and the panel). */
export function compareNodes(a: readonly ChoiceNode[], b: readonly ChoiceNode[]): SortKeyComparison {
  if (a.length !== b.length) {
    return { order: a.length < b.length ? -1 : 1, by: "length", lengths: [a.length, b.length] };
  }
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x.type !== y.type || x.constraints !== y.constraints) {
      // Different draws at the same position: compare exact indices under each node's own constraints.
      const ix = choiceToIndex(x.type, x.value, x.constraints);
      const iy = choiceToIndex(y.type, y.value, y.constraints);
      if (ix !== iy) return { order: ix < iy ? -1 : 1, by: "position", position: i, indices: [Number(ix), Number(iy)] };
      continue;
    }
    const c = compareChoice(x.type, x.value, y.value, x.constraints);
    if (c !== 0) {
      return {
        order: c < 0 ? -1 : 1,
        by: "position",
        position: i,
        indices: [indexNumber(x.type, x.value, x.constraints), indexNumber(y.type, y.value, y.constraints)],
      };
    }
  }
  return { order: 0, by: "equal" };
}
