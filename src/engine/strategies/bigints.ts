/**
 * st.bigints: a bigint as its distance from the simplest value (0n clamped into the range) and a side, so that
 * shortlex over the choices is the order of that distance: a smaller magnitude is always simpler, and at equal
 * magnitude the value above the target comes first, as st.integers' zigzag does.
 *
 * An integer choice holds only safe integers, so:
 * - both bounds within 2^53 − 1 of each other: one integer choice (the value itself when both bounds are safe
 *   integers, else its offset from min), whose zigzag order is already the order of the distance;
 * - otherwise the magnitude is high 32-bit limbs, big-endian, above its low 53 bits, one integer choice drawn
 *   last; then the side, one boolean, when both sides allow the magnitude. A side unbounded: each limb is
 *   preceded by a "one more?" flag as a list's elements are, so a value's size is bounded in expectation and
 *   deleting a limb is deleting its span; both bounds: the limb count comes first, and each limb (then the low
 *   bits) is held to the bound's while the earlier ones equal it, as a number is kept under a bound digit by
 *   digit, so every value in [min, max] is drawn and nothing outside.
 * Fewer limbs is a shorter sequence, and at equal length the limbs, then the low bits, compare big-endian: the
 * shortlex-least failing sequence is the least failing magnitude. The low bits come last so that deleting the
 * leading limb keeps them: a rounding bug lives in the low bits of a large value, and `BigInt(Number(x)) === x`
 * shrinks from any failure to 9007199254740993n (2^53 + 1: one limb 1 above low bits 1).
 *
 * Generation favours the widths code breaks at — ±2^31, ±2^53 and its neighbours, ±2^63, 2^63 − 1, 2^64 − 1 —
 * and the bounds given, by queueing their choices as generated ones (specials.ts): shrinking moves them freely.
 */
import type { BooleanConstraints, ChoiceValue, IntegerConstraints } from "../choice/types.ts";
import type { TestCase } from "../core/testCase.ts";
import { invalid } from "../util/errors.ts";
import { describe, Strategy } from "./strategy.ts";
import { checkOptions } from "./options.ts";
import { ConstraintsCache, queueSpecial, specialQueued } from "./specials.ts";

export interface BigintsOptions {
  /** The least value (inclusive; default unbounded). A bigint: `-5n`, `BigInt(-5)`. */
  min?: bigint;
  /** The greatest value (inclusive; default unbounded). A bigint: `5n`, `BigInt(5)`. */
  max?: bigint;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const LIMB_MAX = 2 ** 32 - 1;
/** The low bits of a magnitude, one integer choice; above them, 32-bit limbs. */
const LOW_BITS = 53n;
const LOW_MASK = (1n << LOW_BITS) - 1n;
const LOW_MAX = Number.MAX_SAFE_INTEGER;
const LOW: IntegerConstraints = { min: 0, max: LOW_MAX, shrinkTowards: 0 };
/** The first "one more limb?" flag (whether the magnitude reaches 2^53) and the later ones. */
const FIRST_LIMB: BooleanConstraints = { p: 1 / 4 };
const MORE_LIMBS: BooleanConstraints = { p: 3 / 5 };
/**
 * A limb. The leading one may be 0 too: a magnitude then has longer sequences beside its shortest one, which
 * never win (the shorter is simpler), and the shrinker can empty the leading limb while the next goes up
 * (lower with raise) and then delete it — from [1, 0] above the low bits to [2^32 − 1], which a threshold
 * property needs and no deletion alone reaches.
 */
const LIMB: IntegerConstraints = { min: 0, max: LIMB_MAX, shrinkTowards: 0 };
/** What a small case generates for a flag (see TestCase.growthLimit). */
const NO_MORE: ChoiceValue[] = [false];
/** Below the target (true) or above it; above is simpler. */
const SIDE: BooleanConstraints = { p: 1 / 2 };
const SPECIAL_P = 1 / 8;

/** The values generation favours, where they lie in the range. */
const SPECIALS: readonly bigint[] = [31n, 53n, 63n]
  .flatMap((b) => [2n ** b, -(2n ** b)])
  .concat([2n ** 53n - 1n, -(2n ** 53n - 1n), 2n ** 53n + 1n, -(2n ** 53n + 1n), 2n ** 63n - 1n, 2n ** 64n - 1n]);

/** One integer choice: the value, less `base`. */
class SmallBigints extends Strategy<bigint> {
  private readonly constraints: IntegerConstraints;
  private readonly specials: readonly ChoiceValue[][];
  constructor(
    readonly base: bigint,
    min: bigint,
    max: bigint,
    target: bigint,
    specials: readonly bigint[],
  ) {
    super(undefined);
    this.constraints = { min: Number(min - base), max: Number(max - base), shrinkTowards: Number(target - base) };
    this.specials = specials.map((x) => [Number(x - base)]);
  }
  protected doDraw(tc: TestCase): bigint {
    const special = queueSpecial(tc, SPECIAL_P, this.specials);
    if (special !== null) tc.setReplayQueue(special);
    const v = tc.drawInteger(this.constraints);
    if (special !== null) specialQueued(tc);
    return this.base + BigInt(v);
  }
}

/** The magnitude's high limbs, then its low 53 bits, then the side: for ranges wider than 2^53 − 1. */
class Bigints extends Strategy<bigint> {
  /** Both bounds given: the limb count's constraints and the largest magnitude's limbs and low bits. */
  private readonly count: IntegerConstraints | null;
  private readonly topLimbs: readonly number[];
  private readonly topLow: number;
  private readonly constraints = new ConstraintsCache();
  private readonly specials: readonly ChoiceValue[][];

  constructor(
    readonly target: bigint,
    /** The largest distance above and below the target; null: unbounded. */
    readonly above: bigint | null,
    readonly below: bigint | null,
    specials: readonly bigint[],
  ) {
    super("bigint");
    const bound = above === null || below === null ? null : above > below ? above : below;
    this.topLimbs = bound === null ? [] : limbsOf(bound >> LOW_BITS);
    this.topLow = bound === null ? 0 : Number(bound & LOW_MASK);
    this.count = bound === null ? null : { min: 0, max: this.topLimbs.length, shrinkTowards: 0 };
    this.specials = specials.map((x) => this.choicesOf(x));
  }

  /** The choices that draw x (in the range). */
  private choicesOf(x: bigint): ChoiceValue[] {
    const m = x < this.target ? this.target - x : x - this.target;
    const limbs = limbsOf(m >> LOW_BITS);
    const out: ChoiceValue[] = [];
    if (this.count === null) {
      for (const limb of limbs) out.push(true, limb);
      out.push(false);
    } else out.push(limbs.length, ...limbs);
    out.push(Number(m & LOW_MASK));
    if (this.bothSides(m)) out.push(x < this.target);
    return out;
  }

  private bothSides(m: bigint): boolean {
    return m !== 0n && (this.above === null || m <= this.above) && (this.below === null || m <= this.below);
  }

  protected doDraw(tc: TestCase): bigint {
    const special = queueSpecial(tc, SPECIAL_P, this.specials);
    if (special !== null) tc.setReplayQueue(special);
    // Which queue is ours to end: a special's, or one set below (a list repeating an element that holds this
    // bigint queues the element's choices, and ends its queue itself).
    const own = special !== null || !tc.queueing;
    let atTop = this.count !== null;
    let high = 0n;
    let limbs = 0;
    if (this.count === null) {
      for (; ; limbs++) {
        tc.startSpan("bigint limb");
        // A small case while generating (engine.ts: the first cases): no more limbs, as lists stop adding elements.
        if (own && !tc.queueing && tc.generating && tc.choiceCount >= tc.growthLimit) tc.setReplayQueue(NO_MORE);
        const more = tc.drawBoolean(limbs === 0 ? FIRST_LIMB : MORE_LIMBS);
        if (more) high = (high << 32n) | BigInt(drawLimb(tc, own, limbs, LIMB));
        tc.endSpan();
        if (!more) break;
      }
    } else {
      limbs = tc.drawInteger(this.count);
      atTop = limbs === this.topLimbs.length;
      for (let k = 0; k < limbs; k++) {
        const limb = drawLimb(tc, own, k, atTop ? this.constraints.get(0, this.topLimbs[k], 0) : LIMB);
        atTop &&= limb === this.topLimbs[k];
        high = (high << 32n) | BigInt(limb);
      }
    }
    const low =
      limbs === 0 ? tc.drawInteger(LOW) : drawLimb(tc, own, 1, atTop ? this.constraints.get(0, this.topLow, 0) : LOW);
    const m = (high << LOW_BITS) | BigInt(low);
    let below = m !== 0n && this.above !== null && m > this.above;
    if (this.bothSides(m)) below = tc.drawBoolean(SIDE);
    if (own) specialQueued(tc);
    return below ? this.target - m : this.target + m;
  }
}

/**
 * The k-th limb (or, k > 0, the low bits) of a magnitude. Below the leading limb, a fresh one is uniform: the
 * integer distribution's zeros and small values would make 2^64, 2^85 and their like common — no low bit left for
 * a rounding bug to lose, and a threshold property stuck on [1, 0, 0], whose zeros the shrinker cannot trade
 * for the leading 1. The leading limb keeps the integer distribution, which varies the magnitude's bit length.
 */
function drawLimb(tc: TestCase, own: boolean, k: number, c: IntegerConstraints): number {
  if (k === 0 || !own || tc.random === null || tc.queueing || !tc.generating) return tc.drawInteger(c);
  tc.setReplayQueue([tc.random.int(c.min as number, c.max as number)]);
  const v = tc.drawInteger(c);
  tc.setReplayQueue(null);
  return v;
}

/** m as big-endian 32-bit limbs (none for 0n). */
function limbsOf(m: bigint): number[] {
  const out: number[] = [];
  for (let v = m; v > 0n; v >>= 32n) out.push(Number(v & 0xffffffffn));
  return out.reverse();
}

function boundOf(api: string, name: string, v: unknown): bigint | undefined {
  if (v === undefined || typeof v === "bigint") return v;
  const hint =
    typeof v === "number" && Number.isSafeInteger(v)
      ? ` (write ${v}n, or BigInt(${v}))`
      : typeof v === "string"
        ? " (write BigInt(text) to parse it)"
        : "";
  invalid(api, `${name} must be a bigint, got ${describe(v)}${hint}`);
}

/**
 * Bigints in `[min, max]`, unbounded on a side given no bound (and then of bounded size on average, as lists
 * are). Shrinks toward 0n, or the bound nearest it, by magnitude: `1n` before `-1n` before `2n`.
 *
 * @example
 * // A bigint does not survive a trip through a number beyond 2^53: fails with 9007199254740993n.
 * property(st.bigints(), (x) => {
 *   assert.equal(BigInt(Number(x)), x);
 * });
 */
export function bigints(options?: BigintsOptions): Strategy<bigint> {
  const api = "st.bigints";
  const o = checkOptions(api, options, ["min", "max"]);
  const min = boundOf(api, "min", o.min);
  const max = boundOf(api, "max", o.max);
  if (min !== undefined && max !== undefined && min > max)
    invalid(api, `min (${min}n) must not be greater than max (${max}n)`);
  const target = min !== undefined && min > 0n ? min : max !== undefined && max < 0n ? max : 0n;
  const inRange = (x: bigint) => (min === undefined || x >= min) && (max === undefined || x <= max);
  const specials = [...SPECIALS, ...(min === undefined ? [] : [min]), ...(max === undefined ? [] : [max])].filter(
    (x, i, all) => inRange(x) && all.indexOf(x) === i,
  );
  if (min !== undefined && max !== undefined && max - min <= MAX_SAFE) {
    const safe = min >= -MAX_SAFE && max <= MAX_SAFE;
    return new SmallBigints(safe ? 0n : min, min, max, target, specials);
  }
  return new Bigints(
    target,
    max === undefined ? null : max - target,
    min === undefined ? null : target - min,
    specials,
  );
}
