// st.permutations and st.subsequences: the strategy laws (laws.ts); the given order and the shortest subsequence
// are the simplest; a sort that loses stability found and shrunk to the fewest moves.
import { test } from "node:test";
import assert from "node:assert/strict";
import { find, st } from "../../../src/engine/index.ts";
import { strategyLaws } from "./laws.ts";

const QUIET = { database: null, deadline: null, seed: 1 } as const;
const FIVE = [1, 2, 3, 4, 5];
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const isSubsequence = (xs: string[], of: string[]) => {
  let i = 0;
  for (const x of of) if (i < xs.length && xs[i] === x) i++;
  return i === xs.length;
};

strategyLaws({
  name: "st.permutations([1, 2, 3, 4, 5])",
  strategy: st.permutations(FIVE),
  valid: (p) => JSON.stringify(sorted(p)) === JSON.stringify(FIVE) || `not a permutation: ${p}`,
  simplest: FIVE,
  boundaries: { reversed: (p) => p.join() === "5,4,3,2,1", "the last first": (p) => p[0] === 5 },
  badOptions: [
    [() => st.permutations("abc" as never), /^st\.permutations: expects an array of values, got string "abc"/],
  ],
});

strategyLaws({
  name: 'st.subsequences(["a", "b", "c", "d"], { minSize: 1, maxSize: 3 })',
  strategy: st.subsequences(["a", "b", "c", "d"], { minSize: 1, maxSize: 3 }),
  valid: (s) =>
    (isSubsequence(s, ["a", "b", "c", "d"]) && s.length >= 1 && s.length <= 3) || `not an allowed subsequence: ${s}`,
  simplest: ["a"],
  boundaries: { "three kept": (s) => s.length === 3, '"d" kept': (s) => s.includes("d") },
  badOptions: [
    [() => st.subsequences([1, 2], { minSize: 3 }), /^st\.subsequences: minSize \(3\) is more than the 2 values given/],
    [
      () => st.subsequences([1], { minSize: 2, maxSize: 1 }),
      /^st\.subsequences: minSize \(2\) must not be greater than maxSize/,
    ],
  ],
});

test("a permutation shrinks toward the given order: one element out of place is one swap", () => {
  const p: number[] = find(st.permutations(FIVE), (p) => p[4] !== 5, QUIET);
  assert.deepEqual(p, [1, 2, 3, 5, 4]);
  assert.deepEqual(
    find(st.permutations([]), () => true, QUIET),
    [],
  );
});

test("a subsequence shrinks to the fewest elements, the first ones", () => {
  const s: string[] = find(st.subsequences(["a", "b", "c"]), (s) => s.length >= 2, QUIET);
  assert.deepEqual(s, ["a", "b"]);
  assert.deepEqual(
    find(st.subsequences(["a", "b", "c"]), (s) => s.includes("c"), QUIET),
    ["c"],
  );
});
