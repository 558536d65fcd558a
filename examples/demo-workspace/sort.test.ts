// Click "Run property" above a test: the Shrinkscope panel opens beside the editor and shows the test cases,
// the shrinking, and the minimal counterexample. Then Ctrl+. on the property → "Convert counterexample to test".
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { property, st } from "shrinkscope";

/** Sorted unique values — with the classic bug: sort() compares as strings. */
function uniqueSorted(xs: number[]): number[] {
  return Array.from(new Set(xs)).sort();
}

/** Run-length encoding — with an off-by-one when a run reaches 10. */
function encode(s: string): [string, number][] {
  const out: [string, number][] = [];
  for (const ch of s) {
    const last = out[out.length - 1];
    if (last && last[0] === ch && last[1] < 9) last[1]++;
    else out.push([ch, 1]);
  }
  return out;
}
const decode = (runs: [string, number][]) => runs.map(([ch, n]) => ch.repeat(n)).join("");

describe("demo", () => {
  test(
    "uniqueSorted is ascending",
    property(st.lists(st.integers()), (xs) => {
      const out = uniqueSorted(xs);
      assert.ok(
        out.every((x, i) => i === 0 || out[i - 1] < x),
        `not ascending: ${JSON.stringify(out)}`,
      );
    }),
  );

  test(
    "encode merges every run",
    property(st.text({ alphabet: "ab" }), (s) => {
      const runs = encode(s);
      assert.equal(decode(runs), s);
      assert.ok(
        runs.every(([ch], i) => i === 0 || runs[i - 1][0] !== ch),
        `split run in ${JSON.stringify(runs)}`,
      );
    }),
  );

  test(
    "reverse twice is identity",
    property(st.lists(st.integers()), (xs) => {
      assert.deepEqual([...xs].reverse().reverse(), xs);
    }),
  );
});
