/** Choice between strategies, laziness, recursion and interactive drawing: oneOf, deferred, recursive, data. */
import type { IntegerConstraints } from "../choice/types.ts";
import { getCurrent } from "../core/context.ts";
import { invalid } from "../util/errors.ts";
import type { TestCase } from "../core/testCase.ts";
import { checkOptions, describe, guard, requireStrategy, Strategy } from "./strategy.ts";
import type { ValueOfStrategy } from "./strategy.ts";

class OneOf<T> extends Strategy<T> {
  private readonly constraints: IntegerConstraints;
  constructor(private readonly options: readonly Strategy<T>[]) {
    super("oneOf");
    this.constraints = { min: 0, max: options.length - 1, shrinkTowards: 0 };
  }
  protected doDraw(tc: TestCase): T {
    return this.options[tc.draw("integer", this.constraints)].draw(tc);
  }
}

/** A value from one of the strategies; shrinks toward the first. */
export function oneOf<const S extends readonly Strategy<unknown>[]>(...options: S): Strategy<ValueOfStrategy<S[number]>> {
  const api = "st.oneOf";
  if (options.length === 0) invalid(api, "needs at least one strategy");
  options.forEach((s, i) => requireStrategy(api, s, `argument ${i}`));
  return new OneOf(options as unknown as Strategy<ValueOfStrategy<S[number]>>[]);
}

class Deferred<T> extends Strategy<T> {
  private resolved: Strategy<T> | undefined;
  private resolving = false;
  /** The test case and choice count at which the innermost active draw started (re-entrance detection). */
  private activeCase: TestCase | null = null;
  private activeAt = -1;
  constructor(private readonly thunk: () => Strategy<T>) {
    super(undefined);
  }

  /** The strategy the function returns, through any chain of deferreds; a chain that comes back is an error. */
  private resolve(): Strategy<T> {
    if (this.resolved !== undefined) return this.resolved;
    if (this.resolving) invalid("st.deferred", "the function returns the deferred strategy itself (directly or through other st.deferred calls), so it never draws anything");
    this.resolving = true;
    try {
      const s = this.thunk();
      requireStrategy("st.deferred", s, "the function's result");
      // Resolve a chain of deferreds now, so that a cycle among them is found here rather than as a stack overflow.
      if (s instanceof Deferred) (s as Deferred<T>).resolve();
      this.resolved = s as Strategy<T>;
      return this.resolved;
    } finally {
      this.resolving = false;
    }
  }

  protected doDraw(tc: TestCase): T {
    const s = this.resolved ?? this.resolve();
    // Drawn again inside its own draw with no choice made in between: the same state, so the same descent,
    // forever (e.g. const s = st.deferred(() => s.map(f))). Name it instead of overflowing the stack.
    if (this.activeCase === tc && this.activeAt === tc.choiceCount) {
      invalid("st.deferred", "the strategy draws itself before making any choice (e.g. st.deferred(() => s.map(f)) where s is that deferred strategy), so drawing it never ends");
    }
    const outerCase = this.activeCase;
    const outerAt = this.activeAt;
    this.activeCase = tc;
    this.activeAt = tc.choiceCount;
    try {
      return s.draw(tc);
    } finally {
      this.activeCase = outerCase;
      this.activeAt = outerAt;
    }
  }
}

/** A strategy defined later (for mutually recursive definitions): st.deferred(() => tree). */
export function deferred<T>(thunk: () => Strategy<T>): Strategy<T> {
  if (typeof thunk !== "function") invalid("st.deferred", `expects a function returning a strategy, got ${describe(thunk)}`);
  return new Deferred(thunk);
}

export interface RecursiveOptions {
  /** At most this many base values in one top-level value (default 50): bounds size and recursion depth. */
  maxLeaves?: number;
}

const CHOOSE_BRANCH: IntegerConstraints = { min: 0, max: 1, shrinkTowards: 0 };

/**
 * Recursive structures: `extend` receives the strategy itself and builds one level on top. Each node chooses
 * base (0) or extend (1), so shrinking walks toward the base; once `maxLeaves` base values are drawn in one
 * top-level value, the choice is forced to base and the structure closes.
 */
class Recursive<T> extends Strategy<T> {
  private readonly extended: Strategy<T>;
  private depth = 0;
  constructor(
    private readonly base: Strategy<T>,
    extend: (self: Strategy<T>) => Strategy<T>,
    private readonly maxLeaves: number,
  ) {
    super("recursive");
    const self = new Deferred<T>(() => this);
    this.extended = guard("st.recursive", "extend", () => extend(self));
    requireStrategy("st.recursive", this.extended, "extend's result");
  }
  protected doDraw(tc: TestCase): T {
    const top = this.depth === 0;
    if (top) tc.recursionLeaves = 0;
    this.depth++;
    try {
      const full = tc.recursionLeaves >= this.maxLeaves;
      const which = full ? tc.draw("integer", CHOOSE_BRANCH, 0) : tc.draw("integer", CHOOSE_BRANCH);
      if (which === 0) {
        tc.recursionLeaves++;
        return this.base.draw(tc);
      }
      return this.extended.draw(tc);
    } finally {
      this.depth--;
    }
  }
}

export function recursive<T>(base: Strategy<T>, extend: (self: Strategy<T>) => Strategy<T>, options?: RecursiveOptions): Strategy<T> {
  const api = "st.recursive";
  requireStrategy(api, base, "base");
  if (typeof extend !== "function") invalid(api, `extend must be a function, got ${describe(extend)}`);
  const maxLeaves = checkOptions(api, options, ["maxLeaves"]).maxLeaves ?? 50;
  if (!Number.isInteger(maxLeaves) || maxLeaves < 1) invalid(api, `maxLeaves must be a positive integer, got ${describe(maxLeaves)}`);
  return new Recursive(base, extend, maxLeaves);
}

/** Draw inside the property body, when what to draw depends on earlier values. */
export interface DataObject {
  draw<T>(strategy: Strategy<T>, label?: string): T;
}

class Data extends Strategy<DataObject> {
  constructor() {
    super(undefined);
  }
  protected doDraw(tc: TestCase): DataObject {
    const object: DataObject & { toString(): string } = {
      draw<T>(strategy: Strategy<T>, label?: string): T {
        requireStrategy("data.draw", strategy);
        const live = getCurrent("data.draw");
        if (live !== tc) throw new Error("data.draw was called after its test case ended (an un-awaited promise?)");
        tc.startSpan("data.draw");
        // Drawing in the body is still drawing: timed for the tooSlow health check while it watches.
        const v = tc.drawMs < 0 ? strategy.draw(tc) : tc.timedDraw(() => strategy.draw(tc));
        tc.endSpan();
        tc.interactiveDraws.push({ label, value: v });
        return v;
      },
      toString() {
        return "data(...)";
      },
    };
    return object;
  }
}

/** An object whose draw(strategy) draws values inside the property body; the draws are printed on failure. */
export function data(): Strategy<DataObject> {
  return new Data();
}
