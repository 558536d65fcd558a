/**
 * The domain values of fast-check — dates, identifiers, JSON, any value, functions — over the st strategies that
 * draw them valid by construction. Options fast-check has and the st strategy does not are accepted and warned
 * about once (options.ts); a date is invalid sometimes unless `noInvalidDate`, as fast-check's.
 */
import { InvalidArgument, st, Strategy } from "./engine.ts";
import { Arbitrary, arbitraryOf } from "./arbitrary.ts";
import { constraintsOf, flag, numberOr, SIZE_ONLY } from "./options.ts";

/** A Date from min to max (default: the whole range); an invalid one now and then unless `noInvalidDate`. */
export function date(constraints?: { min?: Date; max?: Date; noInvalidDate?: boolean }): Arbitrary<Date> {
  const api = "fc.date";
  const o = constraintsOf(api, constraints, ["min", "max", "noInvalidDate"]);
  return new Arbitrary(
    st.dates({
      ...(o.min !== undefined ? { min: o.min as Date } : {}),
      ...(o.max !== undefined ? { max: o.max as Date } : {}),
      allowInvalid: !flag(api, o, "noInvalidDate"),
    }),
  );
}

/** A UUID (lower case), of one `version` or of any. */
export function uuid(constraints?: { version?: number | number[] }): Arbitrary<string> {
  const api = "fc.uuid";
  const o = constraintsOf(api, constraints, ["version"]);
  const v = o.version;
  if (v === undefined) return new Arbitrary(st.uuids());
  const versions = (Array.isArray(v) ? v : [v]) as number[];
  for (const x of versions)
    if (!Number.isInteger(x) || x < 1 || x > 8)
      throw new InvalidArgument(`${api}: version must be from 1 to 8, got ${String(x)}`);
  const each = versions.map((x) => st.uuids({ version: x as 1 }));
  return new Arbitrary(each.length === 1 ? each[0] : st.oneOf(...each));
}

export function emailAddress(constraints?: { size?: unknown }): Arbitrary<string> {
  constraintsOf("fc.emailAddress", constraints, [], SIZE_ONLY);
  return new Arbitrary(st.emails());
}

export function webUrl(constraints?: {
  validSchemes?: string[];
  authoritySettings?: unknown;
  withQueryParameters?: boolean;
  withFragments?: boolean;
  size?: unknown;
}): Arbitrary<string> {
  constraintsOf(
    "fc.webUrl",
    constraints,
    [],
    ["validSchemes", "authoritySettings", "withQueryParameters", "withFragments", ...SIZE_ONLY],
  );
  return new Arbitrary(st.urls());
}

/** RFC 3986's pchar: an unreserved or sub-delimiter character, ":" or "@", or a percent-encoded byte. */
const PCHAR = "(?:[A-Za-z0-9\\-._~!$&'()*+,;=:@]|%[0-9A-F]{2})";
/** A query's or a fragment's characters: pchars, "/" and "?". */
const QUERY = `^(?:${PCHAR}|[/?])*$`;

/** A part of a URL: the strings `pattern` matches whole, as fast-check's web* arbitraries draw them. */
function webPart(api: string, pattern: string, constraints: unknown): Arbitrary<string> {
  constraintsOf(api, constraints, [], ["size"]);
  return new Arbitrary(st.fromRegex(new RegExp(pattern)));
}

/** A URL's path: segments, each after a "/" (RFC 3986's path-abempty), as fast-check's webPath. */
export function webPath(constraints?: { size?: unknown }): Arbitrary<string> {
  return webPart("fc.webPath", `^(?:/${PCHAR}*)*$`, constraints);
}

/** One path segment (no "/"). */
export function webSegment(constraints?: { size?: unknown }): Arbitrary<string> {
  return webPart("fc.webSegment", `^${PCHAR}*$`, constraints);
}

/** A URL's query, without its "?". */
export function webQueryParameters(constraints?: { size?: unknown }): Arbitrary<string> {
  return webPart("fc.webQueryParameters", QUERY, constraints);
}

/** A URL's fragment, without its "#": the same characters as a query. */
export function webFragments(constraints?: { size?: unknown }): Arbitrary<string> {
  return webPart("fc.webFragments", QUERY, constraints);
}

export function domain(constraints?: { size?: unknown }): Arbitrary<string> {
  constraintsOf("fc.domain", constraints, [], SIZE_ONLY);
  return new Arbitrary(st.domains());
}

export function ipV4(): Arbitrary<string> {
  return new Arbitrary(st.ipAddresses({ version: 4 }));
}
/** fast-check's ipV4Extended also writes octal and hexadecimal parts; here, the dotted decimal form. */
export function ipV4Extended(): Arbitrary<string> {
  return ipV4();
}
export function ipV6(): Arbitrary<string> {
  return new Arbitrary(st.ipAddresses({ version: 6 }));
}

const JSON_IGNORED = ["depthSize", "noUnicodeString", "stringUnit", ...SIZE_ONLY];

/** A JSON text: JSON.stringify of a JSON value. */
export function json(constraints?: {
  maxDepth?: number;
  depthSize?: unknown;
  noUnicodeString?: boolean;
  stringUnit?: unknown;
}): Arbitrary<string> {
  return jsonValue(constraints).map((v) => JSON.stringify(v));
}

/** A value JSON.stringify writes and JSON.parse reads back equal: null, booleans, numbers, strings, arrays, objects. */
export function jsonValue(constraints?: {
  maxDepth?: number;
  depthSize?: unknown;
  noUnicodeString?: boolean;
  stringUnit?: unknown;
}): Arbitrary<unknown> {
  const api = "fc.jsonValue";
  const o = constraintsOf(api, constraints, ["maxDepth"], JSON_IGNORED);
  return new Arbitrary(st.json(o.maxDepth !== undefined ? { maxDepth: numberOr(api, o, "maxDepth", 0) } : {}));
}

type ObjectConstraints = {
  maxDepth?: number;
  maxKeys?: number;
  key?: Strategy<string>;
  values?: Strategy<unknown>[];
  withBoxedValues?: boolean;
  withSet?: boolean;
  withMap?: boolean;
  withObjectString?: boolean;
  withNullPrototype?: boolean;
  withBigInt?: boolean;
  withDate?: boolean;
  withTypedArray?: boolean;
  withSparseArray?: boolean;
  withUnicodeString?: boolean;
  stringUnit?: unknown;
  depthSize?: unknown;
  size?: unknown;
};

const ANYTHING_KEYS = [
  "maxDepth",
  "withSet",
  "withMap",
  "withNullPrototype",
  "withBigInt",
  "withDate",
  "withTypedArray",
  "withSparseArray",
];
const ANYTHING_IGNORED = [
  "maxKeys",
  "key",
  "values",
  "withBoxedValues",
  "withObjectString",
  "withUnicodeString",
  "stringUnit",
  ...SIZE_ONLY,
];

function anythingOptions(api: string, constraints: unknown): Record<string, unknown> {
  const o = constraintsOf(api, constraints, ANYTHING_KEYS, ANYTHING_IGNORED);
  const out: Record<string, unknown> = {};
  for (const k of ANYTHING_KEYS) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

/** Any value: primitives, arrays and objects, nested; Maps, Sets, Dates, bigints and more with the `with…` flags. */
export function anything(constraints?: ObjectConstraints): Arbitrary<unknown> {
  return new Arbitrary(st.anything(anythingOptions("fc.anything", constraints)));
}

/** A plain object whose keys are strings and whose values are any values (fc.anything's). */
export function object(constraints?: ObjectConstraints): Arbitrary<Record<string, unknown>> {
  const values = st.anything(anythingOptions("fc.object", constraints));
  return new Arbitrary(st.dictionaries(st.text(), values));
}

/** A pure function: the same arguments give the same result, drawn from `arb` the first time they are asked. */
export function func<TArgs extends unknown[], TOut>(arb: Strategy<TOut>): Arbitrary<(...args: TArgs) => TOut> {
  return new Arbitrary(
    st.functions({ returns: arbitraryOf<TOut>("fc.func", arb, "the result arbitrary") }) as Strategy<
      (...args: TArgs) => TOut
    >,
  );
}

/**
 * A comparison `(a, b) => number` consistent with a total order of its own: each distinct value gets a rank, drawn
 * when the function first meets it (st.functions), and values of equal rank compare as equal.
 */
export function compareFunc<T>(): Arbitrary<(a: T, b: T) => number> {
  const rank = st.functions({ returns: st.integers() });
  return new Arbitrary(rank.map((r) => (a: T, b: T) => (r(a) as number) - (r(b) as number)));
}

/** `(a, b) => boolean`, true when `a` comes before `b` in an order of its own (as compareFunc's, strictly). */
export function compareBooleanFunc<T>(): Arbitrary<(a: T, b: T) => boolean> {
  const rank = st.functions({ returns: st.integers() });
  return new Arbitrary(rank.map((r) => (a: T, b: T) => (r(a) as number) < (r(b) as number)));
}
