/**
 * Whether a JSON value has a shape: the check behind what cannot be constructed (`not`, `oneOf`'s "exactly one",
 * a second pattern or format), and behind merging an enum with the constraints beside it. JSON semantics: an
 * integer is a number with no fraction (1.0 is one), objects are plain objects, equality is by structure.
 */
import type { ArrayShape, NumberShape, ObjectShape, Shape, StringShape } from "./shape.ts";
import { formatCheck } from "./formats.ts";
import { patternTest } from "./patterns.ts";

export function matches(shape: Shape, value: unknown): boolean {
  switch (shape.kind) {
    case "any":
      return true;
    case "never":
      return false;
    case "null":
      return value === null;
    case "boolean":
      return typeof value === "boolean";
    case "number":
      return numberMatches(shape, value);
    case "string":
      return stringMatches(shape, value);
    case "const":
      return shape.values.some((v) => jsonEqual(v, value));
    case "array":
      return arrayMatches(shape, value);
    case "object":
      return objectMatches(shape, value);
    case "union": {
      let n = 0;
      for (const o of shape.options) if (matches(o, value) && (++n > 1 || !shape.exactlyOne)) break;
      return shape.exactlyOne ? n === 1 : n > 0;
    }
    case "checked":
      return matches(shape.base, value) && matches(shape.check, value) !== shape.negate;
    case "ref":
      return matches(shape.target(), value);
    case "given":
      return true;
    case "undefined":
      return value === undefined;
    case "date":
      return (
        value instanceof Date &&
        !Number.isNaN(value.getTime()) &&
        (shape.min === undefined || value >= shape.min) &&
        (shape.max === undefined || value <= shape.max)
      );
    case "bigint":
      return (
        typeof value === "bigint" &&
        (shape.min === undefined || value >= shape.min) &&
        (shape.max === undefined || value <= shape.max) &&
        (shape.multipleOf === undefined || value % shape.multipleOf === 0n)
      );
    case "set":
      return (
        value instanceof Set &&
        value.size >= shape.minSize &&
        (shape.maxSize === undefined || value.size <= shape.maxSize) &&
        [...value].every((v) => matches(shape.item, v))
      );
    case "map":
      return (
        value instanceof Map &&
        value.size >= shape.minSize &&
        (shape.maxSize === undefined || value.size <= shape.maxSize) &&
        [...value].every(([k, v]) => matches(shape.key, k) && matches(shape.value, v))
      );
    case "predicate":
      return matches(shape.base, value) && shape.test(value);
  }
}

function numberMatches(s: NumberShape, v: unknown): boolean {
  if (typeof v !== "number" || !Number.isFinite(v)) return false;
  if (s.integer && !Number.isInteger(v)) return false;
  if (s.min !== undefined && (s.exclusiveMin ? v <= s.min : v < s.min)) return false;
  if (s.max !== undefined && (s.exclusiveMax ? v >= s.max : v > s.max)) return false;
  return s.multipleOf.every((m) => isMultiple(v, m));
}

/**
 * `v` is a multiple of `m` as validators compute it: `v / m` an integer in floating point. So 0.3 is not a
 * multiple of 0.1 (0.3 / 0.1 is 2.9999999999999996): a value drawn must pass the validators people use.
 */
export function isMultiple(v: number, m: number): boolean {
  return Number.isInteger(v / m);
}

/** Code points, as JSON Schema counts a string's length. */
export function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

function stringMatches(s: StringShape, v: unknown): boolean {
  if (typeof v !== "string") return false;
  const n = codePoints(v);
  if (n < s.minLength || (s.maxLength !== undefined && n > s.maxLength)) return false;
  return s.patterns.every((p) => patternTest(p, v)) && s.formats.every((f) => formatCheck(f)(v));
}

function arrayMatches(s: ArrayShape, v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  if (v.length < s.minItems || (s.maxItems !== undefined && v.length > s.maxItems)) return false;
  for (let i = 0; i < v.length; i++) {
    const item = i < s.prefix.length ? s.prefix[i] : s.items;
    if (item === null || !matches(item, v[i])) return false;
  }
  if (s.unique) {
    for (let i = 0; i < v.length; i++) for (let j = i + 1; j < v.length; j++) if (jsonEqual(v[i], v[j])) return false;
  }
  for (const c of s.contains) {
    const n = v.filter((x) => matches(c.shape, x)).length;
    if (n < c.min || (c.max !== undefined && n > c.max)) return false;
  }
  return true;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function objectMatches(s: ObjectShape, v: unknown): boolean {
  if (!isPlainObject(v)) return false;
  const keys = Object.keys(v);
  if (keys.length < s.minProperties || (s.maxProperties !== undefined && keys.length > s.maxProperties)) return false;
  for (const r of s.required) if (!Object.prototype.hasOwnProperty.call(v, r)) return false;
  for (const [key, deps] of s.dependentRequired)
    if (Object.prototype.hasOwnProperty.call(v, key) && deps.some((d) => !Object.prototype.hasOwnProperty.call(v, d)))
      return false;
  for (const key of keys) {
    if (s.propertyNames !== undefined && !matches(s.propertyNames, key)) return false;
    if (!matches(valueShapeOf(s, key), v[key])) return false;
  }
  return true;
}

/**
 * What a key's value must be: its property's shape, and every matching pattern's; a key that neither names nor
 * patterns cover takes `additional`.
 */
export function valueShapeOf(s: ObjectShape, key: string): Shape {
  const named = s.properties.get(key);
  const byPattern = s.patternProperties.filter(([p]) => patternTest(p, key)).map(([, shape]) => shape);
  if (named === undefined && byPattern.length === 0) return s.additional;
  const all = named === undefined ? byPattern : [named, ...byPattern];
  if (all.length === 1) return all[0];
  return all
    .slice(1)
    .reduce<Shape>((base, check) => ({ kind: "checked", base, check, negate: false, at: key }), all[0]);
}

/** Equality of JSON values by structure (object keys in any order); 1 and 1.0 are the same number. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bs = b as unknown[];
    return a.length === bs.length && a.every((x, i) => jsonEqual(x, bs[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao);
  if (ak.length !== Object.keys(bo).length) return false;
  return ak.every((k) => Object.prototype.hasOwnProperty.call(bo, k) && jsonEqual(ao[k], bo[k]));
}
