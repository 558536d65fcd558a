/**
 * Strings with fast-check's defaults: fc.string() is printable ASCII (its default unit, "grapheme-ascii"); another
 * unit picks the alphabet, and an arbitrary as the unit makes a string of its values joined, its length counted in
 * units as fast-check counts it. fc.stringMatching is st.fromRegex.
 */
import type { Characters } from "../strategies/characters.ts";
import { InvalidArgument, st, Strategy } from "./engine.ts";
import { Arbitrary } from "./arbitrary.ts";
import { typeName, constraintsOf, lengths, numberOr, SIZE_ONLY } from "./options.ts";

/** The alphabet of each of fast-check's named units (code point ranges), one code point per unit. */
const UNITS: Record<string, readonly (readonly [number, number])[] | (() => Characters)> = {
  "grapheme-ascii": [[0x20, 0x7e]],
  "binary-ascii": [[0x00, 0x7f]],
  binary: [
    [0x0000, 0xd7ff],
    [0xe000, 0x10ffff],
  ],
  // Printable graphemes, as single code points (fast-check's "grapheme" may join several into one).
  grapheme: () => st.characters({ categories: ["L", "M", "N", "P", "S", "Zs"] }),
  "grapheme-composite": () => st.characters({ categories: ["L", "N", "P", "S", "Zs"] }),
};

export interface StringConstraints {
  minLength?: number;
  maxLength?: number;
  unit?: "grapheme" | "grapheme-composite" | "grapheme-ascii" | "binary" | "binary-ascii" | Strategy<string>;
  size?: unknown;
}

/** A string of `unit`s (default printable ASCII), minLength to maxLength of them. */
export function string(constraints?: StringConstraints): Arbitrary<string> {
  const api = "fc.string";
  const o = constraintsOf(api, constraints, ["minLength", "maxLength", "unit"], SIZE_ONLY);
  const { minSize, maxSize } = lengths(api, o);
  const unit = o.unit ?? "grapheme-ascii";
  if (unit instanceof Strategy)
    return new Arbitrary(st.lists(unit as Strategy<string>, { minSize, maxSize }).map((parts) => parts.join("")));
  const alphabet = typeof unit === "string" ? UNITS[unit] : undefined;
  if (alphabet === undefined)
    throw new InvalidArgument(
      `${api}: unit must be one of ${Object.keys(UNITS)
        .map((u) => `"${u}"`)
        .join(", ")} or an arbitrary of strings, got ${typeName(unit)}`,
    );
  return new Arbitrary(st.text({ alphabet: typeof alphabet === "function" ? alphabet() : alphabet, minSize, maxSize }));
}

/** Strings `regex` matches (anywhere in them, as `regex.test` does). */
export function stringMatching(regex: RegExp, constraints?: { size?: unknown }): Arbitrary<string> {
  constraintsOf("fc.stringMatching", constraints, [], SIZE_ONLY);
  return new Arbitrary(st.fromRegex(regex));
}

/** The words fc.lorem draws from. */
const LOREM_WORDS = (
  "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore " +
  "magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi aliquip ex ea commodo consequat " +
  "duis aute irure in reprehenderit voluptate velit esse cillum eu fugiat nulla pariatur excepteur sint occaecat " +
  "cupidatat non proident sunt culpa qui officia deserunt mollit anim id est laborum"
).split(" ");

/**
 * Placeholder text, as fast-check's fc.lorem: 1 to maxCount (5) words joined by spaces, or in mode "sentences" 1 to
 * maxCount sentences (each capitalised, ending with "."); shrinking toward fewer, earlier words.
 */
export function lorem(constraints?: {
  maxCount?: number;
  mode?: "words" | "sentences";
  size?: unknown;
}): Arbitrary<string> {
  const api = "fc.lorem";
  const o = constraintsOf(api, constraints, ["maxCount", "mode"], SIZE_ONLY);
  const maxCount = o.maxCount === undefined ? 5 : numberOr(api, o, "maxCount", 1);
  const mode = o.mode ?? "words";
  if (mode !== "words" && mode !== "sentences")
    throw new InvalidArgument(`${api}: mode must be "words" or "sentences", got ${typeName(mode)}`);
  const words = (max: number) => st.lists(st.sampledFrom(LOREM_WORDS), { minSize: 1, maxSize: max });
  if (mode === "words") return new Arbitrary(words(maxCount).map((ws) => ws.join(" ")));
  const sentence = words(10).map((ws) => {
    const text = ws.join(" ");
    return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
  });
  return new Arbitrary(st.lists(sentence, { minSize: 1, maxSize: maxCount }).map((ss) => ss.join(" ")));
}
