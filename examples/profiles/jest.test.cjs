// Run by jest with examples/profiles/jest.config.cjs, whose setupFiles load setup.cjs first.
const { check, property, st } = require("shrinkscope");
const { expectedExamples } = require("./expected.cjs");

test("the setup file's settings hold", () => {
  let calls = 0;
  check(property(st.integers(), () => void calls++));
  expect(calls).toBe(expectedExamples());
});

test("a property's own settings win", () => {
  let calls = 0;
  check(property(st.integers(), () => void calls++, { maxExamples: 3 }));
  expect(calls).toBe(3);
});
