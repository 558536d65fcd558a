// st.dates: the strategy laws (laws.ts) over the whole range, a bounded range and allowInvalid; the leap-day bug
// found and shrunk to its one minimal date on every seed; small ranges enumerated once; printing, explain, unique
// lists and type inference.
import { test } from "node:test";
import assert from "node:assert/strict";
import { check, find, property, st, toLiteral, PropertyFailure } from "../../../src/engine/index.ts";
import type { Strategy } from "../../../src/engine/index.ts";
import { strategyLaws, valuesOf } from "./laws.ts";
import { bugRuns } from "./bugScenario.ts";

const QUIET = { database: null, deadline: null, seed: 1 } as const;
const LIMIT = 8.64e15;
const iso = (s: string) => new Date(s);

/** The independent oracle: a Date object, valid unless allowed, within [min, max]. */
function inRange(min: number, max: number, allowInvalid = false): (d: Date) => true | string {
  return (d) => {
    if (!(d instanceof Date)) return "not a Date";
    const t = d.getTime();
    if (Number.isNaN(t)) return allowInvalid || "invalid";
    return (t >= min && t <= max) || `outside [${new Date(min).toISOString()}, ${new Date(max).toISOString()}]`;
  };
}

const utc = (d: Date) => ({
  month: d.getUTCMonth(),
  day: d.getUTCDate(),
  time: d.getTime() - Date.UTC(1970, 0, 1) - Math.floor(d.getTime() / 86_400_000) * 86_400_000,
});
const endOfMonth = (d: Date) =>
  new Date(d.getTime() + 1).getUTCDate() === 1 && utc(new Date(d.getTime() + 1)).time === 0;

strategyLaws({
  name: "st.dates()",
  strategy: st.dates(),
  valid: inRange(-LIMIT, LIMIT),
  simplest: iso("2000-01-01T00:00:00.000Z"),
  boundaries: {
    "the epoch": (d) => d.getTime() === 0,
    "29 February": (d) => utc(d).month === 1 && utc(d).day === 29,
    midnight: (d) => utc(d).time === 0 && d.getTime() !== 946_684_800_000,
    "the last instant of a day": (d) => utc(d).time === 86_399_999,
    "the first instant of a month (not January)": (d) => utc(d).day === 1 && utc(d).time === 0 && utc(d).month > 0,
    "the last instant of a month": endOfMonth,
    "the first instant of a year (not 2000)": (d) =>
      utc(d).month === 0 && utc(d).day === 1 && utc(d).time === 0 && d.getUTCFullYear() !== 2000,
    "the last instant of a year": (d) => utc(d).month === 11 && endOfMonth(d),
    "2038-01-19T03:14:07Z": (d) => d.getTime() === 2_147_483_647_000,
    "a year before 1900": (d) => d.getUTCFullYear() < 1900,
    "a year after 10000": (d) => d.getUTCFullYear() > 10_000,
  },
  badOptions: [
    [() => st.dates({ min: new Date(NaN) }), /^st\.dates: min must be a valid Date, got an invalid Date/],
    [() => st.dates({ max: new Date("nope") }), /^st\.dates: max must be a valid Date/],
    [() => st.dates({ min: "2000-01-01" as never }), /^st\.dates: min must be a Date, got string "2000-01-01"/],
    [() => st.dates({ max: 5 as never }), /^st\.dates: max must be a Date, got number 5/],
    [
      () => st.dates({ min: iso("2001-01-01"), max: iso("2000-01-01") }),
      /^st\.dates: min \(2001-01-01T00:00:00\.000Z\) must not be later than max \(2000-01-01T00:00:00\.000Z\)/,
    ],
    [() => st.dates({ allowInvalid: 1 as never }), /^st\.dates: allowInvalid must be true or false/],
    [() => st.dates({ minimum: iso("2000-01-01") } as never), /^st\.dates: unknown option "minimum"/],
  ],
});

const MIN = iso("2010-05-05T12:30:00.000Z");
const MAX = iso("2012-02-29T23:59:59.999Z");
strategyLaws({
  name: "st.dates({ min: 2010-05-05T12:30Z, max: 2012-02-29T23:59:59.999Z })",
  strategy: st.dates({ min: MIN, max: MAX }),
  valid: inRange(MIN.getTime(), MAX.getTime()),
  simplest: MIN, // 2000-01-01 clamped into the range
  boundaries: {
    min: (d) => d.getTime() === MIN.getTime(),
    max: (d) => d.getTime() === MAX.getTime(),
    "29 February 2012": (d) => utc(d).month === 1 && utc(d).day === 29,
  },
});

const APOLLO = iso("1969-07-20T20:17:40Z");
strategyLaws({
  name: "st.dates({ max: 1969-07-20T20:17:40Z })",
  strategy: st.dates({ max: APOLLO }),
  valid: inRange(-LIMIT, APOLLO.getTime()),
  simplest: APOLLO,
  boundaries: { max: (d) => d.getTime() === APOLLO.getTime(), "29 February": (d) => utc(d).day === 29 },
});

// allowInvalid outside the law suite: its print-and-evaluate law compares with assert.deepStrictEqual, which on
// Node 20 calls two `new Date(NaN)` unequal (it compares their times with !==).
test("st.dates({ allowInvalid: true }): new Date(NaN) now and then, printed as such; valid dates as without it", () => {
  const s = st.dates({ max: APOLLO, allowInvalid: true });
  for (let seed = 1; seed <= 5; seed++) {
    const values = valuesOf(s, seed, 1000);
    const invalid = values.filter((d) => Number.isNaN(d.getTime()));
    assert.ok(invalid.length > 20 && invalid.length < 150, `seed ${seed}: ${invalid.length} invalid of 1000`);
    for (const d of values) {
      assert.equal(inRange(-LIMIT, APOLLO.getTime(), true)(d), true, toLiteral(d));
      assert.ok(Object.is((0, eval)(`(${toLiteral(d)})`).getTime(), d.getTime()), toLiteral(d));
    }
  }
  assert.deepStrictEqual(
    find(s, () => true, QUIET),
    APOLLO,
  );
});

/** Adds years as date code often does: 29 February becomes 1 March in a year that has none. */
function addYears(d: Date, n: number): Date {
  const out = new Date(d);
  out.setUTCFullYear(out.getUTCFullYear() + n);
  return out;
}

test("the leap-day bug is found within 100 examples and shrinks to 2000-02-29T00:00:00.000Z on every seed", () => {
  const { minimal, foundEarly } = bugRuns(st.dates(), (d) => addYears(d, 1).getUTCDate() === d.getUTCDate());
  minimal.forEach((m, seed) => {
    assert.ok(m !== undefined, `seed ${seed}: the property passed`);
    assert.deepStrictEqual(m.args, [iso("2000-02-29T00:00:00.000Z")], `seed ${seed}`);
    assert.equal(m.repro, 'new Date("2000-02-29T00:00:00.000Z")');
  });
  assert.ok(foundEarly >= 18, `found within 100 examples on ${foundEarly} of 20 seeds`);
});

test("find reaches the leap day, an invalid date only with allowInvalid, and infers Date", () => {
  const leap: Date = find(st.dates(), (d) => addYears(d, 1).getUTCDate() !== d.getUTCDate(), { ...QUIET, seed: 3 });
  assert.deepStrictEqual(leap, iso("2000-02-29T00:00:00.000Z"));
  // Valid dates are simpler than an invalid one, even where both satisfy the predicate.
  assert.deepStrictEqual(
    find(st.dates({ allowInvalid: true }), () => true, QUIET),
    iso("2000-01-01T00:00:00.000Z"),
  );
  const nan = find(st.dates({ allowInvalid: true }), (d) => Number.isNaN(d.getTime()), QUIET);
  assert.ok(Number.isNaN(nan.getTime()));
  assert.equal(toLiteral(nan), "new Date(NaN)");
  assert.ok(!valuesOf(st.dates(), 5, 1000).some((d) => Number.isNaN(d.getTime())), "invalid without allowInvalid");
  // Field by field: a date after a threshold shrinks to a round date after it, at worst the next New Year (the
  // shrinker does not raise a field already at its smallest, the month or the day, to let the year go down).
  const after = iso("2024-06-15T08:00:00.000Z");
  for (let seed = 1; seed <= 3; seed++) {
    const d = find(st.dates(), (d) => d.getTime() > after.getTime(), { ...QUIET, seed });
    assert.ok(d > after && d <= iso("2025-01-01T00:00:00.000Z"), d.toISOString());
  }
});

test("a range of four instants across a year boundary is drawn whole, each instant once", () => {
  const min = iso("1999-12-31T23:59:59.998Z");
  const seen: number[] = [];
  check(
    property(st.dates({ min, max: new Date(min.getTime() + 3) }), (d) => {
      seen.push(d.getTime());
    }),
    { ...QUIET, seed: 1 },
  );
  assert.deepEqual(
    [...seen].sort((a, b) => a - b),
    [0, 1, 2, 3].map((k) => min.getTime() + k),
  );
});

test("years 0 to 99 and the ends of a Date's range are drawn as themselves (no two-digit year pitfall)", () => {
  const min = iso("0050-02-27T00:00:00.000Z");
  const max = iso("0050-03-02T00:00:00.000Z");
  for (const d of valuesOf(st.dates({ min, max }), 2, 500))
    assert.equal(inRange(min.getTime(), max.getTime())(d), true);
  const ends = [new Date(-LIMIT), new Date(LIMIT)];
  for (const end of ends)
    assert.deepStrictEqual(
      find(st.dates({ min: end, max: end }), () => true, QUIET),
      end,
    );
});

test("unique lists of dates compare by time, and shrink to dates next to 2000-01-01", () => {
  const dates = st.lists(st.dates(), { unique: true, minSize: 3 });
  for (const xs of valuesOf(dates, 4, 200)) assert.equal(new Set(xs.map((d) => d.getTime())).size, xs.length);
  const xs: Date[] = find(dates, () => true, QUIET);
  assert.equal(new Set(xs.map((d) => d.getTime())).size, 3);
  assert.deepStrictEqual(
    xs.slice(0, 2).map((d) => d.toISOString()),
    ["2000-01-01T00:00:00.000Z", "2000-01-01T00:00:00.001Z"],
  );
  // Four instants, four elements: the whole range, in order.
  const min = iso("2000-01-01T00:00:00.000Z");
  const four = find(
    st.lists(st.dates({ min, max: new Date(min.getTime() + 3) }), { unique: true }),
    (ys) => ys.length >= 4,
    QUIET,
  );
  assert.deepStrictEqual(
    four.map((d) => d.getTime() - min.getTime()),
    [0, 1, 2, 3],
  );
});

test("explain marks a free argument beside a date that matters, and the report prints the date as a literal", () => {
  try {
    check(
      property(st.dates(), st.integers(), (d, _n) => {
        if (addYears(d, 1).getUTCDate() !== d.getUTCDate()) throw new Error("moved");
      }),
      { ...QUIET, seed: 1 },
    );
    assert.fail("the property passed");
  } catch (e) {
    if (!(e instanceof PropertyFailure)) throw e;
    assert.match(e.message, /new Date\("2000-02-29T00:00:00\.000Z"\),\n\s+0 \/\/ or any other generated value/);
  }
});

test("a date is a fresh object each time: mutating one changes no other", () => {
  const s: Strategy<Date> = st.dates({ min: iso("2000-01-01"), max: iso("2000-01-01") });
  const [a, b] = valuesOf(st.tuples(s, s), 1, 1)[0]!;
  a.setUTCFullYear(1999);
  assert.equal(b.getUTCFullYear(), 2000);
});
