/**
 * `shrinkscope/json-schema`: strategies from JSON Schema (drafts 2020-12 and 07; TypeBox schemas, OpenAPI
 * components, `z.toJSONSchema()` output are JSON Schema). Its own entry point, so the engine's runtime
 * dependencies stay what they are; it has none of its own.
 */
import { InvalidArgument, Strategy } from "./schemas/engine.ts";
import { read } from "./schemas/readJsonSchema.ts";
import type { Reading } from "./schemas/readJsonSchema.ts";
import { SchemaRoot, strategyOf } from "./schemas/toStrategy.ts";
import { checkOverridesUsed, readOverrides } from "./schemas/overrides.ts";

const API = "fromJsonSchema";

/** The options of {@link fromJsonSchema}. */
export interface FromJsonSchemaOptions {
  /**
   * Strategies for places of the schema, which replace what the schema says there: by data path (`".user.email"`,
   * `".tags[]"` for every item of `tags`, `"."` for the root, `".[]"` for its items) or by JSON pointer into the schema
   * (`"#/$defs/Money"`). An override that names no place is an InvalidArgument.
   */
  overrides?: Readonly<Record<string, Strategy<unknown>>>;
}

/**
 * Values a JSON Schema accepts, each constraint drawn as a choice — bounds, sizes, patterns, formats, required and
 * optional keys (absent the simplest) — so the simplest value is the schema's minimal valid one and shrinking
 * stays valid. `T` is the value's type when you know it (TypeBox: `Static<typeof schema>`).
 * @example fromJsonSchema<{ id: number }>({ type: "object", properties: { id: { type: "integer", minimum: 1 } }, required: ["id"] })
 */
export function fromJsonSchema<T = unknown>(schema: unknown, options?: FromJsonSchemaOptions): Strategy<T> {
  const overrides = readOverrides(API, options, true);
  const reading: Reading = { root: schema, overrides, used: new Set(), reading: new Set([""]), recursive: new Map() };
  const shape = read(reading, schema, "", "");
  checkOverridesUsed(API, overrides, reading.used);
  if (shape.kind === "never") throw new InvalidArgument(`${API}: the schema admits no value: ${shape.why}`);
  return new SchemaRoot(strategyOf(shape)) as Strategy<T>;
}
