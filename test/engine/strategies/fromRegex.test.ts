// st.fromRegex: the strategy laws (laws.ts) over a dozen patterns that between them use every construct and flag
// it supports, each judged by the RegExp itself; the simplest value of each construct; the character sets against
// the engine's RegExp character by character; misuse; and a bug a validator hides from hand-picked inputs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { RegExpParser } from "@eslint-community/regexpp";
import { check, find, InvalidArgument, property, PropertyFailure, st } from "../../../src/engine/index.ts";
import type { Settings } from "../../../src/engine/index.ts";
import { compile } from "../../../src/engine/strategies/regex/plan.ts";
import { strategyLaws } from "./laws.ts";

const QUIET: Settings = { database: null, deadline: null };

/** The RegExp's verdict: `s` holds a match, or (full) is one. */
function matches(pattern: RegExp, full: boolean): (s: string) => true | string {
  const flags = pattern.flags.replace(/[gy]/g, "");
  const re = full ? new RegExp(`^(?:${pattern.source})$`, flags.replace("m", "")) : new RegExp(pattern.source, flags);
  return (s) => (typeof s === "string" && re.test(s)) || `does not ${full ? "fully " : ""}match ${pattern}`;
}

/** The laws for one pattern, judged by the RegExp. */
function laws(
  pattern: RegExp,
  full: boolean,
  simplest: string,
  extra: Pick<Parameters<typeof strategyLaws<string>>[0], "boundaries" | "badOptions"> = {},
): void {
  strategyLaws({
    name: `st.fromRegex(${pattern}${full ? ", { fullMatch: true }" : ""})`,
    strategy: st.fromRegex(pattern, { fullMatch: full }),
    valid: matches(pattern, full),
    simplest,
    ...extra,
  });
}

// ------------------------------------------------------------------------------------------------ the laws

// Characters, classes with ranges, escapes, quantifiers at their bounds.
laws(/\d{3}-[a-f\d]{2,5}/, true, "000-00", {
  boundaries: {
    "2 repetitions": (s) => s.length === 6,
    "5 repetitions": (s) => s.length === 9,
  },
  badOptions: [
    [() => st.fromRegex(/a/, { fullmatch: true } as never), /^st\.fromRegex: unknown option "fullmatch"/],
    [() => st.fromRegex(/a/, { fullMatch: "yes" } as never), /^st\.fromRegex: fullMatch must be true or false/],
  ],
});
// Negated classes, \w \s \D, `.` without `s` (never a line terminator), lazy quantifiers.
laws(/[^aeiou\s]\w*?\s\D+?.{1,3}/, true, "0\t:0");
// Alternation (shortest first), groups, back-references by number and by name.
laws(/(?:cat|dog|(bird)s?)=(?<q>['"]).*\k<q>\1/, true, 'cat=""');
// Case-insensitive, with anchors and padding around the match.
laws(/^(?:abc|xyz)-[k-s]+$/i, false, "abc-k");
// Word boundaries inside padding.
laws(/\bfoo\b/, false, "foo");
// Multiline anchors: the match sits on a line of its own.
laws(/^\w+$/m, false, "0");
// `s`: `.` matches line terminators too.
laws(/a.b/s, true, "a0b", { boundaries: { "a line terminator": (s) => /[\n\r\u2028\u2029]/.test(s) } });
// `u`: Unicode property escapes and astral characters.
laws(/\p{Lu}\p{Ll}+[😀-😂]?/u, true, "Aa", { boundaries: { "an emoji": (s) => /[😀-😂]/u.test(s) } });
// `u` with `i`: ſ and K are word characters, and fold into s and k.
laws(new RegExp("[\\w--\\d]{2}", "iv"), true, "AA");
// A look-ahead, checked by the RegExp.
laws(/(?=\d{2})\w{2,4}/, true, "00");
// Nested quantifiers over groups, and an empty alternative.
laws(/(?:(a|b)(?:c|)){1,3}\1?/, true, "a");
// Padding on both sides, and `\B`.
laws(/x\By/, false, "xy");

// ------------------------------------------------------------------------------------------------ simplest

test("the simplest string of each construct is its shortest match, with the simplest characters", () => {
  const cases: [RegExp | string, boolean, string][] = [
    [/a+b?/, true, "a"],
    [/\d{3}-\d{2}/, true, "000-00"],
    ["\\d{3}-\\d{2}", true, "000-00"],
    [/[a-z]+@x\.com/, true, "a@x.com"],
    [/aaa|b|cc/, true, "b"],
    [/(?:ab)*c/, true, "c"],
    [/x{2,}?/, true, "xx"],
    [/[^a-z]/, true, "0"],
    [/\w\s\S\W/, true, "0\t0:"],
    [/./, true, "0"],
    [/(x|y)\1/, true, "xx"],
    [/(?<n>q)\k<n>/, true, "qq"],
    [/HELLO/i, true, "HELLO"],
    [/hello/i, true, "hello"],
    [/[a-z]/i, true, "a"],
    [/\p{Nd}/u, true, "0"],
    [new RegExp("[\\p{L}--[a-z]]", "v"), true, "A"],
    [/^$/, false, ""],
    [/cat/, false, "cat"],
    [/^cat/, false, "cat"],
    [/\bcat\b/, false, "cat"],
    [/\b/, false, "0"],
    [/a\b/, true, "a"],
    [/(?=a)a/, false, "a"],
  ];
  for (const [pattern, fullMatch, simplest] of cases) {
    assert.equal(
      find(st.fromRegex(pattern, { fullMatch }), () => true, QUIET),
      simplest,
      String(pattern),
    );
  }
});

test("within 1,000 draws a bounded repetition takes both of its bounds, even far apart", () => {
  const counts = new Set<number>();
  check(
    property(st.fromRegex(/x{3,40}/, { fullMatch: true }), (s) => {
      counts.add(s.length);
    }),
    { ...QUIET, seed: 1, maxExamples: 1000 },
  );
  assert.ok(counts.has(3) && counts.has(40), `counts seen: ${[...counts].sort((a, b) => a - b).join(", ")}`);
});

test("without fullMatch the match is padded with arbitrary text, except where an anchor rules it out", () => {
  const seen = { before: false, after: false };
  check(
    property(st.fromRegex(/ab/), (s) => {
      const at = s.indexOf("ab");
      if (at > 0) seen.before = true;
      if (at >= 0 && at + 2 < s.length) seen.after = true;
    }),
    { ...QUIET, seed: 3, maxExamples: 200 },
  );
  assert.deepEqual(seen, { before: true, after: true });
  check(
    property(st.fromRegex(/^ab$/), (s) => assert.equal(s, "ab")),
    { ...QUIET, seed: 3, maxExamples: 50 },
  );
});

// ------------------------------------------------------------------------------------------------ sets

test("each character set is the set the engine's RegExp matches, character by character", () => {
  const classes = ["[a-z]", "[^a-z]", "\\w", "\\W", "[^\\W\\d]", "\\s", "\\S", "\\D", ".", "k", "ß", "[ſ]"];
  const unicodeOnly = ["\\p{Lu}", "\\P{Lu}", "[^\\p{L}\\d]", "\\u{1F600}"];
  const modes = ["", "i", "s", "u", "iu", "isu", "v"];
  const codePoints: number[] = [];
  for (let cp = 0; cp <= 0xffff; cp += cp < 0x3000 ? 1 : 7) codePoints.push(cp);
  for (let cp = 0x10000; cp <= 0x10ffff; cp += 4099) codePoints.push(cp);
  codePoints.push(0x1f600, 0x10400, 0x10428);
  for (const flags of modes) {
    const unicode = /[uv]/.test(flags);
    for (const source of unicode ? [...classes, ...unicodeOnly] : classes) {
      const re = new RegExp(`^(?:${source})$`, flags);
      const ast = new RegExpParser().parsePattern(source, 0, source.length, {
        unicode: flags.includes("u"),
        unicodeSets: flags.includes("v"),
      });
      const compiled = compile(
        ast,
        {
          unicode: flags.includes("u"),
          unicodeSets: flags.includes("v"),
          ignoreCase: flags.includes("i"),
          dotAll: flags.includes("s"),
          multiline: false,
        },
        "test",
        source,
      );
      assert.ok(compiled !== null);
      const plan = compiled.plan;
      const has = (cp: number): boolean =>
        plan.kind === "text"
          ? plan.text === String.fromCodePoint(cp)
          : plan.kind === "char" && plan.parts.some((p) => p.set.contains(cp));
      const wrong = codePoints.filter(
        (cp) => (unicode || cp <= 0xffff) && re.test(String.fromCodePoint(cp)) !== has(cp),
      );
      assert.deepEqual(
        wrong.slice(0, 5).map((cp) => cp.toString(16)),
        [],
        `/${source}/${flags}`,
      );
    }
  }
});

// ------------------------------------------------------------------------------------------------ misuse

test("bad patterns and options are InvalidArguments naming st.fromRegex and what is wrong", () => {
  const cases: [() => unknown, RegExp][] = [
    [() => st.fromRegex("a("), /^st\.fromRegex: "a\(" is not a valid regular expression: SyntaxError/],
    [() => st.fromRegex(42 as never), /^st\.fromRegex: pattern must be a RegExp or a string, got number 42/],
    [() => st.fromRegex(null as never), /^st\.fromRegex: pattern must be a RegExp or a string, got null/],
    [() => st.fromRegex(/(?<=a)b/), /^st\.fromRegex: \/\(\?<=a\)b\/: a look-behind \(\(\?<=…\)\) is not supported/],
    [() => st.fromRegex(/(?<!a)b/), /^st\.fromRegex: .*a look-behind \(\(\?<!…\)\) is not supported/],
    [
      () => st.fromRegex(new RegExp("[\\q{ab}]", "v")),
      /^st\.fromRegex: .*a string in a class \(\\q\{ab\}\) is not supported/,
    ],
    [
      () => st.fromRegex(new RegExp("\\p{RGI_Emoji}", "v")),
      /^st\.fromRegex: .*a property of strings \(\\p\{RGI_Emoji\}\) is not supported/,
    ],
    [() => st.fromRegex(/[^\s\S]/), /^st\.fromRegex: \/\[\^\\s\\S\]\/ matches no string/],
    [() => st.fromRegex(/a[]b|c[^\d\D]/), /^st\.fromRegex: .* matches no string/],
    [
      () => st.fromRegex(/a/, { fullMatch: 1 } as never),
      /^st\.fromRegex: fullMatch must be true or false, got number 1/,
    ],
    [() => st.fromRegex(/a/, { full: true } as never), /^st\.fromRegex: unknown option "full"/],
    [() => st.fromRegex(/a/, "full" as never), /^st\.fromRegex: options must be an object/],
  ];
  for (const [make, message] of cases)
    assert.throws(make, (e: unknown) => e instanceof InvalidArgument && message.test(e.message), String(message));
  // An impossible alternative is left out rather than refused.
  assert.equal(
    find(st.fromRegex(/[^\s\S]|z/, { fullMatch: true }), () => true, QUIET),
    "z",
  );
});

// ------------------------------------------------------------------------------------------------ a bug

/** The account-number format the validator below is meant to accept: country, check digits, 1 to 30 more. */
const IBAN_LIKE = /^[A-Z]{2}\d{2}[A-Z0-9]{1,30}$/;

/**
 * A hand-written check of IBAN_LIKE, as one is written for speed: the account part is read into a buffer of 30
 * characters, and its bound is checked with `<` where it needed `<=` — so the longest valid numbers, 34
 * characters, are refused.
 */
function ibanShapeOk(s: string): boolean {
  const upper = (c: string) => c >= "A" && c <= "Z";
  const digit = (c: string) => c >= "0" && c <= "9";
  if (s.length < 5 || !upper(s[0]) || !upper(s[1]) || !digit(s[2]) || !digit(s[3])) return false;
  const account = s.slice(4);
  if (account.length < 30 === false) return false; // the bug: a 30-character account part is valid
  for (const c of account) if (!upper(c) && !digit(c)) return false;
  return true;
}

test("a validator that refuses the longest valid account numbers is found within 100 examples, minimal", () => {
  assert.ok(ibanShapeOk("DE89370400440532013000") && !ibanShapeOk("DE8937040044053201300X?"));
  for (let seed = 1; seed <= 5; seed++) {
    let failure: PropertyFailure | undefined;
    try {
      check(
        property(st.fromRegex(IBAN_LIKE), (s) => assert.ok(ibanShapeOk(s))),
        { ...QUIET, seed, maxExamples: 100 },
      );
    } catch (e) {
      if (!(e instanceof PropertyFailure)) throw e;
      failure = e;
    }
    assert.ok(failure !== undefined, `seed ${seed}: not found in 100 examples`);
    assert.deepEqual(failure.args, [`AA00${"0".repeat(30)}`], `seed ${seed}`);
  }
});
