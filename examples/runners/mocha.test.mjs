// property(...) used unmodified as a mocha test function.
// Two tests pass and two fail ON PURPOSE: test/test-runners/runners.test.ts runs this file with
// mocha and checks that the failures carry shrinkscope's minimal examples.
// Mocha runs one test at a time in a process (its --parallel mode uses one process per file), so the
// concurrent test runs two properties at once with Promise.all; each checks it saw only its own test cases.
import assert from "node:assert/strict";
import { it } from "mocha";
import * as shrinkscope from "shrinkscope";
import { property, st } from "shrinkscope";
import concurrent from "./concurrent.cjs";

// Fixed seed, no example database and no deadline, so every run (and a loaded CI machine) behaves the same.
const settings = { database: null, seed: 1, deadline: null };

it(
  "passes sync",
  property(
    st.lists(st.integers()),
    (xs) => {
      assert.deepEqual([...xs].reverse().reverse(), xs);
    },
    settings,
  ),
);

it(
  "passes async",
  property(
    st.lists(st.integers()),
    async (xs) => {
      const copy = await Promise.resolve([...xs]);
      assert.deepEqual(copy, xs);
    },
    settings,
  ),
);

it(
  "fails sync",
  property(
    st.integers(),
    (n) => {
      if (n >= 10) throw new Error("too big: " + n);
    },
    settings,
  ),
);

it(
  "fails async",
  property(
    st.lists(st.integers()),
    async (xs) => {
      await Promise.resolve();
      if (xs.length >= 2) throw new Error("too long: " + xs.length);
    },
    settings,
  ),
);

it("concurrent A and B", () =>
  Promise.all([concurrent.checkOwnCases(shrinkscope, "A", 40), concurrent.checkOwnCases(shrinkscope, "B", 50)]));
