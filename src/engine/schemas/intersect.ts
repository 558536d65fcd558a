/**
 * The values two shapes share (allOf, and the constraints beside an anyOf, oneOf or if): merged constructively
 * where the constraints can be — the tighter bound, the larger minimum size, both patterns, the required keys of
 * both, property by property — as hypothesis-jsonschema merges, so the merged shape still draws every constraint
 * as a choice. What cannot be merged (a union's exclusivity, objects whose pattern properties interact) becomes
 * a `checked` shape: drawn from one side, checked against the other.
 */
import type { ArrayShape, NumberShape, ObjectShape, Shape, StringShape } from "./shape.ts";
import { never } from "./shape.ts";
import { matches, valueShapeOf } from "./matches.ts";

/** Refs being expanded by intersect now: a recursive schema meeting itself is checked, not expanded forever. */
const expanding = new Set<Shape>();

export function intersect(a: Shape, b: Shape, at: string): Shape {
  if (a.kind === "any" || a === b) return b;
  if (b.kind === "any") return a;
  if (a.kind === "never") return a;
  if (b.kind === "never") return b;
  if (a.kind === "given") return a;
  if (b.kind === "given") return b;
  if (a.kind === "ref" || b.kind === "ref") {
    const ref = a.kind === "ref" ? a : b;
    const other = ref === a ? b : a;
    if (expanding.has(ref)) return { kind: "checked", base: ref, check: other, negate: false, at };
    expanding.add(ref);
    try {
      return intersect(ref.kind === "ref" ? ref.target() : ref, other, at);
    } finally {
      expanding.delete(ref);
    }
  }
  if (a.kind === "union")
    return union(
      a.options.map((o) => intersect(o, b, at)),
      a.exactlyOne,
      at,
    );
  if (b.kind === "union")
    return union(
      b.options.map((o) => intersect(a, o, at)),
      b.exactlyOne,
      at,
    );
  if (a.kind === "checked") return { ...a, base: intersect(a.base, b, at) };
  if (b.kind === "checked") return { ...b, base: intersect(a, b.base, at) };
  if (a.kind === "const" || b.kind === "const") {
    const c = a.kind === "const" ? a : b;
    const other = c === a ? b : a;
    const values = (c.kind === "const" ? c.values : []).filter((v) => matches(other, v));
    return values.length > 0
      ? { kind: "const", values }
      : never(`${at}: no value of its enum or const fits the constraints beside it`);
  }
  if (a.kind !== b.kind) return never(`${at}: a ${a.kind} and a ${b.kind} at once`);
  switch (a.kind) {
    case "null":
    case "boolean":
      return a;
    case "number":
      return numbers(a, b as NumberShape, at);
    case "string":
      return strings(a, b as StringShape, at);
    case "array":
      return arrays(a, b as ArrayShape, at);
    case "object":
      return objects(a, b as ObjectShape, at);
  }
  return { kind: "checked", base: a, check: b, negate: false, at };
}

/** A union without the options that admit nothing (none left: never). */
export function union(options: readonly Shape[], exactlyOne: boolean, at: string): Shape {
  const kept = options.filter((o) => o.kind !== "never");
  if (kept.length === 0) return options.length === 1 ? options[0] : never(`${at}: none of its options admits a value`);
  if (kept.length === 1 && !exactlyOne) return kept[0];
  return { kind: "union", options: kept, exactlyOne };
}

/** The tighter of two optional maxima. */
function smallerMax(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}

function lower(a: number | undefined, ax: boolean, b: number | undefined, bx: boolean): [number | undefined, boolean] {
  if (a === undefined) return [b, bx];
  if (b === undefined || a > b) return [a, ax];
  if (b > a) return [b, bx];
  return [a, ax || bx];
}

function upper(a: number | undefined, ax: boolean, b: number | undefined, bx: boolean): [number | undefined, boolean] {
  if (a === undefined) return [b, bx];
  if (b === undefined || a < b) return [a, ax];
  if (b < a) return [b, bx];
  return [a, ax || bx];
}

export function numbers(a: NumberShape, b: NumberShape, at: string): Shape {
  const [min, exclusiveMin] = lower(a.min, a.exclusiveMin, b.min, b.exclusiveMin);
  const [max, exclusiveMax] = upper(a.max, a.exclusiveMax, b.max, b.exclusiveMax);
  return checkedNumber(
    {
      kind: "number",
      integer: a.integer || b.integer,
      min,
      max,
      exclusiveMin,
      exclusiveMax,
      multipleOf: [...a.multipleOf, ...b.multipleOf],
    },
    at,
  );
}

/** A number shape, or never when its bounds leave no room. */
export function checkedNumber(s: NumberShape, at: string): Shape {
  if (s.min !== undefined && s.max !== undefined) {
    const empty = s.min > s.max || (s.min === s.max && (s.exclusiveMin || s.exclusiveMax));
    if (empty) return never(`${at}: no number lies between its minimum ${s.min} and its maximum ${s.max}`);
    if (s.integer && Math.ceil(s.min) > Math.floor(s.max))
      return never(`${at}: no integer lies between its minimum ${s.min} and its maximum ${s.max}`);
  }
  return s;
}

function strings(a: StringShape, b: StringShape, at: string): Shape {
  const maxLength = smallerMax(a.maxLength, b.maxLength);
  const minLength = Math.max(a.minLength, b.minLength);
  if (maxLength !== undefined && minLength > maxLength)
    return never(`${at}: minLength ${minLength} is over maxLength ${maxLength}`);
  return {
    kind: "string",
    minLength,
    maxLength,
    patterns: [...new Set([...a.patterns, ...b.patterns])],
    formats: [...new Set([...a.formats, ...b.formats])],
  };
}

/** What position `i` of an array may hold (null: nothing, the array ends before it). */
function itemAt(s: ArrayShape, i: number): Shape | null {
  return i < s.prefix.length ? s.prefix[i] : s.items;
}

function arrays(a: ArrayShape, b: ArrayShape, at: string): Shape {
  let maxItems = smallerMax(a.maxItems, b.maxItems);
  const prefix: Shape[] = [];
  const n = Math.max(a.prefix.length, b.prefix.length);
  for (let i = 0; i < n; i++) {
    const x = itemAt(a, i);
    const y = itemAt(b, i);
    const both = x === null || y === null ? null : intersect(x, y, `${at}/prefixItems/${i}`);
    if (both === null || both.kind === "never") {
      maxItems = Math.min(maxItems ?? i, i);
      break;
    }
    prefix.push(both);
  }
  const items = a.items === null || b.items === null ? null : intersect(a.items, b.items, `${at}/items`);
  const minItems = Math.max(a.minItems, b.minItems);
  if (maxItems !== undefined && minItems > maxItems)
    return never(`${at}: minItems ${minItems} is over the ${maxItems} items it may hold`);
  return {
    kind: "array",
    prefix,
    items: items !== null && items.kind === "never" ? null : items,
    minItems,
    maxItems,
    unique: a.unique || b.unique,
    contains: [...a.contains, ...b.contains],
  };
}

function objects(a: ObjectShape, b: ObjectShape, at: string): Shape {
  // Pattern properties on both sides (or beside a constrained `additional`) cover keys differently: checked.
  const aPatterns = a.patternProperties.length > 0;
  const bPatterns = b.patternProperties.length > 0;
  if ((aPatterns && (bPatterns || b.additional.kind !== "any")) || (bPatterns && a.additional.kind !== "any"))
    return { kind: "checked", base: a, check: b, negate: false, at };
  const properties = new Map<string, Shape>();
  for (const key of new Set([...a.properties.keys(), ...b.properties.keys()]))
    properties.set(key, intersect(valueShapeOf(a, key), valueShapeOf(b, key), `${at}/properties/${key}`));
  const required = new Set([...a.required, ...b.required]);
  const dependentRequired = new Map(a.dependentRequired);
  for (const [k, deps] of b.dependentRequired) dependentRequired.set(k, [...(dependentRequired.get(k) ?? []), ...deps]);
  const maxProperties = smallerMax(a.maxProperties, b.maxProperties);
  const propertyNames =
    a.propertyNames === undefined
      ? b.propertyNames
      : b.propertyNames === undefined
        ? a.propertyNames
        : intersect(a.propertyNames, b.propertyNames, `${at}/propertyNames`);
  return checkedObject(
    {
      kind: "object",
      properties,
      required,
      patternProperties: [...a.patternProperties, ...b.patternProperties],
      additional: intersect(a.additional, b.additional, `${at}/additionalProperties`),
      minProperties: Math.max(a.minProperties, b.minProperties),
      maxProperties,
      dependentRequired,
      propertyNames,
      drawExtra: a.drawExtra !== false && b.drawExtra !== false,
    },
    at,
  );
}

/** An object shape, or never when a required key can hold nothing or its sizes leave no room. */
export function checkedObject(s: ObjectShape, at: string): Shape {
  for (const key of s.required) {
    const v = valueShapeOf(s, key);
    if (v.kind === "never") return never(`${at}: the required property "${key}" admits no value (${v.why})`);
  }
  if (s.maxProperties !== undefined && s.minProperties > s.maxProperties)
    return never(`${at}: minProperties ${s.minProperties} is over maxProperties ${s.maxProperties}`);
  if (s.maxProperties !== undefined && s.required.size > s.maxProperties)
    return never(`${at}: ${s.required.size} required properties are over maxProperties ${s.maxProperties}`);
  return s;
}
