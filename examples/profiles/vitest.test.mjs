// Run by vitest with examples/profiles/vitest.config.mjs, whose setupFiles load setup.mjs first.
import { expect, test } from "vitest";
import { check, property, st } from "shrinkscope";
import expected from "./expected.cjs";

test("the setup file's settings hold", () => {
  let calls = 0;
  check(property(st.integers(), () => void calls++));
  expect(calls).toBe(expected.expectedExamples());
});

test("a property's own settings win", () => {
  let calls = 0;
  check(property(st.integers(), () => void calls++, { maxExamples: 3 }));
  expect(calls).toBe(3);
});
