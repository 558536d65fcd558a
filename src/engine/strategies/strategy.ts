/**
 * The Strategy base: a strategy is a function from a TestCase (a source of choices) to a value. Nothing here
 * knows about shrinking: shrinking edits the choice sequence and replays it through the same draw().
 */
import { invalid } from "../util/errors.ts";
import type { TestCase } from "../core/testCase.ts";
import { isThenable } from "../util/thenable.ts";

const FILTER_ATTEMPTS = 3;

export abstract class Strategy<T> {
  /** Label of the span each draw opens (the panel groups choices by it); undefined opens no span. */
  constructor(readonly label: string | undefined) {}

  /** Produce a value from the choices of `tc`. Strategies call this on their children. */
  draw(tc: TestCase): T {
    if (this.label === undefined) return this.doDraw(tc);
    tc.startSpan(this.label);
    const v = this.doDraw(tc);
    tc.endSpan();
    return v;
  }

  protected abstract doDraw(tc: TestCase): T;

  /**
   * At most how many distinct values this strategy draws (Infinity when unknown or unbounded): lists, sets and maps
   * with unique elements check their minSize against it when they are made, where a list that cannot exist would
   * otherwise only show as every case rejected.
   */
  distinctValues(): number {
    return Infinity;
  }

  /** Transform every value; shrinking still happens on the underlying choices. */
  map<U>(f: (value: T) => U): Strategy<U> {
    if (typeof f !== "function") invalid(".map", "expects a function");
    return new Mapped(this, f);
  }

  /**
   * Keep only values satisfying `predicate`. A value is retried a few times, then the whole case is
   * rejected as invalid; too many rejections over a run raise an error saying the filter is too strict, naming
   * the filter by `label` when it has one (`"positive"`, `".user.email: refine(…)"`).
   */
  filter<U extends T>(predicate: (value: T) => value is U, label?: string): Strategy<U>;
  filter(predicate: (value: T) => boolean, label?: string): Strategy<T>;
  filter(predicate: (value: T) => boolean, label?: string): Strategy<T> {
    if (typeof predicate !== "function") invalid(".filter", "expects a predicate function");
    if (label !== undefined && typeof label !== "string")
      invalid(".filter", `label must be a string, got ${describe(label)}`);
    return new Filtered(this, predicate, label);
  }

  /** Draw a value, then draw from the strategy it chooses (dependent generation). */
  flatMap<U>(f: (value: T) => Strategy<U>): Strategy<U> {
    if (typeof f !== "function") invalid(".flatMap", "expects a function returning a strategy");
    return new FlatMapped(this, f);
  }
}

class Mapped<T, U> extends Strategy<U> {
  constructor(
    private readonly inner: Strategy<T>,
    private readonly f: (v: T) => U,
  ) {
    super(undefined);
  }
  protected doDraw(tc: TestCase): U {
    return this.f(this.inner.draw(tc));
  }
  override draw(tc: TestCase): U {
    return this.f(this.inner.draw(tc));
  }
  override distinctValues(): number {
    return this.inner.distinctValues(); // a function maps distinct values to at most as many
  }
}

class Filtered<T> extends Strategy<T> {
  /** The filter's label (private: a label names the filter in a health check and is no part of the database key). */
  readonly #name: string | undefined;
  constructor(
    private readonly inner: Strategy<T>,
    private readonly predicate: (v: T) => boolean,
    name: string | undefined,
  ) {
    super(undefined);
    this.#name = name;
  }
  protected doDraw(tc: TestCase): T {
    tc.filtered = true;
    for (let i = 0; i < FILTER_ATTEMPTS; i++) {
      // The shrinker's candidates may not retry (ShrinkHost.execute): a retry would read the choices of what
      // follows as a new attempt.
      if (i > 0 && !tc.filterRetries) return tc.cutShort();
      tc.startSpan("filter");
      const start = tc.choiceCount;
      const v = this.inner.draw(tc);
      const ok = this.predicate(v);
      // A promise is truthy: an async predicate would accept every value without ever being awaited.
      if (ok !== true && ok !== false && isThenable(ok))
        invalid(".filter", "the predicate returned a promise; a filter must decide synchronously");
      tc.endSpan(!ok);
      if (ok) return v;
      tc.rejectedAttempt(start, tc.choiceCount);
    }
    if (this.#name !== undefined) tc.rejectedBy = this.#name;
    return tc.reject();
  }
  override distinctValues(): number {
    return this.inner.distinctValues();
  }
}

class FlatMapped<T, U> extends Strategy<U> {
  constructor(
    private readonly inner: Strategy<T>,
    private readonly f: (v: T) => Strategy<U>,
  ) {
    super("flatMap");
  }
  protected doDraw(tc: TestCase): U {
    const next = this.f(this.inner.draw(tc));
    if (!(next instanceof Strategy)) invalid(".flatMap", `the function returned ${describe(next)}, not a strategy`);
    return next.draw(tc);
  }
}

/** A short description of any value for an error message; never throws (a revoked Proxy, a throwing getter). */
export function describe(x: unknown): string {
  try {
    if (x === null) return "null";
    if (x instanceof Strategy) return "a strategy";
    if (typeof x === "function") return `a function${x.name ? ` (${x.name})` : ""}`;
    if (typeof x === "object")
      return Array.isArray(x) ? "an array" : `an object (${Object.prototype.toString.call(x).slice(8, -1)})`;
    if (typeof x === "string") return `string ${JSON.stringify(x.length > 40 ? `${x.slice(0, 40)}…` : x)}`;
    return `${typeof x} ${String(x)}`;
  } catch {
    return "an unreadable object";
  }
}

/** Throws naming `api` unless `s` is a strategy. */
export function requireStrategy(api: string, s: unknown, what = "argument"): asserts s is Strategy<unknown> {
  let ok: boolean;
  try {
    ok = s instanceof Strategy;
  } catch {
    ok = false; // a revoked Proxy: instanceof reads its prototype, which throws
  }
  if (!ok) invalid(api, `${what} must be a strategy, got ${describe(s)}`);
}

export type ValueOfStrategy<S> = S extends Strategy<infer T> ? T : never;
