// Bugs of bigints for bench/bugs.mjs: entries in the shape of its `bugs` array.
import fc from "fast-check";
import { st } from "shrinkscope";

export const bigintBugs = [
  {
    name: "bigint-number",
    what: "a bigint survives a trip through a number (not beyond 2^53)",
    holds: (x) => BigInt(Number(x)) === x,
    shrinkscope: () => [st.bigints()],
    fastcheck: () => [fc.bigInt()],
  },
];
