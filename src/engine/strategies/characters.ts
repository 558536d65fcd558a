/**
 * st.characters: one code point, drawn as a string choice of one character over the set the options leave:
 * the code points from `min` to `max`, in the given Unicode general categories, less `exclude`. The set is made
 * once, with the categories read from the running engine's own RegExp (`\p{General_Category=…}`), and ordered
 * for shrinking "0" first, then by code point (choice/intervals.ts), so the simplest character is "0" when
 * allowed, else the lowest allowed. The same set is an alphabet for st.text, which orders it as text does.
 */
import type { StringConstraints } from "../choice/types.ts";
import { IntervalSet } from "../choice/intervals.ts";
import type { TestCase } from "../core/testCase.ts";
import { invalid } from "../util/errors.ts";
import { describe, Strategy } from "./strategy.ts";
import { checkOptions, guard } from "./options.ts";
import { intersect, propertySet, subtract, union } from "./regex/charSets.ts";

export interface CharactersOptions {
  /** The lowest code point allowed (default 0). */
  min?: number;
  /** The highest code point allowed (default 0x10FFFF). */
  max?: number;
  /** Unicode general categories, one- or two-letter ("L", "Lu", "Nd", "Zs"): a character of any of them. */
  categories?: readonly string[];
  /** Characters never drawn: a string of them, or an array of such strings. */
  exclude?: string | readonly string[];
}

/** The general categories, as Unicode names them (and as `\p{General_Category=…}` takes them). */
const CATEGORIES = new Set(
  "L LC Lu Ll Lt Lm Lo M Mn Mc Me N Nd Nl No P Pc Pd Ps Pe Pi Pf Po S Sm Sc Sk So Z Zs Zl Zp C Cc Cf Cs Co Cn".split(
    " ",
  ),
);
const SURROGATES = new IntervalSet([[0xd800, 0xdfff]]);

/** The strategy st.characters makes; st.text takes one as its alphabet. */
export class Characters extends Strategy<string> {
  private readonly constraints: StringConstraints;
  /** `alphabet`: the characters allowed, in code-point order ("0" first). */
  constructor(readonly alphabet: IntervalSet) {
    super("character");
    this.constraints = { alphabet, minSize: 1, maxSize: 1 };
  }
  protected doDraw(tc: TestCase): string {
    return tc.drawString(this.constraints);
  }
}

function codePoint(api: string, name: string, v: unknown, fallback: number): number {
  if (v === undefined) return fallback;
  if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > 0x10ffff)
    invalid(api, `${name} must be a code point (an integer from 0 to 0x10FFFF), got ${describe(v)}`);
  return v as number;
}

/**
 * One character (a code point): from `min` to `max` (code points), in any of `categories`, never one of
 * `exclude`. Shrinks toward `"0"` if allowed, else the lowest allowed code point; lone surrogates only when
 * `categories` asks for `"Cs"` (or `"C"`). As an alphabet: `st.text({ alphabet: st.characters({ categories:
 * ["Lu"] }) })`.
 * @example st.characters({ categories: ["Lu", "Nd"] }) // "0", "A", "Ω", "٣", …
 * @example st.characters({ min: 0x20, max: 0x7e, exclude: "0" }) // printable ASCII; shrinks toward " "
 */
export function characters(options?: CharactersOptions): Characters {
  const api = "st.characters";
  const o = checkOptions(api, options, ["min", "max", "categories", "exclude"]);
  const min = codePoint(api, "min", o.min, 0);
  const max = codePoint(api, "max", o.max, 0x10ffff);
  if (min > max) invalid(api, `min (${min}) must not be greater than max (${max})`);
  let set = new IntervalSet([[min, max]]);
  const categories = o.categories as unknown;
  if (categories !== undefined) {
    const names = guard(api, "reading categories", () => {
      if (!Array.isArray(categories))
        invalid(api, `categories must be an array of category names, got ${describe(categories)}`);
      return [...(categories as unknown[])];
    });
    if (names.length === 0) invalid(api, "categories is empty, so no character is allowed");
    for (const c of names)
      if (typeof c !== "string" || !CATEGORIES.has(c))
        invalid(api, `unknown Unicode general category ${describe(c)} (known: ${[...CATEGORIES].join(", ")})`);
    set = intersect(set, union(...(names as string[]).map((c) => propertySet("General_Category", c))));
    if (!names.includes("Cs") && !names.includes("C")) set = subtract(set, SURROGATES);
  } else set = subtract(set, SURROGATES);
  const exclude = o.exclude as unknown;
  if (exclude !== undefined) {
    const strings = guard(api, "reading exclude", () =>
      Array.isArray(exclude) ? [...(exclude as unknown[])] : [exclude],
    );
    for (const x of strings)
      if (typeof x !== "string")
        invalid(api, `exclude must be a string of characters or an array of strings, got ${describe(exclude)}`);
    set = subtract(set, IntervalSet.fromString((strings as string[]).join("")));
  }
  if (set.size === 0) invalid(api, "no character is left: the range, the categories and exclude leave an empty set");
  return new Characters(set.inOrder("codePoint"));
}
