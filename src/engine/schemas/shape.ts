/**
 * A schema's shape: what a value of the schema is, in one form whatever the schema was written in (JSON Schema
 * here, zod later). Constraints stay constraints — bounds, sizes, patterns, formats, required keys — so that
 * toStrategy.ts can make each of them a choice (a bound of an integer draw, the size of a list, a regex walked
 * by st.fromRegex) instead of generating freely and filtering. Only what cannot be constructed (`not`, the
 * exclusivity of `oneOf`, a second pattern, a second format) is checked on the value drawn (`check`).
 *
 * Shapes are built once per schema, shared, and never mutated. A `$ref` is a `ref` whose target is resolved on
 * first use, so a recursive schema is a finite graph of shapes.
 */
import type { Strategy } from "./engine.ts";

export type Shape =
  | AnyShape
  | NeverShape
  | NullShape
  | BooleanShape
  | NumberShape
  | StringShape
  | ConstShape
  | ArrayShape
  | ObjectShape
  | UnionShape
  | CheckedShape
  | RefShape
  | GivenShape
  | UndefinedShape
  | DateShape
  | BigIntShape
  | SetShape
  | MapShape
  | PredicateShape;

/** Every JSON value. */
export interface AnyShape {
  readonly kind: "any";
}

/** No value (`false`, contradictory constraints): `why` says which, with the schema's pointer. */
export interface NeverShape {
  readonly kind: "never";
  readonly why: string;
}

export interface NullShape {
  readonly kind: "null";
}

export interface BooleanShape {
  readonly kind: "boolean";
}

/** A number: bounds (each inclusive or not), an integer or any finite number, multiples of each of `multipleOf`. */
export interface NumberShape {
  readonly kind: "number";
  readonly integer: boolean;
  readonly min: number | undefined;
  readonly max: number | undefined;
  readonly exclusiveMin: boolean;
  readonly exclusiveMax: boolean;
  readonly multipleOf: readonly number[];
}

/** A string: its size in code points, the patterns it holds a match of (unanchored), the formats it has. */
export interface StringShape {
  readonly kind: "string";
  readonly minLength: number;
  readonly maxLength: number | undefined;
  readonly patterns: readonly string[];
  readonly formats: readonly string[];
}

/** One of these JSON values (const, enum). */
export interface ConstShape {
  readonly kind: "const";
  readonly values: readonly unknown[];
}

/** An array: the first items by position (prefixItems), the rest by `items` (null: none allowed past the prefix). */
export interface ArrayShape {
  readonly kind: "array";
  readonly prefix: readonly Shape[];
  readonly items: Shape | null;
  readonly minItems: number;
  readonly maxItems: number | undefined;
  readonly unique: boolean;
  /** contains / minContains / maxContains: at least `min` (and at most `max`) items match `shape`. */
  readonly contains: readonly { readonly shape: Shape; readonly min: number; readonly max: number | undefined }[];
}

/** An object: named properties (required or not), properties by pattern, and what any other property may hold. */
export interface ObjectShape {
  readonly kind: "object";
  readonly properties: ReadonlyMap<string, Shape>;
  readonly required: ReadonlySet<string>;
  readonly patternProperties: readonly (readonly [string, Shape])[];
  /** Other properties' values; `never` forbids them (additionalProperties: false). */
  readonly additional: Shape;
  readonly minProperties: number;
  readonly maxProperties: number | undefined;
  /** dependentRequired: a present key → keys that must then be present too. */
  readonly dependentRequired: ReadonlyMap<string, readonly string[]>;
  /** propertyNames: the shape every key has (a string shape), or undefined. */
  readonly propertyNames: Shape | undefined;
  /** False: other keys are allowed but never drawn (a zod object strips the keys it does not name). */
  readonly drawExtra?: boolean;
}

/** Any of these (anyOf, a list of types); `exactlyOne`: exactly one of them (oneOf). */
export interface UnionShape {
  readonly kind: "union";
  readonly options: readonly Shape[];
  readonly exactlyOne: boolean;
}

/** Values of `base` that also satisfy `check` (or, with `negate`, do not): what cannot be constructed. */
export interface CheckedShape {
  readonly kind: "checked";
  readonly base: Shape;
  readonly check: Shape;
  readonly negate: boolean;
  /** Where the check comes from, for the filter's name in a health check (a JSON pointer). */
  readonly at: string;
}

/** A reference ($ref), resolved when first needed: what makes a recursive schema a finite graph. */
export interface RefShape {
  readonly kind: "ref";
  /** The reference as written (`#/$defs/Node`). */
  readonly name: string;
  readonly target: () => Shape;
}

/** A strategy the user gave for this place (`overrides`): drawn as it is, never checked. */
export interface GivenShape {
  readonly kind: "given";
  readonly strategy: Strategy<unknown>;
  readonly at: string;
}

/** JavaScript's values beyond JSON, which zod schemas describe. */
export interface UndefinedShape {
  readonly kind: "undefined";
}

/** A valid Date within bounds (inclusive). */
export interface DateShape {
  readonly kind: "date";
  readonly min: Date | undefined;
  readonly max: Date | undefined;
}

/** A bigint within bounds (inclusive), a multiple of `multipleOf`. */
export interface BigIntShape {
  readonly kind: "bigint";
  readonly min: bigint | undefined;
  readonly max: bigint | undefined;
  readonly multipleOf: bigint | undefined;
}

export interface SetShape {
  readonly kind: "set";
  readonly item: Shape;
  readonly minSize: number;
  readonly maxSize: number | undefined;
}

export interface MapShape {
  readonly kind: "map";
  readonly key: Shape;
  readonly value: Shape;
  readonly minSize: number;
  readonly maxSize: number | undefined;
}

/** Values of `base` a predicate accepts (a zod refinement, checked by the schema itself): a filter named `at`. */
export interface PredicateShape {
  readonly kind: "predicate";
  readonly base: Shape;
  readonly test: (value: unknown) => boolean;
  readonly at: string;
  /** What the check is, for the filter health check (`refine(…)`). */
  readonly what: string;
}

export const ANY: AnyShape = { kind: "any" };

export function never(why: string): NeverShape {
  return { kind: "never", why };
}
