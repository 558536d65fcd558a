// The code under test of the JSON bugs (bench/bugs/json.mjs), shared with their test (test/engine/strategies/json.test.ts)
// so the benchmark and the test hunt the same bugs: each function is plausible code with one mistake.

/** A hand-written JSON writer: escapes quotes and backslashes, forgets control characters. */
export function writeJson(v) {
  if (typeof v === "string") return `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`;
  if (Array.isArray(v)) return `[${v.map(writeJson).join(",")}]`;
  if (v !== null && typeof v === "object")
    return `{${Object.entries(v)
      .map(([k, x]) => `${writeJson(k)}:${writeJson(x)}`)
      .join(",")}}`;
  return String(v);
}

/**
 * A deep equality of the kind a cloning helper is checked with: primitives by ===, Dates by their time, Maps and
 * Sets entry by entry in order, arrays, typed arrays and objects key by key. Its mistake is ===: NaN is not NaN,
 * so a value holding NaN (or an invalid Date) is never equal to its own copy.
 */
export function deepEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (a instanceof Date || b instanceof Date)
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (a instanceof Map || a instanceof Set || b instanceof Map || b instanceof Set) {
    if (a.constructor !== b.constructor || a.size !== b.size) return false;
    const ys = [...b];
    return [...a].every((x, i) => deepEqual(x, ys[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    Array.isArray(a) === Array.isArray(b) &&
    (!Array.isArray(a) || a.length === b.length) &&
    ka.length === kb.length &&
    ka.every((k, i) => k === kb[i] && deepEqual(a[k], b[k]))
  );
}

/** Whether `trip(v)` gives `v` back, as `equal` sees it; a throw is a failure. */
export const survives = (trip, equal) => (v) => {
  try {
    return equal(trip(v), v);
  } catch {
    return false;
  }
};
