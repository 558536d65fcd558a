// Run with `node --import ./examples/profiles/setup.mjs --test examples/profiles/node-test.test.mjs`: the setup
// file's configure() and registerProfile() hold here.
import assert from "node:assert/strict";
import { test } from "node:test";
import { check, property, st } from "shrinkscope";
import expected from "./expected.cjs";

test("the setup file's settings hold", () => {
  let calls = 0;
  check(property(st.integers(), () => void calls++));
  assert.equal(calls, expected.expectedExamples());
});

test("a property's own settings win", () => {
  let calls = 0;
  check(property(st.integers(), () => void calls++, { maxExamples: 3 }));
  assert.equal(calls, 3);
});
