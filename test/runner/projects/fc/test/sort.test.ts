// @ts-nocheck
import { test } from "node:test";
import fc from "shrinkscope/fc";

function sortNumbers(xs) {
  return [...xs].sort();
}

test("sorting puts numbers in order", () => {
  fc.assert(
    fc.property(fc.array(fc.integer()), (xs) => {
      const sorted = sortNumbers(xs);
      if (!sorted.every((x, i) => i === 0 || sorted[i - 1] <= x)) throw new Error("out of order"); // @mark:order
    }),
  );
});
