// Bugs of code that takes functions, for bench/bugs.mjs: entries in the shape of its `bugs` array.
import fc from "fast-check";
import { st } from "shrinkscope";

/** Meant to apply g first (f ∘ g), applies f first. */
const compose = (f, g) => (x) => g(f(x));

export const functionBugs = [
  {
    name: "compose-order",
    what: "a composition that applies its two functions in the wrong order",
    holds: (f, g, x) => compose(f, g)(x) === f(g(x)),
    shrinkscope: () => [
      st.functions({ returns: st.integers() }),
      st.functions({ returns: st.integers() }),
      st.integers(),
    ],
    fastcheck: () => [fc.func(fc.integer()), fc.func(fc.integer()), fc.integer()],
  },
];
