/**
 * Collections with fast-check's names and defaults: arrays, unique arrays, records with some keys required,
 * dictionaries, sub-arrays, tuples, and the typed arrays — each over the st collection of the same sizes.
 */
import { InvalidArgument, st, Strategy } from "./engine.ts";
import { Arbitrary, arbitraryOf } from "./arbitrary.ts";
import { typeName, constraintsOf, lengths, SIZE_ONLY, numberOr } from "./options.ts";
import { double, float, FLOATING_KEYS } from "./numbers.ts";

/** Arrays of `arb`'s values, minLength to maxLength long. */
export function array<T>(
  arb: Strategy<T>,
  constraints?: { minLength?: number; maxLength?: number; size?: unknown; depthIdentifier?: unknown },
): Arbitrary<T[]> {
  const api = "fc.array";
  const elements = arbitraryOf<T>(api, arb, "the element arbitrary");
  const o = constraintsOf(api, constraints, ["minLength", "maxLength"], SIZE_ONLY);
  return new Arbitrary(st.lists(elements, lengths(api, o)));
}

type Comparator<T> = "SameValue" | "SameValueZero" | "IsStrictlyEqual" | ((a: T, b: T) => boolean);

/** Arrays whose elements (or their `selector` keys) are all different, by `comparator` (default SameValue). */
export function uniqueArray<T, U = T>(
  arb: Strategy<T>,
  constraints?: {
    minLength?: number;
    maxLength?: number;
    selector?: (v: T) => U;
    comparator?: Comparator<U>;
    size?: unknown;
    depthIdentifier?: unknown;
  },
): Arbitrary<T[]> {
  const api = "fc.uniqueArray";
  const elements = arbitraryOf<T>(api, arb, "the element arbitrary");
  const o = constraintsOf(api, constraints, ["minLength", "maxLength", "selector", "comparator"], SIZE_ONLY);
  const sizes = lengths(api, o);
  const selector = (o.selector ?? ((v: T) => v)) as (v: T) => U;
  if (typeof selector !== "function")
    throw new InvalidArgument(`${api}: selector must be a function, got ${typeName(selector)}`);
  const comparator = (o.comparator ?? "SameValue") as Comparator<U>;
  if (typeof comparator === "function") {
    // Any equivalence: the elements are kept unique by comparing each with the ones before it.
    const distinct = (xs: readonly T[]) =>
      xs.every((x, i) => xs.slice(0, i).every((y) => !comparator(selector(y), selector(x))));
    return new Arbitrary(st.lists(elements, sizes).filter(distinct, `${api}'s comparator`));
  }
  // Each comparison named by fast-check as a key a Set tells apart with SameValueZero.
  const key =
    comparator === "SameValue"
      ? (v: T) => sameValueKey(selector(v))
      : comparator === "SameValueZero"
        ? (v: T) => selector(v)
        : comparator === "IsStrictlyEqual"
          ? (v: T) => strictKey(selector(v))
          : undefined;
  if (key === undefined)
    throw new InvalidArgument(
      `${api}: comparator must be "SameValue", "SameValueZero", "IsStrictlyEqual" or a function, got ${typeName(comparator)}`,
    );
  return new Arbitrary(st.lists(elements, { ...sizes, uniqueBy: key }));
}

/** SameValue tells −0 from +0: the key of −0 is a value no other has. */
const MINUS_ZERO = Symbol("-0");
function sameValueKey(v: unknown): unknown {
  return Object.is(v, -0) ? MINUS_ZERO : v;
}
/** IsStrictlyEqual: NaN equals nothing, so each NaN is a key of its own. */
function strictKey(v: unknown): unknown {
  return typeof v === "number" && Number.isNaN(v) ? Symbol("NaN") : v;
}

/** A tuple of one value from each arbitrary. */
export function tuple<Ts extends unknown[]>(...arbs: { [K in keyof Ts]: Strategy<Ts[K]> }): Arbitrary<Ts> {
  const parts = (arbs as unknown[]).map((a, i) => arbitraryOf("fc.tuple", a, `argument ${i}`));
  return new Arbitrary(st.tuples(...parts) as unknown as Strategy<Ts>);
}

type RecordValue<M extends Record<string, Strategy<unknown>>> = {
  [K in keyof M]: M[K] extends Strategy<infer T> ? T : never;
};

/** An object with a value for each key of `model`; with `requiredKeys`, the other keys may be absent. */
export function record<M extends Record<string, Strategy<unknown>>>(
  model: M,
  constraints?: { requiredKeys?: readonly (keyof M)[]; noNullPrototype?: boolean },
): Arbitrary<RecordValue<M>> {
  const api = "fc.record";
  if (model === null || typeof model !== "object" || Array.isArray(model))
    throw new InvalidArgument(`${api}: the model must be an object of arbitraries, got ${typeName(model)}`);
  const o = constraintsOf(api, constraints, ["requiredKeys", "noNullPrototype"]);
  const shape: Record<string, Strategy<unknown>> = {};
  for (const k of Object.keys(model)) shape[k] = arbitraryOf(api, model[k], `the arbitrary of key "${k}"`);
  if (o.requiredKeys === undefined) return new Arbitrary(st.records(shape) as Strategy<RecordValue<M>>);
  if (!Array.isArray(o.requiredKeys))
    throw new InvalidArgument(`${api}: requiredKeys must be an array of keys, got ${typeName(o.requiredKeys)}`);
  const required: Record<string, Strategy<unknown>> = {};
  const optional: Record<string, Strategy<unknown>> = {};
  for (const k of Object.keys(shape)) (o.requiredKeys.includes(k) ? required : optional)[k] = shape[k];
  for (const k of o.requiredKeys)
    if (!(String(k) in shape))
      throw new InvalidArgument(`${api}: requiredKeys names "${String(k)}", which the model has no arbitrary for`);
  return new Arbitrary(st.records(required, { optional }) as unknown as Strategy<RecordValue<M>>);
}

/** Plain objects with keys from `keyArb` (strings) and values from `valueArb`: minKeys to maxKeys of them. */
export function dictionary<T>(
  keyArb: Strategy<string>,
  valueArb: Strategy<T>,
  constraints?: {
    minKeys?: number;
    maxKeys?: number;
    noNullPrototype?: boolean;
    size?: unknown;
    depthIdentifier?: unknown;
  },
): Arbitrary<Record<string, T>> {
  const api = "fc.dictionary";
  const o = constraintsOf(api, constraints, ["minKeys", "maxKeys", "noNullPrototype"], SIZE_ONLY);
  return new Arbitrary(
    st.dictionaries(
      arbitraryOf(api, keyArb, "the key arbitrary"),
      arbitraryOf<T>(api, valueArb, "the value arbitrary"),
      lengths(api, o, "minKeys", "maxKeys"),
    ),
  );
}

/** The longest sparse array fc.sparseArray makes when no maxLength bounds it (fast-check's "small" size). */
const SPARSE_DEFAULT_LENGTH = 10;

/**
 * Arrays with holes: a length, then up to maxNumElements of `arb`'s values at distinct indices below it (shrinking
 * toward the empty array: a shorter length, fewer elements). `noTrailingHole` ends the array at its last element.
 */
export function sparseArray<T>(
  arb: Strategy<T>,
  constraints?: {
    maxLength?: number;
    minNumElements?: number;
    maxNumElements?: number;
    noTrailingHole?: boolean;
    size?: unknown;
    depthIdentifier?: unknown;
  },
): Arbitrary<T[]> {
  const api = "fc.sparseArray";
  const elements = arbitraryOf<T>(api, arb, "the element arbitrary");
  const o = constraintsOf(
    api,
    constraints,
    ["maxLength", "minNumElements", "maxNumElements", "noTrailingHole"],
    SIZE_ONLY,
  );
  const minElements = o.minNumElements === undefined ? 0 : numberOr(api, o, "minNumElements", 0);
  const maxElements = o.maxNumElements === undefined ? undefined : numberOr(api, o, "maxNumElements", 0);
  const maxLength =
    o.maxLength === undefined ? Math.max(SPARSE_DEFAULT_LENGTH, minElements) : numberOr(api, o, "maxLength", 0);
  if (minElements > maxLength || (maxElements !== undefined && minElements > maxElements))
    throw new InvalidArgument(
      `${api}: minNumElements (${minElements}) must be at most maxLength (${maxLength}) and maxNumElements (${maxElements})`,
    );
  const noTrailingHole = o.noTrailingHole === true;
  return new Arbitrary(st.integers({ min: minElements, max: maxLength })).chain((length) =>
    st
      .lists(st.tuples(st.integers({ min: 0, max: Math.max(0, length - 1) }), elements), {
        minSize: minElements,
        maxSize: Math.min(length, maxElements ?? length),
        uniqueBy: (entry: [number, T]) => entry[0],
      })
      .map((entries) => {
        const out: T[] = [];
        out.length = noTrailingHole ? entries.reduce((m, [i]) => Math.max(m, i + 1), 0) : length;
        for (const [i, v] of entries) out[i] = v;
        return out;
      }),
  );
}

/** Some of `values`, in their order: minLength to maxLength of them (default: any number). */
export function subarray<T>(
  values: readonly T[],
  constraints?: { minLength?: number; maxLength?: number },
): Arbitrary<T[]> {
  const api = "fc.subarray";
  if (!Array.isArray(values)) throw new InvalidArgument(`${api}: expects an array, got ${typeName(values)}`);
  const o = constraintsOf(api, constraints, ["minLength", "maxLength"]);
  return new Arbitrary(st.subsequences(values, lengths(api, o)));
}

/** Some of `values`, in any order. */
export function shuffledSubarray<T>(
  values: readonly T[],
  constraints?: { minLength?: number; maxLength?: number },
): Arbitrary<T[]> {
  const api = "fc.shuffledSubarray";
  if (!Array.isArray(values)) throw new InvalidArgument(`${api}: expects an array, got ${typeName(values)}`);
  const o = constraintsOf(api, constraints, ["minLength", "maxLength"]);
  return new Arbitrary(st.subsequences(values, lengths(api, o)).flatMap((kept) => st.permutations(kept)));
}

// ------------------------------------------------------------------------------------------------ typed arrays

type IntArrayConstraints = { min?: number; max?: number; minLength?: number; maxLength?: number; size?: unknown };

/** A typed array of integers from its type's range (or min to max within it). */
function intArray<A>(api: string, lo: number, hi: number, from: (xs: number[]) => A, c: unknown): Arbitrary<A> {
  const o = constraintsOf(api, c, ["min", "max", "minLength", "maxLength"], SIZE_ONLY);
  const min = numberOr(api, o, "min", lo);
  const max = numberOr(api, o, "max", hi);
  if (min < lo || max > hi)
    throw new InvalidArgument(`${api}: min and max must be within ${lo}..${hi}, got ${min}..${max}`);
  return new Arbitrary(st.lists(st.integers({ min, max }), lengths(api, o)).map(from));
}

export const int8Array = (c?: IntArrayConstraints) =>
  intArray("fc.int8Array", -128, 127, (xs) => Int8Array.from(xs), c);
export const uint8Array = (c?: IntArrayConstraints) =>
  intArray("fc.uint8Array", 0, 255, (xs) => Uint8Array.from(xs), c);
export const uint8ClampedArray = (c?: IntArrayConstraints) =>
  intArray("fc.uint8ClampedArray", 0, 255, (xs) => Uint8ClampedArray.from(xs), c);
export const int16Array = (c?: IntArrayConstraints) =>
  intArray("fc.int16Array", -32768, 32767, (xs) => Int16Array.from(xs), c);
export const uint16Array = (c?: IntArrayConstraints) =>
  intArray("fc.uint16Array", 0, 65535, (xs) => Uint16Array.from(xs), c);
export const int32Array = (c?: IntArrayConstraints) =>
  intArray("fc.int32Array", -0x80000000, 0x7fffffff, (xs) => Int32Array.from(xs), c);
export const uint32Array = (c?: IntArrayConstraints) =>
  intArray("fc.uint32Array", 0, 0xffffffff, (xs) => Uint32Array.from(xs), c);

type BigIntArrayConstraints = { min?: bigint; max?: bigint; minLength?: number; maxLength?: number; size?: unknown };

function bigIntArray<A>(api: string, lo: bigint, hi: bigint, from: (xs: bigint[]) => A, c: unknown): Arbitrary<A> {
  const o = constraintsOf(api, c, ["min", "max", "minLength", "maxLength"], SIZE_ONLY);
  const min = (o.min ?? lo) as bigint;
  const max = (o.max ?? hi) as bigint;
  if (typeof min !== "bigint" || typeof max !== "bigint" || min < lo || max > hi)
    throw new InvalidArgument(`${api}: min and max must be bigints within ${lo}n..${hi}n`);
  return new Arbitrary(st.lists(st.bigints({ min, max }), lengths(api, o)).map(from));
}

export const bigInt64Array = (c?: BigIntArrayConstraints) =>
  bigIntArray("fc.bigInt64Array", -(2n ** 63n), 2n ** 63n - 1n, (xs) => BigInt64Array.from(xs), c);
export const bigUint64Array = (c?: BigIntArrayConstraints) =>
  bigIntArray("fc.bigUint64Array", 0n, 2n ** 64n - 1n, (xs) => BigUint64Array.from(xs), c);

type FloatArrayConstraints = { minLength?: number; maxLength?: number; size?: unknown } & Parameters<typeof double>[0];

function floatArray<A>(
  api: string,
  elements: (c: Parameters<typeof double>[0]) => Arbitrary<number>,
  from: (xs: number[]) => A,
  c: unknown,
): Arbitrary<A> {
  const { minLength, maxLength, size, ...floats } = constraintsOf(
    api,
    c,
    ["minLength", "maxLength", ...FLOATING_KEYS],
    SIZE_ONLY,
  );
  void size;
  return new Arbitrary(st.lists(elements(floats), lengths(api, { minLength, maxLength })).map(from));
}

export const float32Array = (c?: FloatArrayConstraints) =>
  floatArray("fc.float32Array", float, (xs) => Float32Array.from(xs), c);
export const float64Array = (c?: FloatArrayConstraints) =>
  floatArray("fc.float64Array", double, (xs) => Float64Array.from(xs), c);
