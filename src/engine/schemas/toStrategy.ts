/**
 * A shape (shape.ts) made a strategy: every constraint a choice where it can be. Bounds become the bounds of an
 * integer or float draw, multiples an integer draw times the multiple, sizes the sizes of a list, patterns a walk
 * of the regex (st.fromRegex), formats their own strategies, enums a choice among the values, optional keys a
 * present/absent choice with absent the simplest. So the simplest value of a schema is its minimal valid value,
 * and shrinking stays inside the schema. What cannot be constructed is checked on the value drawn.
 *
 * Recursion has a budget, not a fixed depth: each value counts the recursive references it expands, and past
 * BUDGET the containers close — no optional item, no optional key, a union's first option that needs no further
 * recursion — so a tree schema gives trees of every shape up to that size and never runs away.
 */
import type { BooleanConstraints, IntegerConstraints } from "../choice/types.ts";
import type { TestCase } from "../core/testCase.ts";
import { InvalidArgument, st, Strategy } from "./engine.ts";
import type { ArrayShape, NumberShape, ObjectShape, Shape, StringShape } from "./shape.ts";
import { formatCheck, formatStrategy } from "./formats.ts";
import { intersect } from "./intersect.ts";
import { codePoints, jsonEqual, matches, valueShapeOf } from "./matches.ts";
import { affixPattern, patternRegExp, patternTest } from "./patterns.ts";

/** Recursive references one value may expand before its containers close. */
const BUDGET = 25;
const MORE_ITEMS: BooleanConstraints = { p: 4 / 5 };
const PRESENT: BooleanConstraints = { p: 0.5 };
const MORE_KEYS: BooleanConstraints = { p: 0.15 };
const UNIQUE_ATTEMPTS = 10;
const SAFE = Number.MAX_SAFE_INTEGER;

/** Per test case: the recursive references its value has expanded, and how deep it is in them now. */
const expansions = new WeakMap<TestCase, { count: number; depth: number }>();

function closing(tc: TestCase): boolean {
  const e = expansions.get(tc);
  return e !== undefined && e.count >= BUDGET;
}

/**
 * A schema's value as a whole: the recursion budget counts from its start (one value of a recursive schema
 * inside a list is one value, each of its own budget).
 */
export class SchemaRoot extends Strategy<unknown> {
  constructor(private readonly inner: Strategy<unknown>) {
    super(undefined);
  }
  protected doDraw(tc: TestCase): unknown {
    const outer = expansions.get(tc);
    expansions.set(tc, { count: 0, depth: 0 });
    try {
      return this.inner.draw(tc);
    } finally {
      if (outer === undefined) expansions.delete(tc);
      else expansions.set(tc, outer);
    }
  }
}

const built = new WeakMap<Shape, Strategy<unknown>>();

/** The strategy of a shape (one per shape: a recursive schema's references meet the same strategy). */
export function strategyOf(shape: Shape): Strategy<unknown> {
  let s = built.get(shape);
  if (s === undefined) {
    s = build(shape);
    built.set(shape, s);
  }
  return s;
}

function build(shape: Shape): Strategy<unknown> {
  switch (shape.kind) {
    case "any":
      return st.json();
    case "never":
      throw new InvalidArgument(`the schema admits no value: ${shape.why}`);
    case "null":
      return st.just(null);
    case "boolean":
      return st.booleans();
    case "number":
      return numberStrategy(shape);
    case "string":
      return stringStrategy(shape);
    case "const":
      return st.sampledFrom(shape.values).map((v) => (v !== null && typeof v === "object" ? structuredClone(v) : v));
    case "array":
      return new SchemaArray(shape);
    case "object":
      return new SchemaObject(shape);
    case "union": {
      const u = new SchemaUnion(shape.options);
      return shape.exactlyOne ? u.filter((v) => matches(shape, v)) : u;
    }
    case "checked":
      return strategyOf(shape.base).filter((v) => matches(shape.check, v) !== shape.negate, shape.at);
    case "ref":
      return new SchemaRef(shape);
    case "given":
      return shape.strategy;
    case "undefined":
      return st.just(undefined);
    case "date":
      return st.dates({
        ...(shape.min !== undefined ? { min: shape.min } : {}),
        ...(shape.max !== undefined ? { max: shape.max } : {}),
      });
    case "bigint": {
      const m = shape.multipleOf;
      if (m === undefined || m === 1n)
        return st.bigints({
          ...(shape.min !== undefined ? { min: shape.min } : {}),
          ...(shape.max !== undefined ? { max: shape.max } : {}),
        });
      const abs = m < 0n ? -m : m;
      const lo = shape.min === undefined ? undefined : shape.min >= 0n ? (shape.min + abs - 1n) / abs : shape.min / abs;
      const hi = shape.max === undefined ? undefined : shape.max >= 0n ? shape.max / abs : (shape.max - abs + 1n) / abs;
      return st
        .bigints({ ...(lo !== undefined ? { min: lo } : {}), ...(hi !== undefined ? { max: hi } : {}) })
        .map((k) => k * abs);
    }
    case "set":
      return st.sets(strategyOf(shape.item), {
        minSize: shape.minSize,
        ...(shape.maxSize !== undefined ? { maxSize: shape.maxSize } : {}),
      });
    case "map":
      return st.maps(strategyOf(shape.key), strategyOf(shape.value), {
        minSize: shape.minSize,
        ...(shape.maxSize !== undefined ? { maxSize: shape.maxSize } : {}),
      });
    case "predicate":
      return strategyOf(shape.base).filter(shape.test, `${shape.at}: ${shape.what}`);
  }
}

// ------------------------------------------------------------------------------------------------ numbers

/** The number of decimals a finite number is written with. */
function decimals(x: number): number {
  const s = String(x);
  const e = s.indexOf("e-");
  if (e >= 0) return Number(s.slice(e + 2)) + (s.indexOf(".") >= 0 ? e - s.indexOf(".") - 1 : 0);
  const dot = s.indexOf(".");
  return dot < 0 ? 0 : s.length - dot - 1;
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a < 0n ? -a : a;
}

/** The least common multiple of decimal numbers (0.5 and 0.2 → 1), or undefined when it is not representable. */
function lcm(xs: readonly number[]): number | undefined {
  const d = Math.max(...xs.map(decimals));
  if (d > 15) return undefined;
  const scale = 10n ** BigInt(d);
  let m = 1n;
  for (const x of xs) {
    const n = BigInt(Math.round(x * Number(scale)));
    m = (m / gcd(m, n)) * n;
  }
  const out = Number(m) / Number(scale);
  return Number.isFinite(out) && out > 0 ? out : undefined;
}

function nextUp(x: number): number {
  if (Number.isNaN(x) || x === Infinity) return x;
  if (x === 0) return Number.MIN_VALUE;
  const f = new Float64Array([x]);
  const b = new BigInt64Array(f.buffer);
  b[0] += x > 0 ? 1n : -1n;
  return f[0];
}

function nextDown(x: number): number {
  return -nextUp(-x);
}

function numberStrategy(s: NumberShape): Strategy<number> {
  const multiples = s.integer ? [1, ...s.multipleOf] : s.multipleOf;
  if (multiples.length > 0) {
    const m = lcm(multiples) ?? multiples[multiples.length - 1];
    const lo = s.min === undefined ? -SAFE : s.exclusiveMin ? Math.floor(s.min / m) + 1 : Math.ceil(s.min / m);
    const hi = s.max === undefined ? SAFE : s.exclusiveMax ? Math.ceil(s.max / m) - 1 : Math.floor(s.max / m);
    const kMin = Math.max(lo, Math.ceil(-SAFE / m));
    const kMax = Math.min(hi, Math.floor(SAFE / m));
    if (kMin > kMax)
      throw new InvalidArgument(`fromJsonSchema: no multiple of ${m} lies within the bounds ${s.min} and ${s.max}`);
    const d = decimals(m);
    const scaled = st.integers({ min: kMin, max: kMax }).map((k) => (d === 0 ? k * m : Number((k * m).toFixed(d))));
    // A decimal multiple is exact in binary floating point only for some k (0.1 × 3 is not 0.3 × 1): keep those.
    return d === 0 && s.multipleOf.length <= 1 ? scaled : scaled.filter((v) => matches(s, v));
  }
  const min = s.min === undefined ? undefined : s.exclusiveMin ? nextUp(s.min) : s.min;
  const max = s.max === undefined ? undefined : s.exclusiveMax ? nextDown(s.max) : s.max;
  return st.floats({
    ...(min !== undefined ? { min } : {}),
    ...(max !== undefined ? { max } : {}),
    allowNaN: false,
    allowInfinity: false,
  });
}

// ------------------------------------------------------------------------------------------------ strings

function stringStrategy(s: StringShape): Strategy<string> {
  const [first, ...otherFormats] = s.formats;
  let base: Strategy<string>;
  let patterns = s.patterns;
  const affixes = affixPattern(s.patterns);
  if (first !== undefined) base = formatStrategy(first);
  else if (affixes !== undefined) base = st.fromRegex(patternRegExp(affixes));
  else if (s.patterns.length > 0) {
    base = st.fromRegex(patternRegExp(s.patterns[0]));
    patterns = s.patterns.slice(1);
  } else return st.text({ minSize: s.minLength, ...(s.maxLength !== undefined ? { maxSize: s.maxLength } : {}) });
  const sized = s.minLength > 0 || s.maxLength !== undefined;
  if (!sized && patterns.length === 0 && otherFormats.length === 0 && first === undefined) return base;
  return base.filter((v) => {
    if (sized) {
      const n = codePoints(v);
      if (n < s.minLength || (s.maxLength !== undefined && n > s.maxLength)) return false;
    }
    return patterns.every((p) => patternTest(p, v)) && otherFormats.every((f) => formatCheck(f)(v));
  });
}

// ------------------------------------------------------------------------------------------------ recursion

/** Whether a shape's simplest value expands no recursive reference (what a closing container may choose). */
function closes(shape: Shape, seen: Set<Shape> = new Set()): boolean {
  switch (shape.kind) {
    case "never":
      return false;
    case "ref":
      if (seen.has(shape)) return false;
      seen.add(shape);
      return closes(shape.target(), seen);
    case "checked":
    case "predicate":
      return closes(shape.base, seen);
    case "set":
      return shape.minSize === 0 || closes(shape.item, seen);
    case "map":
      return shape.minSize === 0 || (closes(shape.key, seen) && closes(shape.value, seen));
    case "union":
      return shape.options.some((o) => closes(o, seen));
    case "array":
      for (let i = 0; i < shape.minItems; i++) {
        const item = i < shape.prefix.length ? shape.prefix[i] : shape.items;
        if (item === null || !closes(item, seen)) return false;
      }
      return true;
    case "object":
      return [...shape.required].every((k) => closes(valueShapeOf(shape, k), seen));
    default:
      return true;
  }
}

class SchemaRef extends Strategy<unknown> {
  private target: Strategy<unknown> | undefined;
  constructor(private readonly shape: Extract<Shape, { kind: "ref" }>) {
    super(undefined);
  }
  protected doDraw(tc: TestCase): unknown {
    this.target ??= strategyOf(this.shape.target());
    let e = expansions.get(tc);
    if (e === undefined) expansions.set(tc, (e = { count: 0, depth: 0 }));
    e.count++;
    e.depth++;
    try {
      return this.target.draw(tc);
    } finally {
      e.depth--;
    }
  }
}

class SchemaUnion extends Strategy<unknown> {
  private readonly choice: IntegerConstraints;
  private strategies: Strategy<unknown>[] | undefined;
  private closer: number | undefined;
  constructor(private readonly options: readonly Shape[]) {
    super("union");
    this.choice = { min: 0, max: options.length - 1, shrinkTowards: 0 };
  }
  protected doDraw(tc: TestCase): unknown {
    this.strategies ??= this.options.map(strategyOf);
    let i: number;
    if (closing(tc)) {
      this.closer ??= Math.max(
        0,
        this.options.findIndex((o) => closes(o)),
      );
      i = tc.draw("integer", this.choice, this.closer);
    } else i = tc.drawInteger(this.choice);
    return this.strategies[i].draw(tc);
  }
}

// ------------------------------------------------------------------------------------------------ arrays

class SchemaArray extends Strategy<unknown[]> {
  private prefix: Strategy<unknown>[] | undefined;
  private items: Strategy<unknown> | null | undefined;
  constructor(private readonly shape: ArrayShape) {
    super("list");
  }
  private strategies(): void {
    const s = this.shape;
    this.prefix = s.prefix.map(strategyOf);
    if (s.items === null) this.items = null;
    else if (s.contains.length === 0) this.items = strategyOf(s.items);
    else {
      // Items that also satisfy `contains`, as often as plain ones: the contains check rarely rejects.
      const hits = s.contains.map((c) => intersect(s.items!, c.shape, "contains")).filter((h) => h.kind !== "never");
      this.items = new SchemaUnion([s.items, ...hits]);
    }
  }
  protected doDraw(tc: TestCase): unknown[] {
    if (this.prefix === undefined) this.strategies();
    const s = this.shape;
    const out: unknown[] = [];
    const max = s.maxItems ?? Infinity;
    let duplicates = 0;
    // As st.lists draws: each element in its own span after a "one more?" flag (forced where the sizes say),
    // so shrinking deletes an element by deleting its span.
    for (;;) {
      const i = out.length;
      const slot = i < this.prefix!.length ? this.prefix![i] : this.items!;
      const mustStop = i >= max || slot === null;
      const mustGo = i < s.minItems;
      tc.startSpan("list element");
      const go = mustStop
        ? tc.draw("boolean", MORE_ITEMS, false)
        : mustGo
          ? tc.draw("boolean", MORE_ITEMS, true)
          : closing(tc)
            ? tc.draw("boolean", MORE_ITEMS, false)
            : tc.drawBoolean(MORE_ITEMS);
      if (!go) {
        tc.endSpan();
        break;
      }
      const v = slot!.draw(tc);
      if (s.unique && out.some((x) => jsonEqual(x, v))) {
        tc.endSpan(true);
        if (++duplicates >= UNIQUE_ATTEMPTS) {
          if (out.length < s.minItems) tc.reject();
          tc.startSpan("list element");
          tc.draw("boolean", MORE_ITEMS, false);
          tc.endSpan();
          break;
        }
        continue;
      }
      duplicates = 0;
      out.push(v);
      tc.endSpan();
    }
    for (const c of s.contains) {
      const n = out.filter((x) => matches(c.shape, x)).length;
      if (n < c.min || (c.max !== undefined && n > c.max)) tc.reject();
    }
    return out;
  }
}

// ------------------------------------------------------------------------------------------------ objects

function defineKey(out: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
}

class SchemaObject extends Strategy<Record<string, unknown>> {
  private named: { key: string; required: boolean; strategy: Strategy<unknown> | null }[] | undefined;
  private keys: Strategy<string> | null | undefined;
  private readonly byKey = new Map<string, Strategy<unknown>>();
  constructor(private readonly shape: ObjectShape) {
    super("record");
  }
  private prepare(): void {
    const s = this.shape;
    this.named = [...s.properties.keys()].map((key) => {
      const v = valueShapeOf(s, key);
      return { key, required: s.required.has(key), strategy: v.kind === "never" ? null : strategyOf(v) };
    });
    // Required keys the properties do not name come first in that list's order, after the named ones.
    for (const key of s.required)
      if (!s.properties.has(key)) this.named.push({ key, required: true, strategy: strategyOf(valueShapeOf(s, key)) });
    this.keys = this.extraKeys();
  }
  /** Keys beyond the named ones: from the patterns, or any string where additionalProperties allows one. */
  private extraKeys(): Strategy<string> | null {
    const s = this.shape;
    if (s.drawExtra === false) return null;
    const sources: Strategy<string>[] = s.patternProperties.map(([p]) => st.fromRegex(patternRegExp(p)));
    if (s.additional.kind !== "never")
      sources.push(s.propertyNames?.kind === "string" ? stringStrategy(s.propertyNames) : st.text({ maxSize: 10 }));
    if (sources.length === 0) return null;
    const pick = sources.length === 1 ? sources[0] : new KeyChoice(sources);
    return pick.filter(
      (k) =>
        !s.properties.has(k) &&
        (s.propertyNames === undefined || matches(s.propertyNames, k)) &&
        valueShapeOf(s, k).kind !== "never",
    );
  }
  private valueFor(key: string): Strategy<unknown> {
    let v = this.byKey.get(key);
    if (v === undefined) {
      v = strategyOf(valueShapeOf(this.shape, key));
      if (this.byKey.size < 1000) this.byKey.set(key, v);
    }
    return v;
  }
  protected doDraw(tc: TestCase): Record<string, unknown> {
    if (this.named === undefined) this.prepare();
    const s = this.shape;
    const out: Record<string, unknown> = {};
    let count = 0;
    const max = s.maxProperties ?? Infinity;
    for (const p of this.named!) {
      if (p.strategy === null) continue;
      if (!p.required) {
        const room = count < max && !closing(tc);
        const present = room ? tc.drawBoolean(PRESENT) : tc.draw("boolean", PRESENT, false);
        if (!present) continue;
      }
      defineKey(out, p.key, p.strategy.draw(tc));
      count++;
    }
    // dependentRequired: a present key brings the keys it needs.
    for (let changed = true; changed;) {
      changed = false;
      for (const [key, deps] of s.dependentRequired) {
        if (!Object.prototype.hasOwnProperty.call(out, key)) continue;
        for (const d of deps)
          if (!Object.prototype.hasOwnProperty.call(out, d)) {
            defineKey(out, d, this.valueFor(d).draw(tc));
            count++;
            changed = true;
          }
      }
    }
    if (this.keys !== null) {
      let misses = 0;
      while (count < max) {
        const need = count < s.minProperties;
        const more = need
          ? tc.draw("boolean", MORE_KEYS, true)
          : closing(tc)
            ? tc.draw("boolean", MORE_KEYS, false)
            : tc.drawBoolean(MORE_KEYS);
        if (!more) break;
        const key = this.keys!.draw(tc);
        if (Object.prototype.hasOwnProperty.call(out, key)) {
          if (++misses > UNIQUE_ATTEMPTS) break;
          continue;
        }
        defineKey(out, key, this.valueFor(key).draw(tc));
        count++;
      }
    }
    if (count < s.minProperties || count > max) tc.reject();
    return out;
  }
}

/** A key from one of several sources (pattern properties, additional properties). */
class KeyChoice extends Strategy<string> {
  private readonly choice: IntegerConstraints;
  constructor(private readonly sources: readonly Strategy<string>[]) {
    super(undefined);
    this.choice = { min: 0, max: sources.length - 1, shrinkTowards: 0 };
  }
  protected doDraw(tc: TestCase): string {
    return this.sources[tc.drawInteger(this.choice)].draw(tc);
  }
}
