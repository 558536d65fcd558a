/**
 * Values a schema rejects for exactly one reason (`invalid: true`), for tests of validators and API boundaries:
 * every other constraint holds, one is broken. Each way to break one is a *violation*: a strategy of the whole
 * value with that one constraint broken, and a label saying which (`.age: under its minimum 18`). The strategy is
 * a choice among the violations, the first the simplest, so shrinking goes to the first violation that still
 * fails the property and, within it, to the smallest break: one past a bound (17 under a minimum of 18, max + 1
 * over a maximum), a string one character too long, a list one item too many, one required key missing. The
 * label goes into the test case's notes, so the failure report says what the value violates.
 *
 * Where a break cannot be built directly (a pattern, a format, a multiple, an enum), it is drawn from the shape
 * without that constraint and kept when it breaks it.
 */
import type { TestCase } from "../core/testCase.ts";
import { st, Strategy } from "./engine.ts";
import type { ArrayShape, NumberShape, ObjectShape, Shape, StringShape } from "./shape.ts";
import { matches, valueShapeOf } from "./matches.ts";
import { strategyOf } from "./toStrategy.ts";

/** One way to break a shape: the whole value with one constraint broken, and what that constraint is. */
interface Violation {
  readonly label: string;
  readonly strategy: () => Strategy<unknown>;
}

/** How deep into nested shapes violations are looked for (a recursive schema's are not all enumerated). */
const MAX_DEPTH = 6;

/** The invalid values of a shape, or undefined when it has no constraint this module can break. */
export function invalidStrategy(shape: Shape): Strategy<unknown> | undefined {
  const all = violations(shape, "", 0);
  if (all.length === 0) return undefined;
  return new Violating(all);
}

class Violating extends Strategy<unknown> {
  private readonly strategies: (Strategy<unknown> | undefined)[];
  private readonly pick;
  constructor(private readonly all: readonly Violation[]) {
    super("violation");
    this.strategies = all.map(() => undefined);
    this.pick = { min: 0, max: all.length - 1, shrinkTowards: 0 };
  }
  protected doDraw(tc: TestCase): unknown {
    const i = tc.drawInteger(this.pick);
    const s = (this.strategies[i] ??= this.all[i]!.strategy());
    const v = s.draw(tc);
    tc.notes.push(`invalid: ${this.all[i]!.label}`);
    return v;
  }
}

const where = (path: string) => (path === "" ? "the value" : path);

/** A value of another type than the shape admits (the simplest break of all). */
function wrongType(shape: Shape, path: string): Violation[] {
  const candidates: unknown[] = [null, 0, "", false, [], {}];
  const other = candidates.find((c) => !matches(shape, c));
  return other === undefined
    ? []
    : [{ label: `${where(path)}: not of its type (${JSON.stringify(other)})`, strategy: () => st.just(other) }];
}

function violations(shape: Shape, path: string, depth: number): Violation[] {
  if (depth > MAX_DEPTH) return [];
  switch (shape.kind) {
    case "number":
      return [...numberViolations(shape, path), ...wrongType(shape, path)];
    case "string":
      return [...stringViolations(shape, path), ...wrongType(shape, path)];
    case "const":
      return [
        {
          label: `${where(path)}: not one of ${shape.values.map((v) => JSON.stringify(v)).join(", ")}`,
          // Scalars only: a validator's deep equality can choke on objects with keys like "toString".
          strategy: () => st.oneOf(st.text(), st.integers(), st.booleans()).filter((v) => !matches(shape, v)),
        },
      ];
    case "boolean":
    case "null":
    case "date":
    case "bigint":
    case "undefined":
    case "set":
    case "map":
      return wrongType(shape, path);
    case "array":
      return [...arrayViolations(shape, path, depth), ...wrongType(shape, path)];
    case "object":
      return [...objectViolations(shape, path, depth), ...wrongType(shape, path)];
    case "ref":
      return violations(shape.target(), path, depth + 1);
    case "predicate":
      // A zod check covers its base's constraints too, so it cannot hold for a broken base: the base's breaks.
      return violations(shape.base, path, depth);
    case "checked":
      // Broken underneath, the check beside it still holding.
      return violations(shape.base, path, depth).map((v) => ({
        label: v.label,
        strategy: () => v.strategy().filter((x) => matches(shape.check, x) !== shape.negate),
      }));
    case "union":
      return wrongType(shape, path);
    default:
      return [];
  }
}

function numberViolations(s: NumberShape, path: string): Violation[] {
  const out: Violation[] = [];
  const at = where(path);
  // Plain integers break a bound by one (17 under a minimum of 18) as often as by any other amount, one past the
  // bound the simplest; numbers with multiples, by a multiple drawn as the valid ones are (a float far past the
  // bound is a multiple in floating point that validators misjudge).
  const plainInteger = s.integer && s.multipleOf.length === 0;
  const valid = (x: number) => matches({ ...s, min: undefined, max: undefined }, x);
  // A bound at the edge of the safe integers (zod's int()) has nothing drawable past it.
  const drawable = (b: number) => !s.integer || Number.isSafeInteger(b);
  // One side's break: `past` is the first value beyond the bound (a plain integer's), `beyond` the shape that
  // holds everything past it, `within` the other bound still kept.
  const pastBound = (label: string, past: number, beyond: NumberShape, within: (x: number) => boolean): Violation => ({
    label: `${at}: ${label}`,
    strategy: () =>
      (plainInteger && Number.isSafeInteger(past)
        ? st.oneOf(
            st.just(past),
            st.integers(
              beyond.max !== undefined ? { max: past, shrinkTowards: past } : { min: past, shrinkTowards: past },
            ),
          )
        : (strategyOf(beyond) as Strategy<number>)
      ).filter((x) => valid(x) && within(x)),
  });
  if (s.min !== undefined && drawable(s.integer ? Math.ceil(s.min) - 1 : s.min)) {
    const top = s.integer ? (s.exclusiveMin ? s.min : Math.ceil(s.min) - 1) : s.exclusiveMin ? s.min : s.min - 1;
    out.push(
      pastBound(
        `${s.exclusiveMin ? "not over" : "under"} its minimum ${s.min}`,
        top,
        { ...s, min: undefined, exclusiveMin: false, max: top, exclusiveMax: false },
        (x) => s.max === undefined || x <= s.max,
      ),
    );
  }
  if (s.max !== undefined && drawable(s.integer ? Math.floor(s.max) + 1 : s.max)) {
    const bottom = s.integer ? (s.exclusiveMax ? s.max : Math.floor(s.max) + 1) : s.exclusiveMax ? s.max : s.max + 1;
    out.push(
      pastBound(
        `${s.exclusiveMax ? "not under" : "over"} its maximum ${s.max}`,
        bottom,
        { ...s, max: undefined, exclusiveMax: false, min: bottom, exclusiveMin: false },
        (x) => s.min === undefined || x >= s.min,
      ),
    );
  }
  // (A fraction is never a multiple of an integer: with one, that break is the multiple's.)
  if (s.integer && !s.multipleOf.some(Number.isInteger))
    out.push({
      label: `${at}: not an integer`,
      strategy: () =>
        strategyOf({ ...s, integer: false, multipleOf: [] }).filter(
          (x) => !Number.isInteger(x) && matches({ ...s, integer: false, multipleOf: [] }, x),
        ),
    });
  for (const m of s.multipleOf)
    out.push({
      label: `${at}: not a multiple of ${m}`,
      strategy: () =>
        strategyOf({ ...s, multipleOf: s.multipleOf.filter((x) => x !== m) }).filter((x) => !matches(s, x)),
    });
  return out;
}

function stringViolations(s: StringShape, path: string): Violation[] {
  const out: Violation[] = [];
  const at = where(path);
  if (s.minLength > 0)
    out.push({
      label: `${at}: shorter than its minimum length ${s.minLength}`,
      strategy: () =>
        strategyOf({ ...s, minLength: 0, maxLength: s.minLength - 1 }).filter((x) =>
          matches({ ...s, minLength: 0 }, x),
        ),
    });
  if (s.maxLength !== undefined)
    out.push({
      label: `${at}: longer than its maximum length ${s.maxLength}`,
      strategy: () =>
        strategyOf({ ...s, minLength: s.maxLength! + 1, maxLength: undefined }).filter((x) =>
          matches({ ...s, maxLength: undefined }, x),
        ),
    });
  s.patterns.forEach((p, i) =>
    out.push({
      label: `${at}: not matching ${p}`,
      strategy: () =>
        strategyOf({ ...s, patterns: s.patterns.filter((_, j) => j !== i) }).filter(
          (x) => !matches(s, x) && matches({ ...s, patterns: s.patterns.filter((_, j) => j !== i) }, x),
        ),
    }),
  );
  s.formats.forEach((f, i) =>
    out.push({
      label: `${at}: not a ${f}`,
      strategy: () =>
        strategyOf({ ...s, formats: s.formats.filter((_, j) => j !== i) }).filter(
          (x) => !matches(s, x) && matches({ ...s, formats: s.formats.filter((_, j) => j !== i) }, x),
        ),
    }),
  );
  return out;
}

function arrayViolations(s: ArrayShape, path: string, depth: number): Violation[] {
  const out: Violation[] = [];
  const at = where(path);
  if (s.minItems > 0)
    out.push({
      label: `${at}: one item fewer than its minimum ${s.minItems}`,
      strategy: () => strategyOf({ ...s, minItems: s.minItems - 1, maxItems: s.minItems - 1, contains: [] }),
    });
  if (s.maxItems !== undefined && (s.items !== null || s.prefix.length > s.maxItems))
    out.push({
      label: `${at}: more items than its maximum ${s.maxItems}`,
      strategy: () => strategyOf({ ...s, minItems: s.maxItems! + 1, maxItems: undefined }),
    });
  if (s.unique)
    out.push({
      label: `${at}: an item twice`,
      strategy: () =>
        strategyOf({ ...s, unique: false, minItems: Math.max(s.minItems, 2) }).filter(
          (x) => !matches(s, x) && matches({ ...s, unique: false }, x),
        ),
    });
  // One item broken (the first position's, or the items'), the others valid.
  const first = s.prefix[0] ?? s.items;
  if (first !== null && first !== undefined)
    for (const v of violations(first, `${path}[0]`, depth + 1))
      out.push({
        label: v.label,
        strategy: () =>
          st
            .tuples(
              v.strategy(),
              strategyOf({
                ...s,
                prefix: s.prefix.slice(1),
                minItems: Math.max(0, s.minItems - 1),
                maxItems: s.maxItems === undefined ? undefined : s.maxItems - 1,
                unique: false,
                contains: [],
              }),
            )
            .map(([x, rest]) => [x, ...(rest as unknown[])]),
      });
  return out;
}

function objectViolations(s: ObjectShape, path: string, depth: number): Violation[] {
  const out: Violation[] = [];
  const at = where(path);
  const valid = () => strategyOf(s) as Strategy<Record<string, unknown>>;
  for (const key of s.required)
    out.push({
      label: `${at}: the required key "${key}" missing`,
      strategy: () =>
        valid().map((o) => {
          const copy = { ...o };
          delete copy[key];
          return copy;
        }),
    });
  if (s.additional.kind === "never" && s.patternProperties.length === 0) {
    const extra = ["extra", "x", "_"].find((k) => !s.properties.has(k)) ?? "extra-key";
    out.push({
      label: `${at}: a key it does not allow ("${extra}")`,
      strategy: () => valid().map((o) => ({ ...o, [extra]: 0 })),
    });
  }
  for (const key of s.properties.keys()) {
    const inner = valueShapeOf(s, key);
    if (inner.kind === "never") continue;
    // The rest valid with the key present (what it brings along, dependentRequired, is there), then its value broken.
    const withKey = () => strategyOf({ ...s, required: new Set([...s.required, key]) });
    for (const v of violations(inner, `${path}.${key}`, depth + 1))
      out.push({
        label: v.label,
        strategy: () =>
          st.tuples(withKey(), v.strategy()).map(([o, x]) => {
            const copy: Record<string, unknown> = { ...(o as Record<string, unknown>) };
            Object.defineProperty(copy, key, { value: x, writable: true, enumerable: true, configurable: true });
            return copy;
          }),
      });
  }
  return out;
}
