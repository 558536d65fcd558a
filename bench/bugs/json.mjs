// Bugs of code that treats values as JSON, for bench/bugs.mjs: entries in the shape of its `bugs` array.
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { st } from "shrinkscope";

/** A hand-written JSON writer: escapes quotes and backslashes, forgets control characters. */
function stringify(v) {
  if (typeof v === "string") return `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`;
  if (Array.isArray(v)) return `[${v.map(stringify).join(",")}]`;
  if (v !== null && typeof v === "object")
    return `{${Object.entries(v)
      .map(([k, x]) => `${stringify(k)}:${stringify(x)}`)
      .join(",")}}`;
  return String(v);
}

const survives = (trip) => (v) => {
  try {
    return isDeepStrictEqual(trip(v), v);
  } catch {
    return false;
  }
};

export const jsonBugs = [
  {
    name: "json-writer",
    what: "a hand-written JSON writer that escapes quotes and backslashes but not control characters",
    holds: survives((v) => JSON.parse(stringify(v))),
    shrinkscope: () => [st.json()],
    fastcheck: () => [fc.jsonValue()],
  },
  {
    name: "json-copy",
    what: "a deep copy through JSON.parse(JSON.stringify(v)) (undefined, -0, NaN, bigints, Dates, Maps …)",
    holds: survives((v) => JSON.parse(JSON.stringify(v))),
    shrinkscope: () => [st.anything()],
    fastcheck: () => [fc.anything()],
  },
];
