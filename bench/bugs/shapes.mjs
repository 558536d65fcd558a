// Bugs of objects with optional keys, dictionaries and sets for bench/bugs.mjs: entries in the shape of its `bugs`
// array.
import fc from "fast-check";
import { st } from "shrinkscope";

/** A label that forgets `note` is optional. */
const label = (r) => `${r.id}: ${r.note.trim()}`;

/** Copies own keys with for…in and assignment: "__proto__" sets the copy's prototype instead of a key. */
function mergeInto(into, from) {
  for (const k in from) into[k] = from[k];
  return into;
}

export const shapeBugs = [
  {
    name: "optional-key",
    what: "a label that reads an optional key as if it were always there",
    holds: (r) => {
      try {
        label(r);
        return true;
      } catch {
        return false;
      }
    },
    shrinkscope: () => [st.records({ id: st.integers() }, { optional: { note: st.text() } })],
    fastcheck: () => [fc.record({ id: fc.integer(), note: fc.string() }, { requiredKeys: ["id"] })],
  },
  {
    name: "proto-key",
    what: 'a for…in merge of a dictionary loses its own "__proto__" key',
    holds: (d) => Object.keys(mergeInto({}, d)).length === Object.keys(d).length,
    shrinkscope: () => [st.dictionaries(st.text(), st.integers())],
    fastcheck: () => [fc.dictionary(fc.string(), fc.integer())],
  },
  {
    name: "set-of-three",
    what: "code that handles sets of at most two elements (a pair, not a triangle)",
    holds: (s) => s.size < 3,
    shrinkscope: () => [st.sets(st.integers())],
    fastcheck: () => [fc.set(fc.integer())],
  },
];
