// remembered(): a pure function of a string asked again answers from memory, at most `limit` answers are kept.
import { test } from "node:test";
import assert from "node:assert/strict";
import { remembered } from "../../../src/engine/util/remembered.ts";

test("each distinct text is computed once while remembered, undefined answers included", () => {
  const asked: string[] = [];
  const f = remembered((s: string) => {
    asked.push(s);
    return s === "none" ? undefined : s.length;
  });
  assert.equal(f("abc"), 3);
  assert.equal(f("abc"), 3);
  assert.equal(f("none"), undefined);
  assert.equal(f("none"), undefined);
  assert.deepEqual(asked, ["abc", "none"]);
});

test("past its limit the memory starts over: answers stay right, and no more than the limit are held", () => {
  const asked: string[] = [];
  const f = remembered((s: string) => (asked.push(s), s.toUpperCase()), 2);
  assert.deepEqual(["a", "b", "c", "a"].map(f), ["A", "B", "C", "A"]);
  // "c" came past the limit of two, so the memory started over with it: "a" was computed again.
  assert.deepEqual(asked, ["a", "b", "c", "a"]);
  assert.equal(f("c"), "C");
  assert.deepEqual(asked, ["a", "b", "c", "a"]);
});
