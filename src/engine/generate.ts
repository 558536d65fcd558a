/**
 * How a fresh value is chosen for one draw when nothing is replayed: the generation distribution.
 *
 * A bug hunter wants boundaries, small values, special values and repeats far more often than a uniform
 * draw gives them, but every legal value must stay reachable — so each type mixes a few biased branches with
 * a uniform one. None of this affects shrinking, which only sees the recorded values.
 */
import type { ChoiceType, ChoiceValue, Constraints, FloatConstraints, IntegerConstraints, StringConstraints, BytesConstraints, BooleanConstraints } from "./choices.ts";
import { choiceFromIndex, permitted, simplest, stringFromCharCodes } from "./choices.ts";
import type { Random } from "./random.ts";

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** 2^b − 1 for bit widths b = 0..53 (a table: `2 ** bits` with a variable exponent is a slow pow call). */
const LOW_BITS: readonly number[] = Array.from({ length: 54 }, (_, b) => 2 ** b - 1);

/**
 * An integer: a boundary or the shrink target and their neighbours (1/16), a small magnitude around the
 * shrink target (bit width 1..8, 7/16), any bit width (3/16), or uniform over the range (5/16; for ranges
 * above 2^32 any bit width instead). With `recent` (the integers drawn earlier in this case), now and then
 * (1/16) a value next to one of them instead: "x == y + 1" bugs need near-equal pairs.
 *
 * The common paths take all their randomness from one 32-bit draw (roll, near-value roll and pick, bit
 * width, and a 13-bit value for widths up to 8 — at most 511 values, each reachable).
 */
export function generateInteger(c: IntegerConstraints, r: Random, recent: readonly number[] | null): number {
  const lo = c.min ?? -MAX_SAFE;
  const hi = c.max ?? MAX_SAFE;
  if (lo === hi) return lo;
  const u = r.uint32();
  if (recent !== null && ((u >>> 4) & 15) === 0 && recent.length > 0) {
    const near = recent[((u >>> 8) & 7) % recent.length] + (((u >>> 11) & 7) % 5) - 2;
    if (near >= lo && near <= hi) return near;
  }
  const roll = u & 15;
  if (roll === 0) {
    // A boundary or the shrink target, and their neighbours.
    const t = Math.min(Math.max(c.shrinkTowards, lo), hi);
    const pick = (u >>> 16) % 7;
    const v = pick === 0 ? lo : pick === 1 ? hi : pick === 2 ? t : pick === 3 ? lo + 1 : pick === 4 ? hi - 1 : pick === 5 ? t + 1 : t - 1;
    if (v >= lo && v <= hi) return v;
  }
  if (roll < 11 || hi - lo > 2 ** 32) {
    // Small magnitudes around the shrink target: pick a bit width, then a value within it.
    const small = roll < 8;
    const bits = small ? 1 + ((u >>> 16) & 7) : 1 + ((u >>> 16) % 53);
    const span = LOW_BITS[bits];
    const t = Math.min(Math.max(c.shrinkTowards, lo), hi);
    const a = t - span > lo ? t - span : lo;
    const b = t + span < hi ? t + span : hi;
    // Width up to 8: at most 511 values, from the draw's top 13 bits (each value gets 16 or more of them).
    if (small) return a + Math.floor(((u >>> 19) * (b - a + 1)) / 8192);
    return r.int(a, b);
  }
  return r.int(lo, hi);
}

const NASTY_FLOATS = [
  0, -0, 1, -1, 0.5, -0.5, 2, 10, 0.1, -0.1, 1.5, Number.EPSILON, Number.MIN_VALUE, -Number.MIN_VALUE,
  Number.MAX_VALUE, -Number.MAX_VALUE, 2 ** 53, -(2 ** 53), 2 ** 31, Infinity, -Infinity, NaN, 1e-308, 1 / 3,
];

function generateFloat(c: FloatConstraints, r: Random): number {
  const roll = r.uint32() & 15;
  if (roll < 3) {
    const v = r.pick(NASTY_FLOATS);
    if (permitted("float", v, c)) return v;
    const bound = r.bool(0.5) ? c.min : c.max;
    if (Number.isFinite(bound) || permitted("float", bound, c)) return bound;
  }
  const lo = Math.max(c.min, -Number.MAX_VALUE);
  const hi = Math.min(c.max, Number.MAX_VALUE);
  if (lo > hi) return simplest("float", c) as number;
  if (roll < 8) {
    // A small integral or short-fraction value near the simplest one, as a person would write it.
    const base = simplest("float", c) as number;
    const v = base + (r.int(-1000, 1000) / (r.bool(0.5) ? 1 : 8));
    if (v >= lo && v <= hi) return v;
  }
  if (roll < 12 || !Number.isFinite(hi - lo)) {
    // Any float: random bits, which covers every magnitude including subnormals.
    for (let attempt = 0; attempt < 4; attempt++) {
      const buf = new DataView(new ArrayBuffer(8));
      buf.setUint32(0, r.uint32());
      buf.setUint32(4, r.uint32());
      const v = buf.getFloat64(0);
      if (!Number.isNaN(v) && v >= lo && v <= hi) return v;
    }
  }
  const v = lo + r.double() * (hi - lo);
  return v > hi ? hi : v;
}

/** Characters that break naive code: quotes, escapes, template syntax, whitespace, astral and combining chars. */
const NASTY_CHARS = [..."\"'`$\\{}\n\r\t \0/*", "\u00e9", "\u0301", "\u{1F600}", "\u200b", "\ufeff", "\u2028"].map(
  (ch) => ch.codePointAt(0) as number,
);

/** UTF-16 code units of the string being generated (reused: one string is built at a time). */
const UNITS: number[] = [];

function generateString(c: StringConstraints, r: Random): string {
  const k = c.alphabet.size;
  if (k === 0) return "";
  const len = generateLength(c.minSize, c.maxSize, r);
  if (len === 0) return "";
  const simpleRange = Math.min(k, r.bool(0.5) ? 10 : 95);
  // Built from code units in one call (chunked for long strings): one flat string (the tree keeps it), no
  // intermediate strings.
  const units = UNITS;
  units.length = 0;
  let previous = -1;
  // A repeat of the previous character now and then: duplicate structure finds bugs.
  for (let i = 0; i < len; i++) {
    const roll = r.uint32() & 15;
    let cp: number;
    if (roll === 0 && i > 0) cp = previous;
    else if (roll === 1) {
      const ch = r.pick(NASTY_CHARS);
      cp = c.alphabet.contains(ch) ? ch : c.alphabet.atShrinkIndex(r.int(0, k - 1));
    } else if (roll < 10) cp = c.alphabet.atShrinkIndex(r.int(0, simpleRange - 1));
    else cp = c.alphabet.atShrinkIndex(r.int(0, k - 1));
    if (cp < 0x10000) units.push(cp);
    else units.push(0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff));
    previous = cp;
  }
  const s = stringFromCharCodes(units);
  // Let a long string's units go rather than keep them until the next string is generated.
  if (units.length > 4096) units.length = 0;
  return s;
}

/** Sizes: short often, the minimum and maximum sometimes, anything in range possible. */
export function generateLength(min: number, max: number, r: Random): number {
  if (min === max) return min;
  const roll = r.uint32() & 15;
  if (roll === 0) return min;
  if (roll === 1 && max - min <= 1000) return max;
  const cap = Math.min(max, min + (roll < 12 ? 8 : 64));
  return r.int(min, cap);
}

function generateBytes(c: BytesConstraints, r: Random): Uint8Array {
  const len = generateLength(c.minSize, c.maxSize, r);
  const out = new Uint8Array(len);
  const small = r.bool(0.3);
  for (let i = 0; i < len; i++) out[i] = small ? r.uint32() & 7 : r.uint32() & 255;
  return out;
}

export function generateChoice(type: ChoiceType, c: Constraints, r: Random): ChoiceValue {
  switch (type) {
    case "integer":
      return generateInteger(c as IntegerConstraints, r, null);
    case "boolean":
      return r.bool((c as BooleanConstraints).p);
    case "float":
      return generateFloat(c as FloatConstraints, r);
    case "string":
      return generateString(c as StringConstraints, r);
    case "bytes":
      return generateBytes(c as BytesConstraints, r);
  }
}

/** The value at index i of a finite domain (used to enumerate the rest of a small domain). */
export function valueAtIndex(type: ChoiceType, c: Constraints, i: number): ChoiceValue {
  return choiceFromIndex(type, BigInt(i), c);
}
