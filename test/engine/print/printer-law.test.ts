// The printing law, checked with the engine itself: for any generated value, evaluating its printed literal
// gives a deep-equal value (−0, NaN, lone surrogates, Maps, Sets, Dates, bytes, shared references included).
import { test } from "node:test";
import assert from "node:assert/strict";
import { check, property, st, toLiteral } from "../../../src/engine/index.ts";
import { formatArgs } from "../../../src/engine/print/printer.ts";

const scalar = st.oneOf(
  st.integers(),
  st.floats(),
  st.booleans(),
  st.text(),
  st
    .text({
      alphabet: [
        [0xd7f0, 0xe010],
        [0x20, 0x7f],
      ],
    })
    .map((s) => s), // near and in the surrogate range
  st.text({ alphabet: [[0xd800, 0xdfff]], maxSize: 3 }), // lone surrogates
  st.text({ alphabet: "\"'`${}\\*/\n\r\t\0 1" }),
  st.bytes(),
  st.integers().map((n) => BigInt(n) * 1_000_000_007n),
  st.just(null),
  st.just(undefined),
  st.integers({ min: -8.64e15, max: 8.64e15 }).map((t) => new Date(t)),
);

type Value = unknown;
const value: ReturnType<typeof st.recursive<Value>> = st.recursive<Value>(scalar, (self) =>
  st.oneOf(
    st.lists(self, { maxSize: 4 }),
    st.lists(st.tuples(st.text({ maxSize: 4 }), self), { maxSize: 4 }).map((entries) => Object.fromEntries(entries)),
    st.lists(st.tuples(self, self), { maxSize: 3 }).map((entries) => new Map(entries)),
    st.lists(self, { maxSize: 3 }).map((xs) => new Set(xs)),
    self.map((x) => [x, x]), // a shared reference
  ),
);

test("eval(toLiteral(v)) deep-equals v for generated values", () => {
  check(
    property(value, (v) => {
      const printed = toLiteral(v);
      const back: unknown = (0, eval)(`(${printed})`);
      assert.deepStrictEqual(back, v, printed);
      if (Array.isArray(v) && v.length === 2 && v[0] === v[1] && typeof v[0] === "object" && v[0] !== null) {
        assert.ok(Array.isArray(back) && back[0] === back[1], "shared references stay shared");
      }
    }),
    { maxExamples: 500, database: null, deadline: null },
  );
});

test("argument lists print and evaluate back for generated arguments", () => {
  check(
    property(st.lists(value, { maxSize: 4 }), (args) => {
      assert.deepStrictEqual((0, eval)(`[${formatArgs(args)}]`), args);
    }),
    { maxExamples: 200, database: null, deadline: null },
  );
});
