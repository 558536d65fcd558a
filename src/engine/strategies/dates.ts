/**
 * st.dates: a Date drawn as its calendar fields — year, month, day, and the millisecond of the day — one integer
 * choice each, in that order, as Hypothesis's dates() and datetimes() draw theirs (the time as one choice: four
 * choices a date, where the time's own fields cost a date half its speed and shrink no better).
 *
 * Why fields and not one integer of milliseconds: shrinking moves one choice at a time, and calendar bugs live
 * on sparse sets of instants. A leap-day bug fails on one day in 1,461; from 2345-02-29 a single millisecond
 * count halves and bisects its way to the start of that same day, never to another year's 29 February. With
 * fields, the year alone moves to 2000 and the 29th stays: the minimal example is the one a person would write.
 * Shortlex over the fields is year first (nearest 2000, later years first at equal distance), then month, day
 * and time toward their smallest (midnight).
 *
 * Bounds are kept field by field, as digits are kept under a bound: a field is held to the bound's field only
 * while every earlier field equals the bound's, so every instant in [min, max] has exactly one choice sequence
 * and nothing outside has any. Each field shrinks toward the same field of 2000-01-01T00:00:00.000Z clamped into
 * the range while the earlier fields are that instant's, and toward its smallest legal value after.
 *
 * Generation favours instants where date code breaks (the bounds, the epoch, 2038-01-19T03:14:07Z, 29 February,
 * the first and last instant of a day, month and year) by queueing their fields as generated values
 * (TestCase.setReplayQueue): recorded like any other choice, so shrinking moves them freely.
 */
import type { TestCase } from "../core/testCase.ts";
import type { Random } from "../util/random.ts";
import { invalid } from "../util/errors.ts";
import { Strategy } from "./strategy.ts";
import { checkBoolean, checkOptions } from "./options.ts";
import { ConstraintsCache, queueSpecial, specialQueued } from "./specials.ts";

export interface DatesOptions {
  /** The earliest instant (inclusive; default the earliest a Date holds, −8.64e15 ms). A valid Date. */
  min?: Date;
  /** The latest instant (inclusive; default the latest a Date holds, 8.64e15 ms). A valid Date. */
  max?: Date;
  /** Now and then an invalid date, `new Date(NaN)` (default false); never simpler than a valid one. */
  allowInvalid?: boolean;
}

const DAY_MS = 86_400_000;
/** The range of a Date: ±10^8 days around the epoch. */
const LIMIT_MS = 8.64e15;
/** What dates shrink toward: 2000-01-01T00:00:00.000Z, clamped into the range. */
const SIMPLEST_MS = 946_684_800_000;
/** 2^31 seconds after the epoch, less one: where a signed 32-bit time_t ends. */
const Y2038_MS = 2_147_483_647_000;

/** The fields, in draw order. */
const YEAR = 0;
const MONTH = 1;
const DAY = 2;
const TIME = 3;
const FIELDS = 4;
/** Each field's smallest and largest value, the day's largest that of a 31-day month (see daysInMonth). */
const LOWEST = [0, 1, 1, 0];
const HIGHEST = [0, 12, 31, DAY_MS - 1];
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** How often a fresh date is a special one, and a date invalid (with allowInvalid). */
const SPECIAL_P = 1 / 4;
const INVALID = { p: 1 / 16 };

/** Proleptic Gregorian leap years, negative ones too (−4 % 4 is −0, which equals 0). */
function isLeap(y: number): boolean {
  return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
}

function daysInMonth(y: number, m: number): number {
  return m === 2 && isLeap(y) ? 29 : MONTH_DAYS[m - 1];
}

/**
 * Days from 1970-01-01 to a civil date, and back (Howard Hinnant's algorithms, in whole 400-year eras so that
 * negative years need no special case): plain arithmetic, where Date.UTC would read years 0 to 99 as 1900 to 1999.
 */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** The fields of an instant (a valid Date's time). */
function fieldsOf(ms: number): number[] {
  const days = Math.floor(ms / DAY_MS);
  const time = ms - days * DAY_MS;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d, time];
}

function timeOf(f: readonly number[]): number {
  return daysFromCivil(f[0], f[1], f[2]) * DAY_MS + f[3];
}

/** A special instant: from field `at` on, `values(fields drawn so far)` are queued. */
interface Special {
  readonly at: number;
  readonly values: (fields: readonly number[], r: Random) => number[];
}

const START_OF_DAY = [0];
const END_OF_DAY = [DAY_MS - 1];

class Dates extends Strategy<Date> {
  private readonly low: readonly number[];
  private readonly high: readonly number[];
  private readonly toward: readonly number[];
  private readonly constraints = new ConstraintsCache();
  private readonly specials: readonly Special[];
  /**
   * The fields of the date being drawn (one at a time: a date holds no strategy that could draw another). Private,
   * as what changes while drawing must be: the database key walks the strategy's own fields (property/key.ts).
   */
  readonly #fields = new Array<number>(FIELDS).fill(0);

  constructor(
    readonly minMs: number,
    readonly maxMs: number,
    /** Which bounds the user gave: only those are favoured (see yearOf). */
    readonly givenMin: boolean,
    readonly givenMax: boolean,
    readonly allowInvalid: boolean,
  ) {
    super("date");
    this.low = fieldsOf(minMs);
    this.high = fieldsOf(maxMs);
    this.toward = fieldsOf(Math.min(Math.max(SIMPLEST_MS, minMs), maxMs));
    const inRange = (ms: number) => ms >= minMs && ms <= maxMs;
    const fixed = (ms: number): Special => ({ at: YEAR, values: () => fieldsOf(ms) });
    const leapDay: Special = { at: YEAR, values: (_, r) => [leapYearNear(this.yearOf(r)), 2, 29] };
    this.specials = [
      ...(givenMin ? [fixed(minMs)] : []),
      ...(givenMax ? [fixed(maxMs)] : []),
      ...[0, Y2038_MS].filter(inRange).map(fixed),
      leapDay,
      leapDay,
      { at: TIME, values: () => START_OF_DAY },
      { at: TIME, values: () => END_OF_DAY },
      { at: DAY, values: () => [1, ...START_OF_DAY] },
      { at: DAY, values: (f) => [daysInMonth(f[YEAR], f[MONTH]), ...END_OF_DAY] },
      { at: MONTH, values: () => [1, 1, ...START_OF_DAY] },
      { at: MONTH, values: () => [12, 31, ...END_OF_DAY] },
    ];
  }

  /**
   * A fresh year, in place of the integer distribution's: near the simplest date's year (within 256 years) half
   * the time, any distance in powers of two a quarter, uniform over the range an eighth, and a bound the user
   * gave the rest. The integer distribution favours the ends of a range, and the ends of a Date's own range
   * (the years −271821 and 275760) break any code that adds a year: a property would fail there first, in a
   * year no one meant, and shrinking cannot leave it for the bug the property was written for (from
   * 275760-01-01, 2000-02-29 is three fields away).
   */
  private yearOf(r: Random): number {
    const lo = this.low[YEAR];
    const hi = this.high[YEAR];
    const t = this.toward[YEAR];
    const u = r.uint32();
    const roll = u & 15;
    let y: number;
    if (roll < 8) y = t + r.int(-(2 ** (1 + ((u >>> 4) & 7))), 2 ** (1 + ((u >>> 4) & 7)));
    else if (roll < 12) y = t + (u & 16 ? 1 : -1) * r.int(0, 2 ** (1 + ((u >>> 5) % 19)));
    else if (roll < 14 || !(this.givenMin || this.givenMax)) y = r.int(lo, hi);
    else y = (roll === 14 && this.givenMin) || !this.givenMax ? lo : hi;
    // Outside the range: uniform instead (clamping would pile the misses on the bounds).
    return y < lo || y > hi ? r.int(lo, hi) : y;
  }

  protected doDraw(tc: TestCase): Date {
    // The flag comes first and the fields are drawn either way: an invalid date is then never simpler than a
    // valid one (its sequence is as long, and greater at the flag), and shrinks to new Date(NaN) on 2000-01-01's fields.
    const isInvalid = this.allowInvalid && tc.drawBoolean(INVALID);
    const year = tc.random !== null && !tc.queueing && tc.generating;
    const special = queueSpecial(tc, SPECIAL_P, this.specials);
    const f = this.#fields;
    let atLow = true;
    let atHigh = true;
    let atToward = true;
    for (let k = 0; k < FIELDS; k++) {
      if (special !== null && special.at === k) tc.setReplayQueue(special.values(f, tc.random as Random));
      else if (k === YEAR && year) tc.setReplayQueue([this.yearOf(tc.random as Random)]);
      const lowest = LOWEST[k];
      const highest = k === DAY ? daysInMonth(f[YEAR], f[MONTH]) : HIGHEST[k];
      const lo = atLow || k === YEAR ? this.low[k] : lowest;
      const hi = atHigh || k === YEAR ? this.high[k] : highest;
      const t = atToward || k === YEAR ? this.toward[k] : lowest;
      const v = tc.drawInteger(this.constraints.get(lo, hi, t < lo ? lo : t > hi ? hi : t));
      f[k] = v;
      atLow &&= v === this.low[k];
      atHigh &&= v === this.high[k];
      atToward &&= v === this.toward[k];
    }
    if (special !== null || year) specialQueued(tc);
    return new Date(isInvalid ? NaN : timeOf(f));
  }
}

/** The leap year nearest below `y` (or above, near the earliest years a Date holds). */
function leapYearNear(y: number): number {
  let leap = y - (((y % 4) + 4) % 4);
  if (!isLeap(leap)) leap -= 4;
  return leap < -271_820 ? leap + 8 : leap;
}

/** The time of a Date option, which must be a valid Date. */
function boundOf(api: string, name: string, v: unknown): number | undefined {
  if (v === undefined) return undefined;
  let time = NaN;
  try {
    time = Date.prototype.getTime.call(v); // a brand check too: it throws for anything but a Date
  } catch {
    invalid(api, `${name} must be a Date, got ${describeBound(v)}`);
  }
  if (Number.isNaN(time)) invalid(api, `${name} must be a valid Date, got an invalid Date (new Date(NaN))`);
  return time;
}

function describeBound(v: unknown): string {
  if (typeof v === "string") return `string ${JSON.stringify(v)} (write new Date(${JSON.stringify(v)}))`;
  if (typeof v === "number") return `number ${v} (write new Date(${v}))`;
  return v === null ? "null" : typeof v === "object" ? "an object that is not a Date" : `${typeof v} ${String(v)}`;
}

/**
 * Dates in `[min, max]` (default the whole range a Date holds); with `allowInvalid`, now and then
 * `new Date(NaN)`. Shrinks toward 2000-01-01T00:00:00.000Z (clamped into the range), field by field: the year
 * first, then month, day, hour, minute, second and millisecond. Each value is a new Date object.
 *
 * @example
 * // Adding a year with setUTCFullYear moves 29 February to 1 March: fails with
 * // new Date("2000-02-29T00:00:00.000Z").
 * property(st.dates(), (d) => {
 *   const next = new Date(d);
 *   next.setUTCFullYear(d.getUTCFullYear() + 1);
 *   assert.equal(next.getUTCDate(), d.getUTCDate());
 * });
 */
export function dates(options?: DatesOptions): Strategy<Date> {
  const api = "st.dates";
  const o = checkOptions(api, options, ["min", "max", "allowInvalid"]);
  const min = boundOf(api, "min", o.min) ?? -LIMIT_MS;
  const max = boundOf(api, "max", o.max) ?? LIMIT_MS;
  checkBoolean(api, "allowInvalid", o.allowInvalid);
  if (min > max)
    invalid(api, `min (${new Date(min).toISOString()}) must not be later than max (${new Date(max).toISOString()})`);
  return new Dates(min, max, o.min !== undefined, o.max !== undefined, o.allowInvalid === true);
}
