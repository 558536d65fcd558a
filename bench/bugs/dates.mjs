// Bugs of dates for bench/bugs.mjs: entries in the shape of its `bugs` array.
import fc from "fast-check";
import { st } from "shrinkscope";

/** Adds years the way date code often does: 29 February becomes 1 March in a year that has none. */
function addYears(d, n) {
  const out = new Date(d);
  out.setUTCFullYear(out.getUTCFullYear() + n);
  return out;
}

export const dateBugs = [
  {
    name: "leap-day",
    what: "adding a year with setUTCFullYear keeps the day of the month (not on 29 February)",
    holds: (d) => addYears(d, 1).getUTCDate() === d.getUTCDate(),
    shrinkscope: () => [st.dates()],
    fastcheck: () => [fc.date({ noInvalidDate: true })],
  },
];
