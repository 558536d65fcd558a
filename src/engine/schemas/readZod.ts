/**
 * A zod 4 schema read into a shape (shape.ts), from the definition every zod 4 schema carries (`schema._zod.def`):
 * no import of zod, so the bridge works with the user's copy, whichever it is. What the shape describes is the
 * schema's *input*: fromZod draws an input and parses it with the schema, so transforms, pipes, defaults and
 * catches give the schema's own output, and a value is a counterexample only once the schema accepted it.
 *
 * Checks become choices where zod's meaning is a constraint the strategies draw: number bounds (inclusive or
 * not), integers, multiples; bigint and date bounds; sizes of arrays, sets and maps; string formats with the
 * pattern zod itself checks (drawn by walking that regex). What zod decides by code — `refine`, `superRefine`,
 * string lengths (counted as the user's zod counts them), `trim` and case checks, `url` — is a predicate: the
 * schema at that place parses the value drawn there, so a rejection costs that place a retry, not the whole value.
 *
 * Each place has a path (`.user.email`, `.tags[]`) for overrides and for errors: a kind the bridge cannot
 * generate is an InvalidArgument naming it and its path.
 */
import { InvalidArgument } from "./engine.ts";
import type { Strategy } from "./engine.ts";
import type { ArrayShape, NumberShape, ObjectShape, Shape, StringShape } from "./shape.ts";
import { ANY, never } from "./shape.ts";
import { checkedNumber, intersect, union } from "./intersect.ts";
import { affixes } from "./patterns.ts";

const API = "fromZod";

/** What zod 4 puts on every schema (the part read here). */
export interface ZodLike {
  readonly _zod: { readonly def: ZodDef };
  safeParse(value: unknown): { success: boolean };
}

interface ZodDef {
  readonly type: string;
  readonly checks?: readonly ZodLike[];
  readonly [key: string]: unknown;
}

export interface ZodReading {
  readonly overrides: ReadonlyMap<string, Strategy<unknown>>;
  readonly used: Set<string>;
  /** Schemas being read now (objects and lazies), and the ref shape each became once met below itself. */
  readonly reading: Map<ZodLike, Shape | null>;
}

export function isZod(schema: unknown): schema is ZodLike {
  if (schema === null || typeof schema !== "object") return false;
  const z = (schema as { _zod?: { def?: { type?: unknown } } })._zod;
  return z !== undefined && typeof z?.def?.type === "string";
}

function fail(path: string, message: string): never {
  throw new InvalidArgument(`${API}: ${message}${path === "" ? "" : ` at ${path}`}`);
}

function child(schema: unknown, path: string): ZodLike {
  if (!isZod(schema)) fail(path, "expected a zod 4 schema here");
  return schema;
}

/** The checks' definitions of a schema (a format schema such as z.email() is itself one). */
function checksOf(def: ZodDef): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  if (typeof def.check === "string") out.push(def as Record<string, unknown>);
  for (const c of def.checks ?? []) out.push((c as ZodLike)._zod.def as Record<string, unknown>);
  return out;
}

/** Text matched literally in a `u` regex (where only syntax characters may be escaped). */
function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

/** The schema at `path` parses the value: what a predicate shape checks. */
function parses(schema: ZodLike): (v: unknown) => boolean {
  return (v) => schema.safeParse(v).success;
}

export function readZod(r: ZodReading, schema: ZodLike, path: string): Shape {
  const given = r.overrides.get(path);
  if (given !== undefined) {
    r.used.add(path);
    return { kind: "given", strategy: given, at: path };
  }
  const def = schema._zod.def;
  const where = path === "" ? "the root" : path;
  switch (def.type) {
    case "string":
      return stringOf(schema, def, path);
    case "number":
    case "int":
      return numberOf(schema, def, path);
    case "bigint":
      return bigintOf(schema, def, path);
    case "boolean":
      return { kind: "boolean" };
    case "date":
      return dateOf(def);
    case "null":
      return { kind: "null" };
    case "undefined":
    case "void":
      return { kind: "undefined" };
    case "nan":
      return { kind: "const", values: [Number.NaN] };
    case "literal":
      return { kind: "const", values: (def.values as unknown[]) ?? [] };
    case "enum":
      return { kind: "const", values: Object.values((def.entries as Record<string, unknown>) ?? {}) };
    case "any":
    case "unknown":
      return ANY;
    case "never":
      return never(`${where} is z.never()`);
    case "optional":
      // Outside an object (where an optional key is absent, see objectOf): undefined, or the inner value.
      return union([readZod(r, child(def.innerType, path), path), { kind: "undefined" }], false, where);
    case "nullable":
      return union([readZod(r, child(def.innerType, path), path), { kind: "null" }], false, where);
    case "default":
    case "prefault":
      // The input may leave it out: parse fills the default in.
      return union([readZod(r, child(def.innerType, path), path), { kind: "undefined" }], false, where);
    case "catch":
    case "readonly":
    case "nonoptional":
    case "success":
      return readZod(r, child(def.innerType, path), path);
    case "pipe":
      // The input is the pipe's input; parse runs the rest.
      return readZod(r, child(def.in, path), path);
    case "transform":
      // A bare transform accepts any input: the value it is given is drawn as any JSON value.
      return ANY;
    case "array":
      return arrayOf(r, schema, def, path);
    case "tuple":
      return tupleOf(r, def, path);
    case "object":
      return recurring(r, schema, path, () => objectOf(r, def, path));
    case "record":
      return recordOf(r, def, path);
    case "map":
      return mapOf(r, def, path);
    case "set":
      return setOf(r, def, path);
    case "union":
      return union(
        ((def.options as unknown[]) ?? []).map((o) => readZod(r, child(o, path), path)),
        false,
        where,
      );
    case "intersection":
      return intersect(readZod(r, child(def.left, path), path), readZod(r, child(def.right, path), path), where);
    case "lazy":
      return recurring(r, schema, path, () => readZod(r, child((def.getter as () => unknown)(), path), path));
    default:
      throw new InvalidArgument(
        `${API}: z.${def.type} at ${path === "" ? "the root" : path} is not supported; give a strategy for it in overrides`,
      );
  }
}

/** Wrap `shape` in the schema's own check when some of its checks are not constructed. */
function checkedBy(schema: ZodLike, shape: Shape, path: string, partial: boolean): Shape {
  if (!partial) return shape;
  const custom = checksOf(schema._zod.def).some((c) => c.check === "custom");
  return {
    kind: "predicate",
    base: shape,
    test: parses(schema),
    at: path === "" ? "the root" : path,
    what: custom ? "refine(…)" : "its checks",
  };
}

function stringOf(schema: ZodLike, def: ZodDef, path: string): Shape {
  let minLength = 0;
  let maxLength: number | undefined;
  const patterns: string[] = [];
  const formats: string[] = [];
  let formatPattern: RegExp | undefined;
  let prefix = "";
  let suffix = "";
  const includes: string[] = [];
  let partial = false;
  for (const c of checksOf(def)) {
    switch (c.check) {
      case "min_length":
        minLength = Math.max(minLength, c.minimum as number);
        partial = true; // the strategy counts code points; zod's own count decides: checked
        break;
      case "max_length":
        maxLength = Math.min(maxLength ?? Infinity, c.maximum as number);
        partial = true;
        break;
      case "length_equals":
        minLength = Math.max(minLength, c.length as number);
        maxLength = Math.min(maxLength ?? Infinity, c.length as number);
        partial = true;
        break;
      case "string_format": {
        const pattern = c.pattern;
        if (c.format === "starts_with") prefix = String(c.prefix);
        else if (c.format === "ends_with") suffix = String(c.suffix);
        else if (c.format === "includes") includes.push(String(c.includes));
        else if (c.format === "regex") {
          if (pattern instanceof RegExp) patterns.push(pattern.source);
          if (pattern instanceof RegExp && pattern.flags !== "") partial = true;
        } else if (pattern instanceof RegExp && formatPattern === undefined) formatPattern = pattern;
        else if (c.format === "url") {
          // st.urls' ASCII URLs, zod checking the rest. (Node 20's URL.canParse, which zod's url check calls, answers
          // false for some non-ASCII hosts once optimised: a value accepted when drawn could be refused later.)
          formats.push("uri");
          partial = true;
        } else if (pattern instanceof RegExp) {
          patterns.push(pattern.source);
          partial = true;
        } else
          fail(path, `the string format "${String(c.format)}" is not supported; give a strategy for it in overrides`);
        break;
      }
      default:
        // refine, superRefine, trim, toLowerCase/toUpperCase (overwrite), …: the schema decides.
        partial = true;
    }
  }
  if (maxLength !== undefined && maxLength < minLength)
    return never(`${path || "the root"}: its minimum length is over its maximum`);
  // startsWith, endsWith and includes as one pattern to draw from: the prefix, the parts, the suffix, text between.
  if (prefix !== "" || suffix !== "" || includes.length > 0)
    patterns.unshift(affixes(escapeRegExp(prefix), includes.map(escapeRegExp), escapeRegExp(suffix), "[\\s\\S]*"));
  // A format's own pattern is what the string is drawn from (zod's email, uuid, iso datetime …): first.
  const all = formatPattern !== undefined ? [formatPattern.source, ...patterns] : patterns;
  const shape: StringShape = { kind: "string", minLength, maxLength, patterns: all, formats };
  return checkedBy(schema, shape, path, partial || all.length > 1);
}

function numberOf(schema: ZodLike, def: ZodDef, path: string): Shape {
  let integer = false;
  let min: number | undefined;
  let max: number | undefined;
  let exclusiveMin = false;
  let exclusiveMax = false;
  const multipleOf: number[] = [];
  let partial = false;
  for (const c of checksOf(def)) {
    switch (c.check) {
      case "greater_than": {
        const v = c.value as number;
        if (min === undefined || v > min || (v === min && !c.inclusive)) [min, exclusiveMin] = [v, !c.inclusive];
        break;
      }
      case "less_than": {
        const v = c.value as number;
        if (max === undefined || v < max || (v === max && !c.inclusive)) [max, exclusiveMax] = [v, !c.inclusive];
        break;
      }
      case "multiple_of":
        multipleOf.push(c.value as number);
        break;
      case "number_format": {
        const f = c.format as string;
        if (f === "safeint" || f === "int32" || f === "uint32") integer = true;
        const [lo, hi] =
          f === "int32"
            ? [-(2 ** 31), 2 ** 31 - 1]
            : f === "uint32"
              ? [0, 2 ** 32 - 1]
              : f === "float32"
                ? [-3.4028234663852886e38, 3.4028234663852886e38]
                : [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
        if (f !== "float64") {
          if (min === undefined || lo > min) [min, exclusiveMin] = [lo, false];
          if (max === undefined || hi < max) [max, exclusiveMax] = [hi, false];
        }
        if (f === "float32") partial = true;
        break;
      }
      default:
        partial = true;
    }
  }
  const shape: NumberShape = { kind: "number", integer, min, max, exclusiveMin, exclusiveMax, multipleOf };
  const out = checkedNumber(shape, path || "the root");
  return out.kind === "never" ? out : checkedBy(schema, out, path, partial);
}

function bigintOf(schema: ZodLike, def: ZodDef, path: string): Shape {
  let min: bigint | undefined;
  let max: bigint | undefined;
  let multipleOf: bigint | undefined;
  let partial = false;
  for (const c of checksOf(def)) {
    if (c.check === "greater_than") {
      const v = (c.value as bigint) + (c.inclusive ? 0n : 1n);
      if (min === undefined || v > min) min = v;
    } else if (c.check === "less_than") {
      const v = (c.value as bigint) - (c.inclusive ? 0n : 1n);
      if (max === undefined || v < max) max = v;
    } else if (c.check === "multiple_of" && multipleOf === undefined) multipleOf = c.value as bigint;
    else partial = true;
  }
  if (min !== undefined && max !== undefined && min > max)
    return never(`${path || "the root"}: no bigint lies between its bounds`);
  return checkedBy(schema, { kind: "bigint", min, max, multipleOf }, path, partial || multipleOf !== undefined);
}

function dateOf(def: ZodDef): Shape {
  let min: Date | undefined;
  let max: Date | undefined;
  for (const c of checksOf(def)) {
    const v = c.value as Date;
    if (c.check === "greater_than") min = new Date(v.getTime() + (c.inclusive ? 0 : 1));
    else if (c.check === "less_than") max = new Date(v.getTime() - (c.inclusive ? 0 : 1));
  }
  return { kind: "date", min, max };
}

/** minSize, maxSize and whether some check is not one of them. */
function sizes(def: ZodDef): { min: number; max: number | undefined; partial: boolean } {
  let min = 0;
  let max: number | undefined;
  let partial = false;
  for (const c of checksOf(def)) {
    if (c.check === "min_length" || c.check === "min_size") min = Math.max(min, c.minimum as number);
    else if (c.check === "max_length" || c.check === "max_size") max = Math.min(max ?? Infinity, c.maximum as number);
    else if (c.check === "length_equals" || c.check === "size_equals") {
      min = Math.max(min, (c.length ?? c.size) as number);
      max = Math.min(max ?? Infinity, (c.length ?? c.size) as number);
    } else partial = true;
  }
  return { min, max, partial };
}

function arrayOf(r: ZodReading, schema: ZodLike, def: ZodDef, path: string): Shape {
  const { min, max, partial } = sizes(def);
  if (max !== undefined && min > max) return never(`${path || "the root"}: its minimum length is over its maximum`);
  const shape: ArrayShape = {
    kind: "array",
    prefix: [],
    items: readZod(r, child(def.element, `${path}[]`), `${path}[]`),
    minItems: min,
    maxItems: max,
    unique: false,
    contains: [],
  };
  return checkedBy(schema, shape, path, partial);
}

function tupleOf(r: ZodReading, def: ZodDef, path: string): Shape {
  const items = (def.items as unknown[]) ?? [];
  const prefix = items.map((s, i) => readZod(r, child(s, `${path}[${i}]`), `${path}[${i}]`));
  const rest =
    def.rest === undefined || def.rest === null ? null : readZod(r, child(def.rest, `${path}[]`), `${path}[]`);
  // Optional trailing elements aside, every element of the tuple is there.
  const required = items.filter((s) => (s as ZodLike)._zod.def.type !== "optional").length;
  const shape: ArrayShape = {
    kind: "array",
    prefix,
    items: rest,
    minItems: required,
    maxItems: rest === null ? prefix.length : undefined,
    unique: false,
    contains: [],
  };
  return shape;
}

function objectOf(r: ZodReading, def: ZodDef, path: string): Shape {
  const properties = new Map<string, Shape>();
  const required = new Set<string>();
  const shapeDef = (def.shape as Record<string, unknown>) ?? {};
  for (const key of Object.keys(shapeDef)) {
    const keyPath = `${path}.${key}`;
    const s = child(shapeDef[key], keyPath);
    const t = s._zod.def.type;
    // An optional key is absent at its simplest, or present with a value (undefined among them: zod keeps
    // `{ a: undefined }` apart from `{}`).
    const optional = t === "optional" || t === "default" || t === "prefault";
    if (!optional) required.add(key);
    properties.set(key, readZod(r, s, keyPath));
  }
  const catchall = def.catchall === undefined ? undefined : child(def.catchall, `${path}[]`);
  // No catchall: other keys are allowed and stripped by parse, so none is drawn; never (strict): none allowed;
  // unknown (loose): kept, so some are drawn, any JSON value under any key.
  const additional: Shape =
    catchall === undefined
      ? ANY
      : catchall._zod.def.type === "never"
        ? never(`${path || "the root"}: no other keys`)
        : readZod(r, catchall, `${path}[]`);
  const shape: ObjectShape = {
    kind: "object",
    properties,
    required,
    patternProperties: [],
    additional,
    minProperties: 0,
    maxProperties: undefined,
    dependentRequired: new Map(),
    propertyNames: undefined,
    drawExtra: catchall !== undefined,
  };
  return shape;
}

function recordOf(r: ZodReading, def: ZodDef, path: string): Shape {
  const keyType = child(def.keyType, path);
  const value = readZod(r, child(def.valueType, `${path}[]`), `${path}[]`);
  const k = keyType._zod.def;
  // A record over an enum or literals holds every one of its keys (zod 4 checks them all).
  if (k.type === "enum" || k.type === "literal") {
    const keys = (
      k.type === "enum" ? Object.values(k.entries as Record<string, unknown>) : (k.values as unknown[])
    ).map(String);
    const properties = new Map(keys.map((key) => [key, value]));
    return {
      kind: "object",
      properties,
      required: new Set(keys),
      patternProperties: [],
      additional: never(`${path || "the root"}: no other keys`),
      minProperties: 0,
      maxProperties: undefined,
      dependentRequired: new Map(),
      propertyNames: undefined,
    };
  }
  const names = readZod(r, keyType, `${path}{key}`);
  return {
    kind: "object",
    properties: new Map(),
    required: new Set(),
    patternProperties: [],
    additional: value,
    minProperties: 0,
    maxProperties: undefined,
    dependentRequired: new Map(),
    propertyNames: names.kind === "string" || names.kind === "predicate" ? names : undefined,
  };
}

function mapOf(r: ZodReading, def: ZodDef, path: string): Shape {
  const { min, max } = sizes(def);
  return {
    kind: "map",
    key: readZod(r, child(def.keyType, `${path}{key}`), `${path}{key}`),
    value: readZod(r, child(def.valueType, `${path}[]`), `${path}[]`),
    minSize: min,
    maxSize: max,
  };
}

function setOf(r: ZodReading, def: ZodDef, path: string): Shape {
  const { min, max } = sizes(def);
  return { kind: "set", item: readZod(r, child(def.valueType, `${path}[]`), `${path}[]`), minSize: min, maxSize: max };
}

/**
 * A schema that can recur (an object, z.lazy): read in place; met again below itself — `z.lazy(() => Tree)`, or an
 * object whose getter returns itself — a ref shape that reads it once, when first drawn (on the recursion budget).
 */
function recurring(r: ZodReading, schema: ZodLike, path: string, readIt: () => Shape): Shape {
  if (r.reading.has(schema)) {
    const known = r.reading.get(schema);
    if (known !== null && known !== undefined) return known;
    let resolved: Shape | undefined;
    const ref: Shape = {
      kind: "ref",
      name: path || "the root",
      target: () => {
        resolved ??= readIt();
        // z.lazy(() => itself): nothing to draw, ever.
        if (resolved === ref)
          throw new InvalidArgument(`${API}: the schema at ${path || "the root"} is a z.lazy that returns itself`);
        return resolved;
      },
    };
    r.reading.set(schema, ref);
    return ref;
  }
  r.reading.set(schema, null);
  try {
    return readIt();
  } finally {
    if (r.reading.get(schema) === null) r.reading.delete(schema);
  }
}
