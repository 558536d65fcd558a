// property(...) used unmodified as a jest test function (CommonJS: jest needs no flags for it).
// Two tests pass and two fail ON PURPOSE: test/test-runners/runners.test.ts runs this file with
// jest (see jest.config.cjs) and checks that the failures carry shrinkscope's minimal examples.
// Two more run at the same time (test.concurrent) and each checks it saw only its own test cases.
const assert = require("node:assert/strict");
const shrinkscope = require("shrinkscope");
const { checkOwnCases } = require("./concurrent.cjs");
const { property, st } = shrinkscope; // `test` is jest's global

// Fixed seed, no example database and no deadline, so every run (and a loaded CI machine) behaves the same.
const settings = { database: null, seed: 1, deadline: null };

test(
  "passes sync",
  property(
    st.lists(st.integers()),
    (xs) => {
      assert.deepEqual([...xs].reverse().reverse(), xs);
    },
    settings,
  ),
);

test(
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

test(
  "fails sync",
  property(
    st.integers(),
    (n) => {
      if (n >= 10) throw new Error("too big: " + n);
    },
    settings,
  ),
);

test(
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

test.concurrent("concurrent A", () => checkOwnCases(shrinkscope, "A", 40));
test.concurrent("concurrent B", () => checkOwnCases(shrinkscope, "B", 50));
