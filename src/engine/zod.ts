/**
 * `shrinkscope/zod`: strategies from zod 4 schemas. Its own entry point, so the engine's runtime dependencies stay
 * what they are: it reads the definition every zod 4 schema carries and never imports zod itself, so it works with
 * the project's own copy (an optional peer dependency).
 */
import { InvalidArgument, Strategy } from "./schemas/engine.ts";
import { readZod, isZod } from "./schemas/readZod.ts";
import type { ZodReading } from "./schemas/readZod.ts";
import { SchemaRoot, strategyOf } from "./schemas/toStrategy.ts";
import { checkOverridesUsed, readingErrors, readOptions } from "./schemas/overrides.ts";
import { invalidStrategy } from "./schemas/invalid.ts";
import { Parsed } from "./schemas/parsed.ts";
import type { ParseResult } from "./schemas/parsed.ts";

const API = "fromZod";

/** The options of {@link fromZod}. */
export interface FromZodOptions {
  /**
   * Strategies for places of the schema, which replace what the schema says there (an input the schema then
   * parses): by path, `".user.email"`, `".tags[]"` for every item of `tags`, `"."` for the root. An override
   * that names no place is an InvalidArgument.
   */
  overrides?: Readonly<Record<string, Strategy<unknown>>>;
  /**
   * Draw inputs the schema rejects for exactly one reason instead — one past a bound, one character too long, one
   * required key missing, one value of the wrong type — for tests of validators and API boundaries. The failure
   * report's note says which (`invalid: .age: under its minimum 18`). Not parsed: the values are inputs.
   */
  invalid?: boolean;
}

/** The output type of a zod 4 schema (what `z.output<typeof schema>` is), read without importing zod's types. */
export type ZodOutput<S> = S extends { _zod: { output: infer O } } ? O : unknown;

/**
 * Values of a zod 4 schema: an input drawn constraint by constraint — bounds, sizes, formats by zod's own
 * patterns, optional keys absent at their simplest — then parsed by the schema, so the value is the schema's
 * output (transforms and defaults applied) and always one it accepts. Refinements are checked where they sit.
 * @example fromZod(z.object({ id: z.int().min(1), email: z.email(), note: z.string().optional() }))
 */
export function fromZod<S>(schema: S, options: FromZodOptions & { invalid: true }): Strategy<unknown>;
export function fromZod<S>(schema: S, options?: FromZodOptions): Strategy<ZodOutput<S>>;
export function fromZod<S>(schema: S, options?: FromZodOptions): Strategy<unknown> {
  if (!isZod(schema)) {
    const zod3 = schema !== null && typeof schema === "object" && "_def" in schema;
    throw new InvalidArgument(
      zod3
        ? `${API}: this is a zod 3 schema; shrinkscope/zod reads zod 4 schemas (npm install zod@4, and build the schema with its z)`
        : `${API}: expects a zod 4 schema (built with zod 4's z; zod 4 is an optional peer dependency: npm install zod@4), got ${schema === null ? "null" : typeof schema}`,
    );
  }
  const { overrides, invalid } = readOptions(API, options, false);
  const reading: ZodReading = { overrides, used: new Set(), reading: new Map() };
  const read = readingErrors(API, () => readZod(reading, schema, ""));
  // A root that is a recursion (z.lazy at the top) is resolved now: one that never bottoms out says so here.
  const shape = read.kind === "ref" ? readingErrors(API, read.target) : read;
  checkOverridesUsed(API, overrides, reading.used);
  if (shape.kind === "never") throw new InvalidArgument(`${API}: the schema admits no value: ${shape.why}`);
  const parse = (v: unknown): ParseResult<unknown> =>
    (schema as unknown as { safeParse(v: unknown): ParseResult<unknown> }).safeParse(v);
  if (invalid) {
    const bad = invalidStrategy(shape);
    if (bad === undefined) throw new InvalidArgument(`${API}: invalid: the schema has no constraint to break`);
    // What a catch, a default or a coercion would accept after all is no break.
    return new SchemaRoot(bad).filter((v) => !parse(v).success);
  }
  const input = new SchemaRoot(strategyOf(shape));
  // Parsed by the schema: its output, and only inputs it accepts (what a refinement far from where it sits rejects).
  // The report prints the input too, for a regression test that parses it again.
  return new Parsed(input, parse, `${API}: the schema's parse`);
}
