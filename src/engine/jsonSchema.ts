/**
 * `shrinkscope/json-schema`: strategies from JSON Schema (drafts 2020-12 and 07; TypeBox schemas, OpenAPI
 * components, `z.toJSONSchema()` output are JSON Schema). Its own entry point, so the engine's runtime
 * dependencies stay what they are; it has none of its own.
 */
import { InvalidArgument, Strategy } from "./schemas/engine.ts";
import { read } from "./schemas/readJsonSchema.ts";
import type { Reading } from "./schemas/readJsonSchema.ts";
import { SchemaRoot, strategyOf } from "./schemas/toStrategy.ts";
import { checkOverridesUsed, readingErrors, readOptions } from "./schemas/overrides.ts";
import { invalidStrategy } from "./schemas/invalid.ts";

const API = "fromJsonSchema";

/** The options of {@link fromJsonSchema}. */
export interface FromJsonSchemaOptions {
  /**
   * Strategies for places of the schema, which replace what the schema says there: by data path (`".user.email"`,
   * `".tags[]"` for every item of `tags`, `"."` for the root, `".[]"` for its items) or by JSON pointer into the schema
   * (`"#/$defs/Money"`). An override that names no place is an InvalidArgument.
   */
  overrides?: Readonly<Record<string, Strategy<unknown>>>;
  /**
   * Draw values the schema rejects for exactly one reason instead — one past a bound, one character too long, one
   * required key missing, a key `additionalProperties: false` forbids, one value of the wrong type — for tests of
   * validators and API boundaries. The failure report's note says which (`invalid: .age: under its minimum 18`).
   */
  invalid?: boolean;
}

/**
 * Values a JSON Schema accepts, each constraint drawn as a choice — bounds, sizes, patterns, formats, required and
 * optional keys (absent the simplest) — so the simplest value is the schema's minimal valid one and shrinking
 * stays valid. `T` is the value's type when you know it (TypeBox: `Static<typeof schema>`).
 * @example fromJsonSchema<{ id: number }>({ type: "object", properties: { id: { type: "integer", minimum: 1 } }, required: ["id"] })
 */
export function fromJsonSchema(schema: unknown, options: FromJsonSchemaOptions & { invalid: true }): Strategy<unknown>;
export function fromJsonSchema<T = unknown>(schema: unknown, options?: FromJsonSchemaOptions): Strategy<T>;
export function fromJsonSchema<T = unknown>(schema: unknown, options?: FromJsonSchemaOptions): Strategy<T> {
  const { overrides, invalid } = readOptions(API, options, true);
  const reading: Reading = {
    root: schema,
    overrides,
    used: new Set(),
    reading: new Set([""]),
    recursive: new Map(),
    objects: new Set(),
  };
  const shape = readingErrors(API, () => read(reading, schema, "", ""));
  checkOverridesUsed(API, overrides, reading.used);
  if (shape.kind === "never") throw new InvalidArgument(`${API}: the schema admits no value: ${shape.why}`);
  if (invalid) {
    const bad = invalidStrategy(shape);
    if (bad === undefined)
      throw new InvalidArgument(`${API}: invalid: the schema has no constraint to break (it accepts every value)`);
    return new SchemaRoot(bad) as Strategy<T>;
  }
  return new SchemaRoot(strategyOf(shape)) as Strategy<T>;
}
