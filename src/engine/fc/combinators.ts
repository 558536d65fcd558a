/**
 * Choosing among values and arbitraries, fast-check's way: fc.constant, fc.constantFrom, fc.boolean, fc.oneof (with
 * weights), fc.option, and fc.clone. Each shrinks toward its first alternative, as fast-check's do.
 */
import type { IntegerConstraints } from "../choice/types.ts";
import type { TestCase } from "../core/testCase.ts";
import type { Random } from "../util/random.ts";
import { InvalidArgument, st, Strategy } from "./engine.ts";
import { Arbitrary, arbitraryOf } from "./arbitrary.ts";
import { typeName, constraintsOf, numberOr, SIZE_ONLY } from "./options.ts";

export function boolean(): Arbitrary<boolean> {
  return new Arbitrary(st.booleans());
}

/** Always `value` (the same reference each time, as fast-check's). */
export function constant<const T>(value: T): Arbitrary<T> {
  return new Arbitrary(st.just(value));
}

/** One of `values`; shrinks toward the first. */
export function constantFrom<const T>(...values: T[]): Arbitrary<T> {
  if (values.length === 0) throw new InvalidArgument("fc.constantFrom: give at least one value");
  return new Arbitrary(st.sampledFrom(values));
}

type Weighted<T> = { arbitrary: Strategy<T>; weight: number };
type OneOfValue<Ts extends unknown[]> = {
  [K in keyof Ts]: Ts[K] extends Strategy<infer U> ? U : Ts[K] extends Weighted<infer U> ? U : never;
}[number];

/**
 * A value of one of the arbitraries, each given as it is or as `{ arbitrary, weight }`; a first argument that is
 * neither is fast-check's constraints object. Drawn inside itself (a recursive structure: fc.letrec, fc.memo), it
 * picks the first arbitrary more often the deeper it is, as fast-check's does (its `depthSize`, default "small"), and
 * always from `maxDepth` on: recursive values stay the size they were under fast-check.
 */
export function oneof<Ts extends (Strategy<unknown> | Weighted<unknown>)[]>(...args: Ts): Arbitrary<OneOfValue<Ts>>;
export function oneof<Ts extends (Strategy<unknown> | Weighted<unknown>)[]>(
  constraints: OneOfConstraints,
  ...args: Ts
): Arbitrary<OneOfValue<Ts>>;
export function oneof(...args: unknown[]): Arbitrary<unknown> {
  const api = "fc.oneof";
  const first = args[0];
  let o: Record<string, unknown> = {};
  if (first !== null && typeof first === "object" && !(first instanceof Strategy) && !("arbitrary" in first)) {
    o = constraintsOf(api, first, ["maxDepth", "depthSize", "withCrossShrink", "depthIdentifier"]);
    args = args.slice(1);
  }
  if (args.length === 0) throw new InvalidArgument(`${api}: give at least one arbitrary`);
  const weighted = args.map((a, i): readonly [number, Strategy<unknown>] => {
    if (a !== null && typeof a === "object" && !(a instanceof Strategy) && "arbitrary" in a) {
      const { arbitrary, weight } = a as Weighted<unknown>;
      if (typeof weight !== "number" || !Number.isInteger(weight) || weight < 0)
        throw new InvalidArgument(
          `${api}: argument ${i}'s weight must be a non-negative integer, got ${typeName(weight)}`,
        );
      return [weight, arbitraryOf(api, arbitrary, `argument ${i}'s arbitrary`)];
    }
    return [1, arbitraryOf(api, a, `argument ${i}`)];
  });
  // A weight of 0 is never drawn: left out.
  const drawn = weighted.filter(([w]) => w > 0);
  if (drawn.length === 0) throw new InvalidArgument(`${api}: every weight is 0, so no arbitrary is ever drawn`);
  return new Arbitrary(
    new DepthOneOf(
      drawn.map(([, s]) => s),
      drawn.map(([w]) => w),
      depthBias(api, o.depthSize),
      numberOr(api, o, "maxDepth", Infinity),
    ),
  );
}

type OneOfConstraints = {
  maxDepth?: number;
  depthSize?: number | string;
  withCrossShrink?: boolean;
  depthIdentifier?: unknown;
};

/** fast-check's depth sizes, as the bias each adds per level (a number n is 1/n). */
const DEPTH_BIAS: Record<string, number> = {
  xsmall: 1,
  small: 0.5,
  medium: 0.25,
  large: 0.125,
  xlarge: 0.0625,
  max: 0,
};

function depthBias(api: string, size: unknown): number {
  if (size === undefined) return DEPTH_BIAS.small;
  if (typeof size === "number" && size > 0) return 1 / size;
  if (typeof size === "string" && size in DEPTH_BIAS) return DEPTH_BIAS[size];
  throw new InvalidArgument(
    `${api}: depthSize must be a positive number or one of ${Object.keys(DEPTH_BIAS).join(", ")}, got ${typeName(size)}`,
  );
}

/**
 * fc.oneof's strategy: one integer choice picks the arbitrary, shrinking toward the first. While generating, the
 * index is picked by the weights — at depth d (how many draws of this oneof are open around this one) the first
 * gets an extra (floor((1 + bias)^d) − 1) × the total weight, and from maxDepth on it is the only pick — and queued
 * as the choice's value: the choice stays the same one, and a replay or a shrink reads it as it is.
 */
class DepthOneOf<T> extends Strategy<T> {
  private readonly constraints: IntegerConstraints;
  private readonly total: number;
  /** Draws of this oneof open right now (drawing is synchronous, so this is the depth of the one starting). */
  private depth = 0;
  constructor(
    readonly options: readonly Strategy<T>[],
    readonly weights: readonly number[],
    readonly bias: number,
    readonly maxDepth: number,
  ) {
    super(undefined);
    this.constraints = { min: 0, max: options.length - 1, shrinkTowards: 0 };
    this.total = weights.reduce((a, b) => a + b, 0);
  }
  protected doDraw(tc: TestCase): T {
    const random = tc.random;
    let index: number;
    if (random === null || !tc.generating || tc.queueing) index = tc.drawInteger(this.constraints);
    else {
      tc.setReplayQueue([this.pick(random)]);
      index = tc.drawInteger(this.constraints);
      tc.setReplayQueue(null);
    }
    this.depth++;
    try {
      return this.options[index].draw(tc);
    } finally {
      this.depth--;
    }
  }
  override distinctValues(): number {
    return this.options.reduce((n, s) => n + s.distinctValues(), 0);
  }
  private pick(random: Random): number {
    if (this.depth >= this.maxDepth) return 0;
    const benefit =
      this.bias <= 0
        ? 0
        : Math.min(this.total * (Math.floor((1 + this.bias) ** this.depth) - 1), Number.MAX_SAFE_INTEGER);
    let x = random.int(0, this.total + benefit - 1) - benefit;
    if (x < 0) return 0;
    let i = 0;
    while (x >= this.weights[i]) x -= this.weights[i++];
    return i;
  }
}

/** `nil` (default null) one time in `freq` (default 6), else a value of `arb`; shrinks toward `nil`. */
export function option<T, TNil = null>(
  arb: Strategy<T>,
  constraints?: { freq?: number; nil?: TNil; depthSize?: unknown; maxDepth?: unknown; depthIdentifier?: unknown },
): Arbitrary<T | TNil> {
  const api = "fc.option";
  const value = arbitraryOf<T>(api, arb, "the arbitrary");
  const o = constraintsOf(api, constraints, ["freq", "nil"], ["maxDepth", ...SIZE_ONLY]);
  const freq = numberOr(api, o, "freq", 6);
  if (!Number.isInteger(freq) || freq < 1)
    throw new InvalidArgument(`${api}: freq must be a positive integer, got ${freq}`);
  const nil = ("nil" in o ? o.nil : null) as TNil;
  if (freq === 1) return new Arbitrary(st.just(nil));
  return new Arbitrary(st.oneOf([1, st.just(nil)], [freq - 1, value]) as Strategy<T | TNil>);
}

/**
 * `n` equal values of `arb`, each its own copy: one value is drawn, and the others are copies of it (arrays, plain
 * objects, Maps, Sets, Dates and typed arrays at any depth; anything else is shared as it is).
 */
export function clone<T>(arb: Strategy<T>, n: number): Arbitrary<T[]> {
  const api = "fc.clone";
  const value = arbitraryOf<T>(api, arb, "the arbitrary");
  if (!Number.isInteger(n) || n < 0)
    throw new InvalidArgument(`${api}: the number of clones must be a non-negative integer, got ${typeName(n)}`);
  return new Arbitrary(value.map((v) => Array.from({ length: n }, (_, i) => (i === 0 ? v : copyOf(v, new Map())))));
}

function copyOf<T>(v: T, seen: Map<object, unknown>): T {
  if (v === null || typeof v !== "object") return v;
  const known = seen.get(v);
  if (known !== undefined) return known as T;
  const proto = Object.getPrototypeOf(v);
  let out: unknown;
  if (Array.isArray(v)) {
    const a: unknown[] = [];
    seen.set(v, a);
    for (let i = 0; i < v.length; i++) if (i in v) a[i] = copyOf(v[i], seen);
    a.length = v.length;
    out = a;
  } else if (v instanceof Map) {
    const m = new Map();
    seen.set(v, m);
    for (const [k, x] of v) m.set(copyOf(k, seen), copyOf(x, seen));
    out = m;
  } else if (v instanceof Set) {
    const s = new Set();
    seen.set(v, s);
    for (const x of v) s.add(copyOf(x, seen));
    out = s;
  } else if (v instanceof Date) out = new Date(v.getTime());
  else if (ArrayBuffer.isView(v) && !(v instanceof DataView)) out = (v as unknown as { slice(): unknown }).slice();
  else if (proto === Object.prototype || proto === null) {
    const o: Record<string | symbol, unknown> = Object.create(proto);
    seen.set(v, o);
    // (defined, not assigned: an own "__proto__" key stays a key)
    for (const k of Reflect.ownKeys(v))
      Object.defineProperty(o, k, {
        value: copyOf((v as Record<string | symbol, unknown>)[k], seen),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    out = o;
  } else return v;
  if (!seen.has(v)) seen.set(v, out);
  return out as T;
}

/** `arb` itself: fast-check's way to keep a value from shrinking; shrinking works on the choices here. */
export function noShrink<T>(arb: Strategy<T>): Arbitrary<T> {
  return arbitraryOf("fc.noShrink", arb, "the arbitrary");
}

/** `arb` itself: generation's bias toward small and special values is part of every draw here. */
export function noBias<T>(arb: Strategy<T>): Arbitrary<T> {
  return arbitraryOf("fc.noBias", arb, "the arbitrary");
}
