/**
 * How a fresh value is chosen for one draw when nothing is replayed: the generation distribution.
 *
 * A bug hunter wants boundaries, small values, special values and repeats far more often than a uniform
 * draw gives them, but every legal value must stay reachable — so each type mixes a few biased branches with
 * a uniform one. None of this affects shrinking, which only sees the recorded values.
 */
import type {
  ChoiceType,
  ChoiceValue,
  Constraints,
  FloatConstraints,
  IntegerConstraints,
  StringConstraints,
  BytesConstraints,
  BooleanConstraints,
} from "../choice/types.ts";
import { permitted, simplest } from "../choice/domain.ts";
import { stringFromCharCodes } from "../util/strings.ts";
import { noteString, unitsHash } from "./fingerprints.ts";
import type { Random } from "../util/random.ts";

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** 2^b − 1 for bit widths b = 0..53 (a table: `2 ** bits` with a variable exponent is a slow pow call). */
const LOW_BITS: readonly number[] = Array.from({ length: 54 }, (_, b) => 2 ** b - 1);

/**
 * Integers code breaks at when a range leaves a side open: the widths of machine integers and their neighbours
 * (2^31 − 1, 2^32, 2^53 − 1, …) and a few round numbers — what Hypothesis's constant pool holds, for
 * JavaScript's numbers. Drawn with either sign.
 */
const INTEGER_CONSTANTS: readonly number[] = [
  ...[7, 8, 15, 16, 31, 32, 53].flatMap((b) => [2 ** b - 1, 2 ** b, 2 ** b + 1]).filter(Number.isSafeInteger),
  1000,
  1e6,
  1e9,
  1e12,
  1e15,
];

/**
 * An integer: a boundary, the shrink target or a neighbour of one (2/16 — each bound 1/32, so a bug at
 * exactly the max of a range shows up within 100 draws), a small magnitude around the shrink target (bit width
 * 1..8, 6/16), any bit width (3/16), or uniform over the range (5/16; for ranges above 2^32 any bit width
 * instead). An open side's "boundary" is one of INTEGER_CONSTANTS instead. With `recent` (the integers drawn
 * earlier in this case), now and then (1/16) a value next to one of them instead: "x == y + 1" bugs need
 * near-equal pairs.
 *
 * The common paths take all their randomness from one 32-bit draw (roll, near-value roll and pick, bit
 * width, and a 13-bit value for widths up to 8 — at most 511 values, each reachable).
 */
export function generateInteger(
  c: IntegerConstraints,
  r: Random,
  recent: readonly number[] | null,
  recentCount = recent?.length ?? 0,
): number {
  const lo = c.min ?? -MAX_SAFE;
  const hi = c.max ?? MAX_SAFE;
  if (lo === hi) return lo;
  const u = r.uint32();
  if (recent !== null && ((u >>> 4) & 15) === 0 && recentCount > 0) {
    const near = recent[((u >>> 8) & 7) % recentCount] + (((u >>> 11) & 7) % 5) - 2;
    if (near >= lo && near <= hi) return near;
  }
  const roll = u & 15;
  if (roll < 2) {
    const v = boundaryInteger(c, lo, hi, u);
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

/** A bound (or an open side's constant), the shrink target, or a neighbour of one, from the draw's top bits. */
function boundaryInteger(c: IntegerConstraints, lo: number, hi: number, u: number): number {
  const t = Math.min(Math.max(c.shrinkTowards, lo), hi);
  const side = (u >>> 19) & 1;
  switch ((u >>> 16) & 7) {
    case 0:
    case 1:
      return c.min !== null ? lo : -INTEGER_CONSTANTS[(u >>> 20) % INTEGER_CONSTANTS.length];
    case 2:
    case 3:
      return c.max !== null ? hi : INTEGER_CONSTANTS[(u >>> 20) % INTEGER_CONSTANTS.length];
    case 4:
      return t;
    case 5:
      return side === 0 ? lo + 1 : hi - 1;
    case 6:
      return side === 0 ? t + 1 : t - 1;
    default:
      return (side === 0 ? 1 : -1) * INTEGER_CONSTANTS[(u >>> 20) % INTEGER_CONSTANTS.length];
  }
}

const NASTY_FLOATS = [
  0,
  -0,
  1,
  -1,
  0.5,
  -0.5,
  2,
  10,
  0.1,
  -0.1,
  1.5,
  Number.EPSILON,
  Number.MIN_VALUE,
  -Number.MIN_VALUE,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  2 ** 53,
  -(2 ** 53),
  2 ** 31,
  Infinity,
  -Infinity,
  NaN,
  1e-308,
  1 / 3,
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
    const v = base + r.int(-1000, 1000) / (r.bool(0.5) ? 1 : 8);
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

/**
 * Characters that break naive code: quotes, escapes, template syntax, white space beyond the space (trim and
 * split bugs), astral and combining characters, and characters whose case mapping changes the length ("ß"
 * upper-cases to "SS", "İ" lower-cases to two units).
 */
const NASTY_CHARS = [
  ..."\"'`$\\{}\n\r\t \0/*",
  "\u00a0",
  "\u3000",
  "\u00e9",
  "\u0301",
  "\u{1F600}",
  "\u200b",
  "\ufeff",
  "\u2028",
  "\u00df",
  "\u0130",
  "\u0149",
  "\ufb01",
  "\u0390",
].map((ch) => ch.codePointAt(0) as number);

/**
 * Whole strings that code treats specially (Hypothesis keeps such a pool too): JavaScript's special names and
 * keys, numbers in text, and text whose length or direction surprises. Used when the alphabet and sizes allow.
 */
const STRING_CONSTANTS = [
  "undefined",
  "null",
  "NaN",
  "Infinity",
  "-Infinity",
  "true",
  "false",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "0",
  "-0",
  "-1",
  "1e21",
  "0x10",
  "9".repeat(30),
  " ",
  "\r\n",
  "${x}",
  "<b>",
  "\u{1F44D}\u{1F3FB}",
  "\u{1F1FA}\u{1F1F8}",
  "e\u0301",
  "\u0627\u0644\u0643\u0644",
];

/** UTF-16 code units of the string being generated (reused: one string is built at a time). */
const UNITS: number[] = [];

/**
 * A string: now and then (1/32) one of STRING_CONSTANTS; otherwise characters one by one — mostly from the
 * first few of the alphabet in text order (intervals.ts: "0" to "~", whatever order the alphabet shrinks in),
 * sometimes from all of it or NASTY_CHARS — each repeating the previous one with
 * probability 1/16. One string in 8 is made of runs instead: each character repeats the previous with
 * probability 7/8, so a run of ten "a"s (a run-length encoder's one-digit count) is an ordinary draw.
 */
function generateString(c: StringConstraints, r: Random): string {
  const k = c.alphabet.size;
  if (k === 0) return "";
  const mode = r.uint32();
  if ((mode & 31) === 0) {
    const constant = STRING_CONSTANTS[(mode >>> 16) % STRING_CONSTANTS.length];
    if (permitted("string", constant, c)) return constant;
  }
  const runs = ((mode >>> 11) & 7) === 0;
  const len = generateLength(c.minSize, c.maxSize, r, runs);
  if (len === 0) return "";
  const simpleRange = Math.min(k, (mode >>> 10) & 1 ? 10 : 95);
  const repeat = runs ? 14 : 1;
  // Built from code units in one call (chunked for long strings): one flat string (the tree keeps it), no
  // intermediate strings.
  const units = UNITS;
  units.length = 0;
  let previous = -1;
  for (let i = 0; i < len; i++) {
    const u = r.uint32();
    let cp: number;
    if ((u & 15) < repeat && i > 0) cp = previous;
    else {
      const kind = (u >>> 4) & 15;
      if (kind === 0) {
        const ch = NASTY_CHARS[(u >>> 8) % NASTY_CHARS.length];
        cp = c.alphabet.contains(ch) ? ch : c.alphabet.atTextIndex(r.int(0, k - 1));
      } else if (kind < 10)
        cp = c.alphabet.atTextIndex(Math.floor(((u >>> 8) * simpleRange) / 16777216)); // from the draw's top 24 bits
      else cp = c.alphabet.atTextIndex(r.int(0, k - 1));
    }
    if (cp < 0x10000) units.push(cp);
    else units.push(0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff));
    previous = cp;
  }
  const s = stringFromCharCodes(units);
  noteString(s, unitsHash(units));
  // Let a long string's units go rather than keep them until the next string is generated.
  if (units.length > 4096) units.length = 0;
  return s;
}

/**
 * Sizes: short often, the minimum and maximum sometimes, anything in range possible. `long` (a string of runs)
 * takes the longer cap every time: a run worth finding needs room.
 */
function generateLength(min: number, max: number, r: Random, long: boolean): number {
  if (min === max) return min;
  const roll = r.uint32() & 15;
  if (roll === 0) return min;
  if (roll === 1 && max - min <= 1000) return max;
  const cap = Math.min(max, min + (roll < 12 && !long ? 8 : 64));
  return r.int(min, cap);
}

function generateBytes(c: BytesConstraints, r: Random): Uint8Array {
  const mode = r.uint32();
  const mask = (mode & 1023) < 307 ? 7 : 255;
  // As in strings, one byte string in 8 is made of runs: each byte repeats the previous with probability 7/8.
  const runs = ((mode >>> 10) & 7) === 0;
  const len = generateLength(c.minSize, c.maxSize, r, runs);
  const out = new Uint8Array(len);
  if (runs) {
    for (let i = 0; i < len; i++) {
      const u = r.uint32();
      out[i] = i > 0 && (u & 7) !== 0 ? out[i - 1] : (u >>> 8) & mask;
    }
  } else for (let i = 0; i < len; i++) out[i] = r.uint32() & mask;
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
