// Bugs of code that treats values as JSON, or copies and compares them, for bench/bugs.mjs: entries in the shape
// of its `bugs` array. The code under test is in json-code.mjs.
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { st } from "shrinkscope";
import { deepEqual, survives, writeJson } from "./json-code.mjs";

export const jsonBugs = [
  {
    name: "json-writer",
    what: "a hand-written JSON writer that escapes quotes and backslashes but not control characters",
    holds: survives((v) => JSON.parse(writeJson(v)), isDeepStrictEqual),
    shrinkscope: () => [st.json()],
    fastcheck: () => [fc.jsonValue()],
  },
  {
    name: "json-copy",
    what: "a deep copy through JSON.parse(JSON.stringify(v)) (undefined, -0, NaN, bigints, Dates, Maps …)",
    holds: survives((v) => JSON.parse(JSON.stringify(v)), isDeepStrictEqual),
    shrinkscope: () => [st.anything()],
    fastcheck: () => [fc.anything()],
  },
  {
    name: "nan-equal",
    what: "structuredClone checked by a hand-written deep equality that compares with ===: NaN is not equal to its copy",
    holds: survives(structuredClone, deepEqual),
    shrinkscope: () => [st.anything()],
    fastcheck: () => [
      fc.anything({
        withBigInt: true,
        withDate: true,
        withMap: true,
        withSet: true,
        withTypedArray: true,
        withSparseArray: true,
        withNullPrototype: true,
      }),
    ],
  },
];
