/** st.deferred: a strategy defined later, for mutually recursive definitions; its thunk runs on first draw. */
import { invalid } from "../util/errors.ts";
import type { TestCase } from "../core/testCase.ts";
import { describe, requireStrategy, Strategy } from "./strategy.ts";

export class Deferred<T> extends Strategy<T> {
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
    if (this.resolving)
      invalid(
        "st.deferred",
        "the function returns the deferred strategy itself (directly or through other st.deferred calls), so it never draws anything",
      );
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
      invalid(
        "st.deferred",
        "the strategy draws itself before making any choice (e.g. st.deferred(() => s.map(f)) where s is that deferred strategy), so drawing it never ends",
      );
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
  if (typeof thunk !== "function")
    invalid("st.deferred", `expects a function returning a strategy, got ${describe(thunk)}`);
  return new Deferred(thunk);
}
