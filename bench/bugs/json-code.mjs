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

/** Whether `trip(v)` gives `v` back, as `equal` sees it; a throw is a failure. */
export const survives = (trip, equal) => (v) => {
  try {
    return equal(trip(v), v);
  } catch {
    return false;
  }
};
