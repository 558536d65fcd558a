// st.characters and st.text({ alphabet: st.characters(…) }): the strategy laws (laws.ts) with RegExp's own
// \p{…} as the oracle; the simplest character by the pinned rule; misuse named.
import { test } from "node:test";
import assert from "node:assert/strict";
import { find, st } from "../../../src/engine/index.ts";
import { strategyLaws, valuesOf } from "./laws.ts";

const QUIET = { database: null, deadline: null, seed: 1 } as const;
const oneCodePoint = (c: string) => typeof c === "string" && [...c].length === 1;
/** No lone surrogate (String.prototype.isWellFormed, which Node 20 has and the TypeScript lib here does not). */
const wellFormed = (s: string) => !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

strategyLaws({
  name: "st.characters()",
  strategy: st.characters(),
  valid: (c) => (oneCodePoint(c) && wellFormed(c)) || `not one well-formed code point: ${JSON.stringify(c)}`,
  simplest: "0",
  boundaries: {
    "an astral character": (c) => c.codePointAt(0)! > 0xffff,
    "a control character": (c) => /\p{Cc}/u.test(c),
  },
  badOptions: [
    [() => st.characters({ categories: ["Xx"] }), /^st\.characters: unknown Unicode general category string "Xx"/],
    [() => st.characters({ categories: [] }), /^st\.characters: categories is empty/],
    [() => st.characters({ min: 10, max: 5 }), /^st\.characters: min \(10\) must not be greater than max \(5\)/],
    [() => st.characters({ max: 0x110000 }), /^st\.characters: max must be a code point/],
    [() => st.characters({ min: 48, max: 48, exclude: "0" }), /^st\.characters: no character is left/],
    [
      () => st.characters({ exclude: 5 as never }),
      /^st\.characters: exclude must be a string of characters or an array of strings, got number 5/,
    ],
    [
      () => st.characters({ exclude: ["a", 5] as never }),
      /^st\.characters: exclude must be a string of characters or an array of strings/,
    ],
    [() => st.characters({ min: 0x41, max: 0x42, exclude: ["A", "B"] }), /^st\.characters: no character is left/],
    [() => st.characters({ category: ["Lu"] } as never), /^st\.characters: unknown option "category"/],
  ],
});

strategyLaws({
  name: 'st.characters({ categories: ["Lu"] })',
  strategy: st.characters({ categories: ["Lu"] }),
  valid: (c) => (oneCodePoint(c) && /^\p{Lu}$/u.test(c)) || `not an upper-case letter: ${JSON.stringify(c)}`,
  simplest: "A",
  boundaries: { "a non-ASCII capital": (c) => c.codePointAt(0)! > 127 },
  seeds: 5,
});

strategyLaws({
  name: 'st.characters({ categories: ["Nd"] })',
  strategy: st.characters({ categories: ["Nd"] }),
  valid: (c) => (oneCodePoint(c) && /^\p{Nd}$/u.test(c)) || `not a decimal digit: ${JSON.stringify(c)}`,
  simplest: "0",
  boundaries: { "a non-ASCII digit": (c) => c > "9", "an astral digit": (c) => c.codePointAt(0)! > 0xffff },
  seeds: 5,
});

// Without "0", the lowest allowed: the space (U+0020), below "1".
strategyLaws({
  name: 'st.characters({ categories: ["Nd", "Zs"], exclude: "0" })',
  strategy: st.characters({ categories: ["Nd", "Zs"], exclude: "0" }),
  valid: (c) =>
    (oneCodePoint(c) && /^[\p{Nd}\p{Zs}]$/u.test(c) && c !== "0") || `not a digit or space: ${JSON.stringify(c)}`,
  simplest: " ",
  boundaries: { "a space": (c) => /\p{Zs}/u.test(c), "a non-ASCII digit": (c) => /\p{Nd}/u.test(c) && c > "9" },
  seeds: 5,
});

strategyLaws({
  name: 'st.characters({ min: 0x20, max: 0x7e, exclude: ["0", "aeiou"] })',
  strategy: st.characters({ min: 0x20, max: 0x7e, exclude: ["0", "aeiou"] }),
  valid: (c) => (/^[ -~]$/.test(c) && !/[0aeiou]/.test(c)) || `not printable ASCII less 0 and vowels: ${c}`,
  simplest: " ",
  boundaries: { "a tilde": (c) => c === "~", "a letter": (c) => /[a-z]/i.test(c) },
  seeds: 5,
});

strategyLaws({
  name: "st.characters({ min: 0x3b1, max: 0x3c9 })",
  strategy: st.characters({ min: 0x3b1, max: 0x3c9 }),
  valid: (c) => (c >= "α" && c <= "ω" && oneCodePoint(c)) || `outside α–ω: ${JSON.stringify(c)}`,
  simplest: "α",
  seeds: 3,
});

strategyLaws({
  name: 'st.text({ alphabet: st.characters({ categories: ["Ll"] }) })',
  strategy: st.text({ alphabet: st.characters({ categories: ["Ll"] }) }),
  valid: (s) => /^\p{Ll}*$/u.test(s) || `a character that is not lower case: ${JSON.stringify(s)}`,
  simplest: "",
  seeds: 5,
});

test('a character shrinks toward "0", then by code point; a text of them as every text does', () => {
  // By code point once "0" is out of the way: "\0" is simpler than "1", and the first lower-case letter is "a".
  assert.equal(
    find(st.characters({ exclude: "0" }), () => true, QUIET),
    "\0",
  );
  assert.equal(
    find(st.characters({ exclude: "0" }), (c) => /[a-z]/.test(c), QUIET),
    "a",
  );
  assert.equal(
    find(st.characters(), (c) => c !== "0", QUIET),
    "\0",
  );
  assert.equal(
    find(st.characters({ min: 0x31 }), (c) => c > "z", QUIET),
    "{",
  );
  // A text's characters keep the text order, "0" to "\x7f" first: "1" before "\0".
  const digitsOrNot = st.text({ alphabet: st.characters({ exclude: "0" }), minSize: 2 });
  assert.equal(
    find(digitsOrNot, () => true, QUIET),
    "11",
  );
  const c: string = find(st.characters({ categories: ["Lu"] }), (c) => c > "Z", QUIET);
  assert.equal(c, "\u00c0");
});

test("lone surrogates only when asked for; a text's sizes count code points", () => {
  assert.ok(valuesOf(st.characters(), 2, 2000).every((c) => wellFormed(c)));
  assert.ok(valuesOf(st.characters({ categories: ["Cs"] }), 2, 200).every((c) => /^[\ud800-\udfff]$/.test(c)));
  const astral = find(
    st.text({ alphabet: st.characters({ min: 0x10000 }), minSize: 3, maxSize: 3 }),
    () => true,
    QUIET,
  );
  assert.equal([...astral].length, 3);
  assert.equal(astral.length, 6, "three astral code points are six UTF-16 units");
});
