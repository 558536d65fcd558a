/**
 * Checking a strategy's arguments at construction: misuse throws InvalidArgument naming the call (a misspelled
 * option, a mistyped size, a getter that throws), never a property failure later, far from the mistake.
 */
import { InvalidArgument, invalid } from "../util/errors.ts";
import { describe, Strategy } from "./strategy.ts";

/** The largest size a collection may ask for when it gives none. */
const DEFAULT_MAX_SIZE = 2 ** 31 - 1;

/**
 * Checks a strategy's options object: absent, or an object whose own keys are all known. A misspelled option
 * would otherwise be silently ignored and the strategy would generate something other than what was asked.
 * Returns the options (an empty object when absent); each strategy then checks the values' types.
 */
export function checkOptions<O extends object>(
  api: string,
  options: O | undefined,
  known: readonly (keyof O & string)[],
): Partial<O> {
  if (options === undefined) return {};
  return guard(api, "reading the options", () => {
    if (typeof options !== "object" || options === null || Array.isArray(options) || options instanceof Strategy) {
      invalid(api, `options must be an object, got ${describe(options)}`);
    }
    for (const key of Object.keys(options)) {
      if ((known as readonly string[]).includes(key)) continue;
      const guess = closest(key, known);
      const hint = guess === undefined ? "" : `did you mean "${guess}"? `;
      invalid(
        api,
        `unknown option ${JSON.stringify(key)} (${hint}known: ${known.length === 0 ? "none" : known.join(", ")})`,
      );
    }
    // A snapshot, each option read once, here: a getter that throws (or a Proxy trap) fails now as
    // InvalidArgument naming the call, and one that answers differently on each read cannot slip a value past
    // the checks that follow.
    const snapshot: Partial<O> = {};
    for (const key of known) {
      const v = (options as Partial<O>)[key];
      if (v !== undefined) snapshot[key] = v;
    }
    return snapshot;
  });
}

/** The first line of a thrown value, for an error message; never throws. */

export function describeThrown(e: unknown): string {
  try {
    if (e instanceof Error) return `${String(e.name)}: ${String(e.message)}`.split("\n")[0];
    return `${describe(e)} (not an Error)`;
  } catch {
    return "an unreadable error";
  }
}

/**
 * Runs user code the API calls while constructing a strategy (extend, a shape's getters, an options Proxy):
 * anything it throws becomes InvalidArgument naming the call (the original as `cause`), so misuse is reported
 * as misuse, not as some raw error far from the call. InvalidArgument from a nested call passes unchanged: it
 * already names the call that was misused.
 */
export function guard<T>(api: string, what: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof InvalidArgument) throw e;
    throw new InvalidArgument(`${api}: ${what} threw ${describeThrown(e)}`, { cause: e });
  }
}

/** The known name a misspelling most likely meant: same letters ignoring case, or at most two edits away. */
function closest(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  let best: string | undefined;
  let bestDistance = 3;
  for (const name of known) {
    const d = name.toLowerCase() === lower ? 0 : editDistance(lower, name.toLowerCase());
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2 || a.length > 64 || b.length > 64) return 99;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length];
}

/** A boolean option: absent, or true or false (not a truthy string such as "no"). */
export function checkBoolean(api: string, name: string, v: unknown): asserts v is boolean | undefined {
  if (v !== undefined && typeof v !== "boolean") invalid(api, `${name} must be true or false, got ${describe(v)}`);
}

/** An integer option: absent, or a safe integer. */
export function checkInteger(api: string, name: string, v: unknown): asserts v is number | undefined {
  if (v === undefined) return;
  if (typeof v !== "number" || !Number.isSafeInteger(v))
    invalid(api, `${name} must be a safe integer, got ${describe(v)}`);
}

function checkSize(api: string, name: string, v: unknown): asserts v is number | undefined {
  if (v === undefined) return;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0)
    invalid(api, `${name} must be a non-negative integer, got ${describe(v)}`);
}

/** Sizes of a collection: non-negative integers, minSize at most maxSize; the defaults 0 and 2^31 − 1. */
export function checkSizes(api: string, minSize: unknown, maxSize: unknown): { minSize: number; maxSize: number } {
  checkSize(api, "minSize", minSize);
  checkSize(api, "maxSize", maxSize);
  const min = minSize ?? 0;
  const max = maxSize ?? DEFAULT_MAX_SIZE;
  if (min > max) invalid(api, `minSize (${min}) must not be greater than maxSize (${max})`);
  return { minSize: min, maxSize: max };
}

/**
 * Distinct elements for a collection of at least `minSize`: InvalidArgument when the elements' strategy has fewer
 * distinct values (st.lists(st.integers({ min: 0, max: 2 }), { unique: true, minSize: 5 }) cannot exist), instead of
 * a run in which every case is rejected for a reason the user cannot see.
 */
export function checkFillable(
  api: string,
  what: "elements" | "keys",
  strategy: { distinctValues(): number },
  minSize: number,
): void {
  const n = strategy.distinctValues();
  if (n < minSize)
    invalid(
      api,
      `minSize is ${minSize}, but the strategy of its ${what} has at most ${n} distinct value${n === 1 ? "" : "s"}: ${n} distinct value${n === 1 ? "" : "s"} cannot fill ${minSize}; lower minSize or widen that strategy`,
    );
}
