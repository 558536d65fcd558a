/** st.text: one string choice over an alphabet; sizes count code points; shrinks shorter, then toward "0". */
import type { StringConstraints } from "../choice/types.ts";
import { invalid } from "../util/errors.ts";
import { IntervalSet } from "../choice/intervals.ts";
import type { TestCase } from "../core/testCase.ts";
import { describe, Strategy } from "./strategy.ts";
import { checkOptions, checkSizes, guard } from "./options.ts";
import { Characters } from "./characters.ts";

/** Every code point except the surrogates (which cannot stand alone in well-formed text). */
const DEFAULT_ALPHABET = new IntervalSet([
  [0, 0xd7ff],
  [0xe000, 0x10ffff],
]);

export interface TextOptions {
  /**
   * Characters allowed: a string of them, [from, to] code-point ranges, or an `st.characters(…)` strategy
   * (default: all but surrogates).
   */
  alphabet?: string | readonly (readonly [number, number])[] | Characters;
  minSize?: number;
  maxSize?: number;
}

class Text extends Strategy<string> {
  constructor(readonly constraints: StringConstraints) {
    super(undefined);
  }
  protected doDraw(tc: TestCase): string {
    return tc.drawString(this.constraints);
  }
  // Overridden (no span to open): each strategy class calls its own doDraw, so the call stays monomorphic.
  override draw(tc: TestCase): string {
    return tc.drawString(this.constraints);
  }
}

/** Strings; sizes count code points. Shrinks to shorter, then toward "0". */
export function text(options?: TextOptions): Strategy<string> {
  const api = "st.text";
  const o = checkOptions(api, options, ["alphabet", "minSize", "maxSize"]);
  const { minSize, maxSize } = checkSizes(api, o.minSize, o.maxSize);
  let alphabet = DEFAULT_ALPHABET;
  const a = o.alphabet;
  if (typeof a === "string") alphabet = IntervalSet.fromString(a);
  // Its characters, shrinking as every text's do (toward "0", then "1": a character's own order is "0", then
  // the lowest).
  else if (a instanceof Characters) alphabet = a.alphabet.inOrder("text");
  else if (Array.isArray(a)) {
    // Each range read once, into a copy: a getter or Proxy trap that throws is InvalidArgument naming the call,
    // and the ranges checked are the ranges used.
    const ranges = guard(api, "reading the alphabet", () =>
      (a as unknown[]).map((r): unknown => (Array.isArray(r) && r.length === 2 ? [r[0], r[1]] : r)),
    );
    for (const r of ranges) {
      const codePoint = (x: unknown): boolean => Number.isInteger(x) && (x as number) >= 0 && (x as number) <= 0x10ffff;
      // Indexed rather than every(), which skips holes: [ , ] must not pass as a range.
      if (!Array.isArray(r) || r.length !== 2 || !codePoint(r[0]) || !codePoint(r[1]) || r[0] > r[1]) {
        invalid(api, `alphabet ranges must be [from, to] code points with from <= to, got ${describeRange(r)}`);
      }
    }
    alphabet = new IntervalSet(ranges as [number, number][]);
  } else if (a !== undefined)
    invalid(api, `alphabet must be a string or an array of [from, to] ranges, got ${describe(a)}`);
  // An empty alphabet can only make "", which is st.just("") — far more likely a mistake than a wish.
  if (alphabet.size === 0)
    invalid(
      api,
      minSize > 0
        ? `the alphabet is empty but minSize is ${minSize}`
        : `the alphabet is empty, so the only string is "" (use st.just("") for that)`,
    );
  return new Text({ alphabet, minSize, maxSize });
}

function describeRange(r: unknown): string {
  try {
    return JSON.stringify(r) ?? describe(r);
  } catch {
    return describe(r);
  }
}
