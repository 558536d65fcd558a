/**
 * A JSON Schema (drafts 2020-12 and 07, and OpenAPI's `nullable`) read into a shape (shape.ts). Each keyword is
 * read where JSON Schema applies it: a type's keywords constrain that type only, so `{ type: ["string", "null"],
 * minLength: 2 }` is a string of two or more code points, or null. `allOf` and the keywords beside an `anyOf`,
 * `oneOf` or `if` are merged (intersect.ts); `not` and `if` without a constructive form are checks.
 *
 * A `$ref` is read in place, with the data path it is reached at (so `overrides` by path reach through it),
 * unless the reference is already being read above: then the schema is recursive there, and the place becomes a
 * `ref` shape that reads its target once, when first drawn. References are JSON pointers into the document:
 * `#`, `#/$defs/Node`, `#/definitions/Node`, `#/components/schemas/User`.
 *
 * A keyword this reader does not know is an InvalidArgument naming it and its pointer — an ignored constraint
 * would let the property test values the schema rejects, or miss ones it accepts — save annotations (title,
 * description, default, examples, …) and `x-` extensions, which constrain nothing.
 */
import { InvalidArgument } from "./engine.ts";
import type { Strategy } from "./engine.ts";
import type { ArrayShape, NumberShape, ObjectShape, Shape, StringShape } from "./shape.ts";
import { ANY, never } from "./shape.ts";
import { checkedNumber, checkedObject, intersect, union } from "./intersect.ts";
import { isKnownFormat, KNOWN_FORMATS } from "./formats.ts";
import { matches } from "./matches.ts";
import { patternRegExp } from "./patterns.ts";

const API = "fromJsonSchema";

/** Keywords that constrain nothing: read past. */
const ANNOTATIONS = new Set([
  "$schema",
  "$id",
  "$comment",
  "$anchor",
  "$vocabulary",
  "title",
  "description",
  "default",
  "examples",
  "example",
  "deprecated",
  "readOnly",
  "writeOnly",
  "contentEncoding",
  "contentMediaType",
  "contentSchema",
  "discriminator",
  "xml",
  "externalDocs",
  "$defs",
  "definitions",
]);

const TYPES = ["null", "boolean", "integer", "number", "string", "array", "object"] as const;
type TypeName = (typeof TYPES)[number];

/** Keywords read by each type, and those read for every type. */
const BY_TYPE: Record<string, TypeName> = {
  minimum: "number",
  maximum: "number",
  exclusiveMinimum: "number",
  exclusiveMaximum: "number",
  multipleOf: "number",
  minLength: "string",
  maxLength: "string",
  pattern: "string",
  format: "string",
  prefixItems: "array",
  items: "array",
  additionalItems: "array",
  minItems: "array",
  maxItems: "array",
  uniqueItems: "array",
  contains: "array",
  minContains: "array",
  maxContains: "array",
  properties: "object",
  required: "object",
  additionalProperties: "object",
  patternProperties: "object",
  propertyNames: "object",
  minProperties: "object",
  maxProperties: "object",
  dependentRequired: "object",
  dependentSchemas: "object",
  dependencies: "object",
};
const GENERAL = new Set([
  "type",
  "const",
  "enum",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "$ref",
  "nullable",
]);

/** What reading a document needs: the document, the overrides not yet used, the references being read. */
export interface Reading {
  readonly root: unknown;
  /** Overrides by data path (`.user.email`, `.tags[]`) and by pointer (`#/$defs/Money`). */
  readonly overrides: ReadonlyMap<string, Strategy<unknown>>;
  readonly used: Set<string>;
  /** Pointers of references being read now (one met again below itself is a recursion). */
  readonly reading: Set<string>;
  /** Recursive references by pointer, each read once. */
  readonly recursive: Map<string, Shape>;
  /** The document's schemas by `$id` (idsOf), once a `$ref` names one. */
  ids?: Map<string, { schema: unknown; pointer: string }>;
  /**
   * Schema objects being read now, since the last $ref: one met again inside itself is a JavaScript cycle. (A
   * $ref's target is read with a fresh set: a recursion through $ref is the schema's own, and allowed.)
   */
  objects: Set<object>;
}

function fail(pointer: string, message: string): never {
  throw new InvalidArgument(`${API}: ${message} at ${pointer === "" ? "#" : `#${pointer}`}`);
}

function escapeToken(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** The schema a JSON pointer names in the document. */
function resolvePointer(r: Reading, ref: string, from: string): { schema: unknown; pointer: string } {
  if (!ref.startsWith("#")) {
    // The $id of a schema in this document (TypeBox's Type.Recursive and Type.Ref name schemas so).
    const byId = idsOf(r).get(ref);
    if (byId !== undefined) return byId;
    fail(from, `$ref "${ref}" is neither a pointer into this document ("#/$defs/Name") nor the $id of a schema in it`);
  }
  const pointer = decodeURIComponent(ref.slice(1));
  if (pointer !== "" && !pointer.startsWith("/"))
    fail(from, `$ref "${ref}" names an anchor; only JSON pointers ("#/$defs/Name") are supported`);
  let node: unknown = r.root;
  for (const raw of pointer === "" ? [] : pointer.slice(1).split("/")) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object" || !Object.prototype.hasOwnProperty.call(node, token))
      fail(from, `$ref "${ref}" names nothing in the schema`);
    node = (node as Record<string, unknown>)[token];
  }
  return { schema: node, pointer };
}

/** The schemas of the document that carry an `$id`, by it, each with its pointer (found once per reading). */
function idsOf(r: Reading): Map<string, { schema: unknown; pointer: string }> {
  if (r.ids !== undefined) return r.ids;
  const ids = new Map<string, { schema: unknown; pointer: string }>();
  const seen = new Set<object>();
  const walk = (node: unknown, pointer: string) => {
    if (node === null || typeof node !== "object" || seen.has(node)) return;
    seen.add(node);
    if (!Array.isArray(node) && typeof (node as { $id?: unknown }).$id === "string")
      ids.set((node as { $id: string }).$id, { schema: node, pointer });
    for (const [k, v] of Object.entries(node)) walk(v, `${pointer}/${escapeToken(k)}`);
  };
  walk(r.root, "");
  r.ids = ids;
  return ids;
}

function nonNegative(pointer: string, key: string, v: unknown): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0)
    fail(`${pointer}/${key}`, `${key} must be a non-negative integer, got ${JSON.stringify(v)}`);
  return v;
}

function finite(pointer: string, key: string, v: unknown): number {
  if (typeof v !== "number" || !Number.isFinite(v))
    fail(`${pointer}/${key}`, `${key} must be a number, got ${JSON.stringify(v)}`);
  return v;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** Read the schema at `pointer`, reached at data path `path`. */
export function read(r: Reading, schema: unknown, pointer: string, path: string): Shape {
  const byPointer = r.overrides.get(`#${pointer}`);
  if (byPointer !== undefined) {
    r.used.add(`#${pointer}`);
    return { kind: "given", strategy: byPointer, at: `#${pointer}` };
  }
  const byPath = r.overrides.get(path);
  if (byPath !== undefined) {
    r.used.add(path);
    return { kind: "given", strategy: byPath, at: path };
  }
  if (schema === true) return ANY;
  if (schema === false) return never(`#${pointer} is false`);
  if (!isObject(schema)) fail(pointer, `a schema must be an object or a boolean, got ${JSON.stringify(schema)}`);
  if (r.objects.has(schema))
    fail(pointer, "the schema object contains itself (a JavaScript cycle); write the recursion with $ref");
  r.objects.add(schema);
  try {
    return readObject(r, schema, pointer, path);
  } finally {
    r.objects.delete(schema);
  }
}

function readObject(r: Reading, schema: Record<string, unknown>, pointer: string, path: string): Shape {
  for (const key of Object.keys(schema)) {
    if (ANNOTATIONS.has(key) || key.startsWith("x-") || GENERAL.has(key) || key in BY_TYPE) continue;
    const hint =
      key === "unevaluatedProperties" || key === "unevaluatedItems"
        ? " (it depends on what the other keywords evaluated; write additionalProperties or items instead)"
        : key === "$dynamicRef" || key === "$recursiveRef"
          ? " (use $ref)"
          : "";
    fail(`${pointer}/${escapeToken(key)}`, `the keyword "${key}" is not supported${hint}`);
  }
  let shape = typed(r, schema, pointer, path);
  if (schema.$ref !== undefined) shape = intersect(reference(r, schema.$ref, pointer, path), shape, `#${pointer}`);
  if (schema.allOf !== undefined)
    for (const [i, s] of list(schema.allOf, pointer, "allOf").entries())
      shape = intersect(shape, read(r, s, `${pointer}/allOf/${i}`, path), `#${pointer}/allOf/${i}`);
  for (const key of ["anyOf", "oneOf"] as const) {
    if (schema[key] === undefined) continue;
    const options = list(schema[key], pointer, key).map((s, i) => read(r, s, `${pointer}/${key}/${i}`, path));
    shape = union(
      options.map((o) => intersect(shape, o, `#${pointer}/${key}`)),
      key === "oneOf",
      `#${pointer}/${key}`,
    );
  }
  if (schema.not !== undefined)
    shape = {
      kind: "checked",
      base: shape,
      check: read(r, schema.not, `${pointer}/not`, path),
      negate: true,
      at: `#${pointer}/not`,
    };
  if (schema.if !== undefined && (schema.then !== undefined || schema.else !== undefined)) {
    const cond = read(r, schema.if, `${pointer}/if`, path);
    const then = schema.then === undefined ? ANY : read(r, schema.then, `${pointer}/then`, path);
    const otherwise = schema.else === undefined ? ANY : read(r, schema.else, `${pointer}/else`, path);
    shape = union(
      [
        intersect(shape, intersect(cond, then, `#${pointer}/then`), `#${pointer}/if`),
        {
          kind: "checked",
          base: intersect(shape, otherwise, `#${pointer}/else`),
          check: cond,
          negate: true,
          at: `#${pointer}/if`,
        },
      ],
      false,
      `#${pointer}/if`,
    );
  }
  return shape;
}

function list(v: unknown, pointer: string, key: string): unknown[] {
  if (!Array.isArray(v) || v.length === 0) fail(`${pointer}/${key}`, `${key} must be a non-empty array of schemas`);
  return v;
}

/** A `$ref`: read in place, or, met again below itself, a ref shape read once (the recursion). */
function reference(r: Reading, ref: unknown, pointer: string, path: string): Shape {
  if (typeof ref !== "string") fail(`${pointer}/$ref`, `$ref must be a string, got ${JSON.stringify(ref)}`);
  const target = resolvePointer(r, ref, pointer);
  const known = r.recursive.get(target.pointer);
  if (known !== undefined) return known;
  if (r.reading.has(target.pointer)) {
    if (onlyReferences(r, target.schema, new Set([target.pointer])))
      fail(`${pointer}/$ref`, `$ref "${ref}" comes back to itself through $refs alone, with no schema in between`);
    let resolved: Shape | undefined;
    const shape: Shape = {
      kind: "ref",
      name: ref,
      target: () => {
        if (resolved === undefined) {
          // Read once, from its own place: data paths below a recursion are not the user's paths.
          resolved = ANY;
          resolved = viaRef(r, () => read(r, target.schema, target.pointer, `#${target.pointer}`));
        }
        return resolved;
      },
    };
    r.recursive.set(target.pointer, shape);
    return shape;
  }
  r.reading.add(target.pointer);
  try {
    return viaRef(r, () => read(r, target.schema, target.pointer, path));
  } finally {
    r.reading.delete(target.pointer);
  }
}

/** Read through a $ref: with a fresh set of the objects being read (see Reading.objects). */
function viaRef(r: Reading, readIt: () => Shape): Shape {
  const outer = r.objects;
  r.objects = new Set();
  try {
    return readIt();
  } finally {
    r.objects = outer;
  }
}

/** Whether `schema` is a $ref and nothing else, through a chain that returns to one of `seen`. */
function onlyReferences(r: Reading, schema: unknown, seen: Set<string>): boolean {
  for (let s = schema; isObject(s) && typeof s.$ref === "string";) {
    if (Object.keys(s).some((k) => k !== "$ref" && !ANNOTATIONS.has(k) && !k.startsWith("x-"))) return false;
    const next = resolvePointer(r, s.$ref, "");
    if (seen.has(next.pointer)) return true;
    seen.add(next.pointer);
    s = next.schema;
  }
  return false;
}

/** The types a schema admits: its `type` (with `nullable`), else every type. */
function typesOf(schema: Record<string, unknown>, pointer: string): TypeName[] {
  const t = schema.type;
  let types: TypeName[];
  if (t === undefined) types = [...TYPES];
  else {
    const names = Array.isArray(t) ? t : [t];
    for (const n of names)
      if (!TYPES.includes(n as TypeName))
        fail(`${pointer}/type`, `unknown type ${JSON.stringify(n)} (known: ${TYPES.join(", ")})`);
    types = names as TypeName[];
  }
  if (schema.nullable === true && !types.includes("null")) types = [...types, "null"];
  // "number" covers "integer".
  if (types.includes("number")) types = types.filter((x) => x !== "integer");
  return types;
}

/** The schema's own type keywords and const/enum, without its applicators. */
function typed(r: Reading, schema: Record<string, unknown>, pointer: string, path: string): Shape {
  const options = typesOf(schema, pointer).map((t) => ofType(r, t, schema, pointer, path));
  let shape = union(options, false, `#${pointer}`);
  const values =
    schema.const !== undefined || Object.prototype.hasOwnProperty.call(schema, "const")
      ? [schema.const]
      : schema.enum !== undefined
        ? Array.isArray(schema.enum)
          ? schema.enum
          : fail(`${pointer}/enum`, "enum must be an array")
        : undefined;
  if (values !== undefined) {
    const kept = values.filter((v) => matches(shape, v));
    shape =
      kept.length > 0
        ? { kind: "const", values: kept }
        : never(`#${pointer}: no value of its enum or const fits its type and constraints`);
  }
  return shape;
}

function ofType(r: Reading, t: TypeName, s: Record<string, unknown>, pointer: string, path: string): Shape {
  switch (t) {
    case "null":
      return { kind: "null" };
    case "boolean":
      return { kind: "boolean" };
    case "integer":
    case "number":
      return numberOf(t === "integer", s, pointer);
    case "string":
      return stringOf(s, pointer);
    case "array":
      return arrayOf(r, s, pointer, path);
    case "object":
      return objectOf(r, s, pointer, path);
  }
}

function numberOf(integer: boolean, s: Record<string, unknown>, pointer: string): Shape {
  let min = s.minimum === undefined ? undefined : finite(pointer, "minimum", s.minimum);
  let max = s.maximum === undefined ? undefined : finite(pointer, "maximum", s.maximum);
  let exclusiveMin = false;
  let exclusiveMax = false;
  // Draft 4's boolean form, and the numeric form of draft 6 on.
  if (typeof s.exclusiveMinimum === "boolean") exclusiveMin = s.exclusiveMinimum && min !== undefined;
  else if (s.exclusiveMinimum !== undefined) {
    const x = finite(pointer, "exclusiveMinimum", s.exclusiveMinimum);
    if (min === undefined || x >= min) [min, exclusiveMin] = [x, true];
  }
  if (typeof s.exclusiveMaximum === "boolean") exclusiveMax = s.exclusiveMaximum && max !== undefined;
  else if (s.exclusiveMaximum !== undefined) {
    const x = finite(pointer, "exclusiveMaximum", s.exclusiveMaximum);
    if (max === undefined || x <= max) [max, exclusiveMax] = [x, true];
  }
  const multipleOf: number[] = [];
  if (s.multipleOf !== undefined) {
    const m = finite(pointer, "multipleOf", s.multipleOf);
    if (m <= 0) fail(`${pointer}/multipleOf`, `multipleOf must be greater than 0, got ${m}`);
    multipleOf.push(m);
  }
  const shape: NumberShape = { kind: "number", integer, min, max, exclusiveMin, exclusiveMax, multipleOf };
  return checkedNumber(shape, `#${pointer}`);
}

function stringOf(s: Record<string, unknown>, pointer: string): Shape {
  const minLength = s.minLength === undefined ? 0 : nonNegative(pointer, "minLength", s.minLength);
  const maxLength = s.maxLength === undefined ? undefined : nonNegative(pointer, "maxLength", s.maxLength);
  if (maxLength !== undefined && minLength > maxLength)
    return never(`#${pointer}: minLength ${minLength} is over maxLength ${maxLength}`);
  const patterns: string[] = [];
  if (s.pattern !== undefined) {
    if (typeof s.pattern !== "string") fail(`${pointer}/pattern`, "pattern must be a string");
    try {
      patternRegExp(s.pattern);
    } catch (e) {
      fail(
        `${pointer}/pattern`,
        `pattern ${JSON.stringify(s.pattern)} is not a regular expression (${(e as Error).message})`,
      );
    }
    patterns.push(s.pattern);
  }
  const formats: string[] = [];
  if (s.format !== undefined) {
    if (typeof s.format === "string" && isKnownFormat(s.format)) formats.push(s.format);
    // A format this bridge does not know is an annotation where a pattern says what the string is (zod's
    // toJSONSchema writes both: `format: "cuid"` beside the cuid pattern); alone, drawing any string would
    // silently ignore what the schema means.
    else if (typeof s.format !== "string" || !hasPattern(s))
      fail(
        `${pointer}/format`,
        `the format ${JSON.stringify(s.format)} is not supported (supported: ${KNOWN_FORMATS.join(", ")}; give a strategy for it in overrides)`,
      );
  }
  const shape: StringShape = { kind: "string", minLength, maxLength, patterns, formats };
  return shape;
}

/** Whether a pattern constrains the string: beside the format, or in one of the schema's `allOf`. */
function hasPattern(s: Record<string, unknown>): boolean {
  const patterned = (x: unknown): boolean =>
    x !== null && typeof x === "object" && typeof (x as { pattern?: unknown }).pattern === "string";
  return patterned(s) || (Array.isArray(s.allOf) && s.allOf.some(patterned));
}

function arrayOf(r: Reading, s: Record<string, unknown>, pointer: string, path: string): Shape {
  let prefix: Shape[] = [];
  let items: Shape | null = ANY;
  const itemPath = `${path}[]`;
  if (Array.isArray(s.items)) {
    // Draft 07: items as a list is the prefix, additionalItems the rest.
    prefix = s.items.map((x, i) => read(r, x, `${pointer}/items/${i}`, itemPath));
    if (s.additionalItems !== undefined) items = read(r, s.additionalItems, `${pointer}/additionalItems`, itemPath);
  } else {
    if (s.prefixItems !== undefined) {
      if (!Array.isArray(s.prefixItems)) fail(`${pointer}/prefixItems`, "prefixItems must be an array of schemas");
      prefix = s.prefixItems.map((x, i) => read(r, x, `${pointer}/prefixItems/${i}`, itemPath));
    }
    if (s.items !== undefined) items = read(r, s.items, `${pointer}/items`, itemPath);
  }
  if (items !== null && items.kind === "never") items = null;
  const minItems = s.minItems === undefined ? 0 : nonNegative(pointer, "minItems", s.minItems);
  let maxItems = s.maxItems === undefined ? undefined : nonNegative(pointer, "maxItems", s.maxItems);
  const neverAt = prefix.findIndex((p) => p.kind === "never");
  if (neverAt >= 0) {
    prefix = prefix.slice(0, neverAt);
    maxItems = Math.min(maxItems ?? neverAt, neverAt);
  }
  if (items === null) maxItems = Math.min(maxItems ?? prefix.length, prefix.length);
  if (maxItems !== undefined && minItems > maxItems)
    return never(`#${pointer}: minItems ${minItems} is over the ${maxItems} items it may hold`);
  const contains: ArrayShape["contains"][number][] = [];
  if (s.contains !== undefined) {
    const min = s.minContains === undefined ? 1 : nonNegative(pointer, "minContains", s.minContains);
    const max = s.maxContains === undefined ? undefined : nonNegative(pointer, "maxContains", s.maxContains);
    contains.push({ shape: read(r, s.contains, `${pointer}/contains`, itemPath), min, max });
  }
  const shape: ArrayShape = {
    kind: "array",
    prefix,
    items,
    minItems,
    maxItems,
    unique: s.uniqueItems === true,
    contains,
  };
  return shape;
}

function objectOf(r: Reading, s: Record<string, unknown>, pointer: string, path: string): Shape {
  const properties = new Map<string, Shape>();
  if (s.properties !== undefined) {
    if (!isObject(s.properties)) fail(`${pointer}/properties`, "properties must be an object of schemas");
    for (const [key, sub] of Object.entries(s.properties))
      properties.set(key, read(r, sub, `${pointer}/properties/${escapeToken(key)}`, `${path}.${key}`));
  }
  const required = new Set<string>();
  if (s.required !== undefined) {
    if (!Array.isArray(s.required) || s.required.some((k) => typeof k !== "string"))
      fail(`${pointer}/required`, "required must be an array of strings");
    for (const k of s.required as string[]) required.add(k);
  }
  const patternProperties: [string, Shape][] = [];
  if (s.patternProperties !== undefined) {
    if (!isObject(s.patternProperties))
      fail(`${pointer}/patternProperties`, "patternProperties must be an object of schemas");
    for (const [p, sub] of Object.entries(s.patternProperties)) {
      try {
        patternRegExp(p);
      } catch (e) {
        fail(
          `${pointer}/patternProperties`,
          `${JSON.stringify(p)} is not a regular expression (${(e as Error).message})`,
        );
      }
      patternProperties.push([p, read(r, sub, `${pointer}/patternProperties/${escapeToken(p)}`, `${path}[]`)]);
    }
  }
  const additional =
    s.additionalProperties === undefined
      ? ANY
      : read(r, s.additionalProperties, `${pointer}/additionalProperties`, `${path}[]`);
  const dependentRequired = new Map<string, string[]>();
  const dependentSchemas: [string, unknown, string][] = [];
  for (const key of ["dependentRequired", "dependencies", "dependentSchemas"] as const) {
    const d = s[key];
    if (d === undefined) continue;
    if (!isObject(d)) fail(`${pointer}/${key}`, `${key} must be an object`);
    for (const [k, v] of Object.entries(d)) {
      if (Array.isArray(v) && key !== "dependentSchemas") dependentRequired.set(k, v.map(String));
      else if (key !== "dependentRequired") dependentSchemas.push([k, v, `${pointer}/${key}/${escapeToken(k)}`]);
      else fail(`${pointer}/${key}/${escapeToken(k)}`, "dependentRequired must map keys to arrays of keys");
    }
  }
  const propertyNames =
    s.propertyNames === undefined ? undefined : read(r, s.propertyNames, `${pointer}/propertyNames`, `${path}[]`);
  const shape: ObjectShape = {
    kind: "object",
    properties,
    required,
    patternProperties,
    additional,
    minProperties: s.minProperties === undefined ? 0 : nonNegative(pointer, "minProperties", s.minProperties),
    maxProperties: s.maxProperties === undefined ? undefined : nonNegative(pointer, "maxProperties", s.maxProperties),
    dependentRequired,
    propertyNames,
  };
  let out = checkedObject(shape, `#${pointer}`);
  // dependentSchemas: when the key is present, the schema applies too (a present key is a required one).
  for (const [k, sub, at] of dependentSchemas) {
    const withKey: Shape = { ...(out as ObjectShape), required: new Set([...(out as ObjectShape).required, k]) };
    const without: Shape = {
      ...(out as ObjectShape),
      properties: new Map([...(out as ObjectShape).properties, [k, never(`#${at}: absent`)]]),
    };
    if (out.kind !== "object") break;
    out = union([intersect(withKey, read(r, sub, at, path), `#${at}`), without], false, `#${at}`);
  }
  return out;
}
