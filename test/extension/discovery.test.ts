// Discovery finds the tests in a file without a parser, for the "Run property" CodeLens and the Test Explorer.
// These tests pin what those features rely on: names and suite paths in each runner's style, which tests are
// properties, ranges and insertion points, that text inside comments/strings/regexes/JSX is never mistaken for a
// test, that half-typed code never throws and never hides the tests before it, and the speed bar.
//
// Fixtures end in `.txt` (`vitest.ts.txt`, …) so that tsc, test runners and linters leave them alone: they import
// packages this repository does not have, on purpose, because they are realistic user files.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { discoverProperties, discoverTests, propertiesOfFile } from "../../src/extension/discovery.ts";
import type { DiscoveredTest } from "../../src/extension/discovery.ts";
import { check, property, st } from "../../src/engine/index.ts";

const FIXTURES = path.join(__dirname, "fixtures");
const FIXTURE_NAMES = fs.readdirSync(FIXTURES).filter((f) => f.endsWith(".txt"));

function fixture(name: string): string {
  return fs.readFileSync(path.join(FIXTURES, name), "utf8");
}

/** Discovers in a fixture as the extension would, with the real file name (it picks the JSX default). */
function discoverFixture(name: string): DiscoveredTest[] {
  return discoverTests(fixture(name), { fileName: name.replace(/\.txt$/, "") });
}

/** A compact view of a result: "P " for properties, then the path joined by " > ". */
function summary(tests: readonly DiscoveredTest[]): string[] {
  return tests.map((t) => `${t.isProperty ? "P" : "-"} ${t.path.join(" > ")}`);
}

function byName(tests: readonly DiscoveredTest[], name: string): DiscoveredTest {
  const found = tests.find((t) => t.path[t.path.length - 1] === name);
  assert.ok(found, `no test named ${JSON.stringify(name)} in ${JSON.stringify(summary(tests))}`);
  return found;
}

/** 0-based line/character of the first occurrence of `needle`, to state expected positions readably. */
function positionOf(source: string, needle: string, from = 0): { offset: number; line: number; character: number } {
  const offset = source.indexOf(needle, from);
  assert.ok(offset >= 0, `fixture lacks ${needle}`);
  const before = source.slice(0, offset).split("\n");
  return { offset, line: before.length - 1, character: before[before.length - 1]!.length };
}

describe("runner styles", () => {
  test("node:test: describe/test/it, options argument, .skip, const-bound, check and find properties", () => {
    const tests = discoverFixture("node-test.ts.txt");
    assert.deepEqual(summary(tests), [
      "P codec > round-trips any bytes",
      "P codec > encoding is deterministic",
      "- codec > encodes the empty array as the empty string",
      "P codec > lengths > output length is a multiple of 4",
      "P codec > lengths > finds a long input",
      "- top-level, not a property",
    ]);
    assert.deepEqual(
      tests.map((t) => t.kind),
      ["test", "test", "it", "test", "test", "test"],
    );
    assert.deepEqual(
      tests.map((t) => t.propertyCall?.callee),
      ["property", "property", undefined, "check", "find", undefined],
    );
  });

  test("vitest: .concurrent, .each(table)(name), .only with a template name, .todo, a timeout after the callback", () => {
    assert.deepEqual(summary(discoverFixture("vitest.ts.txt")), [
      "P sortBy > is idempotent",
      "P sortBy > keeps every element",
      "- sortBy > sorts %j to %j",
      '- sortBy > handles the "already sorted" case',
      "- uniq > preserves first occurrence",
      "P uniq > never grows",
    ]);
  });

  test("jest: require()d properties, fit, describe.each, a template name with ${} kept raw", () => {
    const tests = discoverFixture("jest.js.txt");
    assert.deepEqual(summary(tests), [
      "P query-string > parse . stringify is identity on flat records",
      "- query-string > escapes '&' and '='",
      "- query-string > rejects a bare '?'",
      "P query-string > with %s > round-trips in ${encoding}",
    ]);
    assert.equal(tests[2]!.kind, "fit");
  });

  test("mocha: nested describe/context, specify, a namespace require (ss.property), .timeout chains, xit", () => {
    const tests = discoverFixture("mocha.cjs.txt");
    assert.deepEqual(summary(tests), [
      "- LRU > when empty > has size 0",
      "P LRU > with capacity n > never holds more than n entries",
      "- LRU > with capacity n > eviction > evicts the least recently used key",
      'P LRU > with capacity n > eviction > agrees with a model: "Map + order"',
      "- LRU > is pending",
    ]);
    assert.deepEqual(
      tests.map((t) => t.kind),
      ["it", "specify", "it", "it", "xit"],
    );
    assert.equal(tests[3]!.propertyCall?.callee, "check");
  });

  test("suites are not reported as tests, only as path segments", () => {
    const names = discoverTests('describe("a", () => { suite("b", () => { test("c", () => {}); }); });').map(
      (t) => t.path,
    );
    assert.deepEqual(names, [["a", "b", "c"]]);
  });
});

describe("names", () => {
  test("escapes in string names are decoded; quotes of the other kind survive", () => {
    const tests = discoverFixture("tricky.ts.txt");
    byName(tests, 'escapes: tab\there, "quotes", \u00e9, A, it\'s');
    const src = String.raw`test("say \"hi\"\n", () => {}); it('it\'s \u{1F600}', () => {}); test("a\
b", () => {});`;
    assert.deepEqual(
      discoverTests(src).map((t) => t.path[0]),
      ['say "hi"\n', "it's \u{1F600}", "ab"],
    );
  });

  test("template literals: plain ones are cooked, ones with ${} keep the raw text between backticks", () => {
    const src = [
      "test(`plain \\`ticks\\` and \\u0041`, () => {});",
      'test(`case ${fn({ a: "}" })} and ${`nested ${1}`}`, () => {});',
      "describe(`suite`, () => { it(`x`, () => {}); });",
    ].join("\n");
    assert.deepEqual(
      discoverTests(src).map((t) => t.path),
      [["plain `ticks` and A"], ['case ${fn({ a: "}" })} and ${`nested ${1}`}'], ["suite", "x"]],
    );
  });

  test("a non-literal name is its raw source text", () => {
    const tests = discoverFixture("tricky.ts.txt");
    byName(tests, 'modes[1] + " mode"');
    assert.deepEqual(discoverTests("describe(MyClass, () => { test(MyClass.name + ' works', () => {}) })")[0]!.path, [
      "MyClass",
      "MyClass.name + ' works'",
    ]);
  });
});

describe("which tests are properties", () => {
  test("inline property(), a const bound to property(), check() or find() in the body", () => {
    const src = [
      'import { property, check, find, st } from "shrinkscope";',
      'test("inline", property(st.integers(), (n) => {}));',
      "const sorted = property(st.lists(st.integers()), (xs) => {});",
      "let typed: Property<[number]> = property(st.integers(), (n) => {});",
      'test("via const", sorted);',
      'test("via typed let", typed);',
      'test("check in body", async () => { await check(sorted, { seed: 1 }); });',
      'test("find in body", () => { const m = find(st.integers(), (n) => n > 9); });',
      'test("plain", () => { expect([1].find((x) => x > 0)).toBe(1); });',
      'test("method calls named like ours", () => { validator.check(x); obj?.property(1); });',
      'test("ident not bound to a property", helper);',
    ].join("\n");
    const tests = discoverTests(src);
    assert.deepEqual(summary(tests), [
      "P inline",
      "P via const",
      "P via typed let",
      "P check in body",
      "P find in body",
      "- plain",
      "- method calls named like ours",
      "- ident not bound to a property",
    ]);
    assert.deepEqual(
      summary(discoverProperties(src)),
      summary(tests).filter((s) => s.startsWith("P")),
    );
  });

  test("propertyCall points at the call in the body, or at the binding for a const callback", () => {
    const src = fixture("node-test.ts.txt");
    const tests = discoverTests(src);
    const viaConst = byName(tests, "round-trips any bytes").propertyCall!;
    const binding = positionOf(src, "property(byteArrays, (bytes: Uint8Array)");
    assert.deepEqual(viaConst, { ...binding, callee: "property" });
    const inCheck = byName(tests, "output length is a multiple of 4").propertyCall!;
    assert.deepEqual(inCheck, { ...positionOf(src, "check(property(byteArrays"), callee: "check" });
  });

  test("a name resolves to the declaration visible where the test is: sibling describes each bind their own `p`", () => {
    const src = [
      'import { describe, test } from "node:test";',
      'import { property, st } from "shrinkscope";',
      'describe("first", () => {',
      "  const p = property(st.integers(), (n) => { if (n > 1) throw new Error('first'); });",
      '  test("uses p", p);',
      "});",
      'describe("second", () => {',
      "  const p = property(st.strings(), (s) => { if (s.length > 1) throw new Error('second'); });",
      '  test("uses p", p);',
      "});",
      'test("outside both", p);',
    ].join("\n");
    const tests = discoverTests(src);
    const first = src.indexOf("property(st.integers()");
    const second = src.indexOf("property(st.strings()");
    assert.deepEqual(
      tests.map((t) => [t.path.join(" > "), t.propertyCall?.offset]),
      [
        ["first > uses p", first],
        ["second > uses p", second],
        ["outside both", undefined],
      ],
      "each test's property is the one its own describe declares; neither is visible outside them",
    );
  });

  test("a call with explicit type arguments is ours: property<[number]>(…), ss.check<T>(…), machine<M>(…)", () => {
    const src = [
      'import { property, machine, st } from "shrinkscope";',
      'import * as ss from "shrinkscope";',
      'test("typed", property<[number]>(st.integers(), (n) => {}));',
      'test("typed check", () => ss.check<[string]>(p));',
      'test("typed machine", machine<Ledger>(Ledger, { rules: {} }));',
      'test("comparison, not a call", () => { const b = property < 1; });',
    ].join("\n");
    assert.deepEqual(
      discoverTests(src).map((t) => `${t.isProperty ? "P" : "-"} ${t.path[0]} ${t.propertyCall?.callee ?? ""}`.trim()),
      ["P typed property", "P typed check check", "P typed machine machine", "- comparison, not a call"],
    );
  });

  test("imports decide the meaning: renamed and namespace imports count, another module's find does not", () => {
    const tests = discoverFixture("tricky.ts.txt");
    assert.equal(byName(tests, "renamed import is a property").propertyCall?.callee, "property");
    assert.equal(byName(tests, "find from lodash is not a property").isProperty, false);
    const ns = 'import * as ss from "shrinkscope";\ntest("ns", () => { ss.find(ss.st.integers(), (n) => n > 1); });';
    assert.equal(discoverTests(ns)[0]!.propertyCall?.callee, "find");
    const fc = 'import { check } from "fast-check";\ntest("not ours", () => { check(p); });';
    assert.equal(discoverTests(fc)[0]!.isProperty, false);
  });
});

describe("text that only looks like a test", () => {
  test("comments, strings, templates and regexes hide fake test( and property( text", () => {
    const tests = discoverFixture("tricky.ts.txt");
    const names = tests.map((t) => t.path.join(" > "));
    for (const fake of ["fake", "fake2", "x", "nope", "line comment"])
      assert.ok(!names.some((n) => n.endsWith(fake)), `found fake ${fake}`);
    assert.deepEqual(names, [
      "tricky > regex with a quote",
      "tricky > renamed import is a property",
      "tricky > find from lodash is not a property",
      'tricky > escapes: tab\there, "quotes", \u00e9, A, it\'s',
      "tricky > template: ${modes[0]} mode",
      'tricky > modes[1] + " mode"',
      "tricky > generic arrow and division",
    ]);
  });

  test("regexes holding quotes and brackets do not unbalance what follows", () => {
    const src = [
      'test("a", () => { expect(s).toMatch(/["(\'`{]/); expect(t.split(/[)\\]}]/)).toEqual([]); });',
      'test("b", () => { const r = /\\/"/; return r; });',
      'test("c", () => {});',
    ].join("\n");
    const tests = discoverTests(src);
    assert.deepEqual(summary(tests), ["- a", "- b", "- c"]);
    assert.deepEqual(
      tests.map((t) => t.range.startLine),
      [0, 1, 2],
    );
  });

  test("division is not a regex, even with quotes later on the line", () => {
    const src =
      'const r = total / count / 2; const q = "it\'s";\nconst h = (a) / 2 + arr[0] / 3; // it\'s\ntest("after division", () => {});';
    assert.deepEqual(
      discoverTests(src).map((t) => t.path[0]),
      ["after division"],
    );
  });

  test("members, declarations, methods and other calls named test/it/context are not tests", () => {
    const src = [
      'import { test, it } from "node:test";',
      'if (/x/.test(s)) t.test("subtest", () => {});',
      'const it2 = it; iterator.it("x"); const next = it.next();',
      "function test(name: string): void {}",
      "class C { it(name) { return name; } test(name: string): void {} }",
      "const myTest = test.extend({ fixture: 1 });",
      "const ctx = context(options);",
      'test("the only test", () => {});',
    ].join("\n");
    assert.deepEqual(summary(discoverTests(src)), ["- the only test"]);
  });
});

describe("TypeScript and JSX", () => {
  test("generics, type annotations, as const, decorators and generic arrows do not confuse the scan", () => {
    const tests = discoverFixture("tricky.ts.txt");
    assert.equal(tests.length, 7);
    const src = [
      "@Component({ selector: 'x' })",
      "class A<T extends Record<string, unknown>> { @Input() value!: T; }",
      "const wrap = async <T,>(x: T): Promise<T[]> => [x];",
      "const cast = <number>(<unknown>value);",
      'test.each<{ a: number; b: string }>([{ a: 1, b: "}" }])("row $a", ({ a }: { a: number }) => {});',
      'it("typed", async (): Promise<void> => { const x = [1, 2] as const satisfies readonly number[]; });',
    ].join("\n");
    assert.deepEqual(summary(discoverTests(src, { fileName: "a.test.ts" })), ["- row $a", "- typed"]);
  });

  test("JSX in .tsx: text with apostrophes, brackets and // inside elements is opaque", () => {
    const src = fixture("react.tsx.txt");
    const tests = discoverTests(src, { fileName: "react.test.tsx" });
    assert.deepEqual(summary(tests), [
      "- <Counter /> > renders the label",
      "P <Counter /> > shows any count",
      "P list renders every item",
    ]);
    const shows = byName(tests, "shows any count");
    assert.equal(src.slice(shows.range.start, shows.insertAfter.offset).trimEnd().slice(-4), "}));");
  });

  test("JSX read with JSX off (say, a .ts name) still finds every test", () => {
    assert.deepEqual(
      summary(discoverTests(fixture("react.tsx.txt"), { jsx: false })),
      summary(discoverFixture("react.tsx.txt")),
    );
  });
});

describe("positions", () => {
  test("range starts at the callee and ends after the call's closing paren", () => {
    const src = fixture("vitest.ts.txt");
    const tests = discoverTests(src);
    const idempotent = byName(tests, "is idempotent");
    const start = positionOf(src, 'it("is idempotent"');
    assert.equal(idempotent.range.start, start.offset);
    assert.equal(idempotent.range.startLine, 8);
    assert.equal(idempotent.range.startCharacter, 2);
    assert.ok(src.slice(idempotent.range.start, idempotent.range.end).endsWith("}))"));
    assert.equal(idempotent.range.endLine, 11);
    assert.equal(idempotent.range.endCharacter, 5);

    const each = byName(tests, "sorts %j to %j");
    assert.deepEqual([each.range.startLine, each.range.startCharacter], [17, 2]);
    assert.ok(src.slice(each.range.start).startsWith("test.each(["));
  });

  test("insertAfter is right after `);`, after a .timeout(…) chain, or after `)` when there is no semicolon", () => {
    const src = fixture("mocha.cjs.txt");
    const tests = discoverTests(src);
    for (const t of tests) assert.ok(src.slice(0, t.insertAfter.offset).endsWith(");"), t.path.join(" > "));
    const chained = byName(tests, "evicts the least recently used key");
    assert.ok(src.slice(0, chained.insertAfter.offset).endsWith("}).timeout(500);"));
    assert.ok(src.slice(0, chained.range.end).endsWith("})"));
    assert.deepEqual(chained.insertAfter, { offset: chained.insertAfter.offset, line: 26, character: 22 });

    const noSemi = discoverTests('test("a", () => {})\ntest("b", () => {}) // done\n');
    assert.deepEqual(
      noSemi.map((t) => [t.insertAfter.line, t.insertAfter.character]),
      [
        [0, 19],
        [1, 19],
      ],
    );
  });

  test("CRLF and lone CR line endings count as one line break each", () => {
    const src = 'describe("d", () => {\r\n  test("a", () => {});\r\n\r  it("b", () => {});\r\n});';
    const tests = discoverTests(src);
    assert.deepEqual(
      tests.map((t) => [t.range.startLine, t.range.startCharacter, t.insertAfter.line, t.insertAfter.character]),
      [
        [1, 2, 1, 22],
        [3, 2, 3, 20],
      ],
    );
  });
});

describe("half-typed code", () => {
  const complete =
    'describe("suite", () => {\n  test("first", property(st.integers(), (n) => {}));\n  it("second", () => {});\n});\n';

  test("a half-written test( at the end: earlier tests intact, a bare `test(` is not reported", () => {
    assert.deepEqual(summary(discoverTests(complete + "test(")), ["P suite > first", "- suite > second"]);
    assert.deepEqual(summary(discoverTests(complete + 'test("third", property(st.integers(), (n) => {')), [
      "P suite > first",
      "- suite > second",
      "P third",
    ]);
  });

  test("unterminated string: ends at its line, so the tests after it are still found", () => {
    const src = complete + 'test("broken", () => { const s = "oops;\n});\ntest("after", () => {});\n';
    const names = discoverTests(src).map((t) => t.path[t.path.length - 1]);
    assert.deepEqual(names, ["first", "second", "broken", "after"]);
    assert.deepEqual(
      discoverTests(complete + 'test("unfinished name').map((t) => t.path.at(-1)),
      ["first", "second", "unfinished name"],
    );
  });

  test("unterminated template or block comment: swallows the rest, tests before are found", () => {
    for (const broken of [
      "test(`unfinished ${x + ",
      "const t = `abc ${ {",
      "/* unfinished comment test('x', () => {})",
      'test("x", () => { re = /[unclosed regex',
    ]) {
      const tests = discoverTests(complete + broken + '\ntest("later", () => {});');
      assert.deepEqual(
        tests.slice(0, 2).map((t) => t.path),
        [
          ["suite", "first"],
          ["suite", "second"],
        ],
        broken,
      );
    }
  });

  test("unbalanced brackets: a missing `})` or a stray `)` does not lose tests", () => {
    const missing =
      'describe("outer", () => {\n  test("a", () => {\n    foo(\n  });\n  test("b", () => {});\n});\ntest("c", () => {});';
    assert.deepEqual(
      discoverTests(missing).map((t) => t.path),
      [["outer", "a"], ["outer", "b"], ["c"]],
    );
    const stray = 'describe("outer", () => {\n  test("a", () => { foo()); });\n  test("b", () => {});\n});';
    assert.deepEqual(
      discoverTests(stray).map((t) => t.path.at(-1)),
      ["a", "b"],
    );
    const unclosedDescribe = 'describe("outer", () => {\n  test("a", () => {});\n\ntest("b", () => {});\n';
    assert.deepEqual(
      discoverTests(unclosedDescribe).map((t) => t.path),
      [
        ["outer", "a"],
        ["outer", "b"],
      ],
    );
  });

  // Speed is reported, not asserted: timings on a shared 2-core machine are noise (bench/discovery.mjs measures it).
  test("truncating every fixture at (nearly) every offset never throws and keeps the tests before the cut", (t) => {
    let slowest = 0;
    for (const name of FIXTURE_NAMES) {
      const src = fixture(name);
      const fileName = name.replace(/\.txt$/, "");
      const full = discoverTests(src, { fileName });
      // Every offset for the trickiest fixture, every 7th for the rest.
      const step = name === "tricky.ts.txt" ? 1 : 7;
      for (let cut = 0; cut <= src.length; cut += step) {
        const t0 = performance.now();
        const partial = discoverTests(src.slice(0, cut), { fileName });
        slowest = Math.max(slowest, performance.now() - t0);
        const found = new Set(partial.map((t) => `${t.range.start} ${t.path.join(" > ")}`));
        for (const t of full) {
          if (t.insertAfter.offset > cut) continue;
          assert.ok(
            found.has(`${t.range.start} ${t.path.join(" > ")}`),
            `${name} cut at ${cut} lost ${t.path.join(" > ")}`,
          );
        }
      }
    }
    t.diagnostic(`slowest truncated scan: ${slowest.toFixed(1)} ms`);
  });

  test("random soup of JS-significant characters never throws (checked with shrinkscope itself)", () => {
    const alphabet = "`'\"/\\*{}()[]<>$\n ;,.=:!atesx";
    const soup = st.lists(
      st.oneOf(
        st.text({ alphabet, maxSize: 6 }),
        st.sampledFrom([
          "test(",
          "describe(",
          "property(",
          "${",
          "<div>",
          "</div>",
          "/*",
          "*/",
          "//",
          "=>",
          "it.each`",
          "<T,>",
        ]),
      ),
      { maxSize: 40 },
    );
    check(
      property(soup, st.booleans(), (parts, jsx) => {
        const tests = discoverTests(parts.join(""), { jsx });
        for (const t of tests) assert.ok(t.range.start <= t.range.end && t.range.end <= t.insertAfter.offset);
      }),
      { maxExamples: 500, database: null, deadline: null, seed: 7 },
    );
  });

  test("pathological nesting and repetition finish without overflowing the stack", (t) => {
    const inputs = [
      "`${".repeat(20_000),
      "x = " + "<a>".repeat(20_000),
      "(".repeat(50_000) + "]".repeat(50_000),
      "x = (/ ".repeat(20_000),
      'test("a", () => {\n'.repeat(5_000),
      "const f = <T>(x) => x;\n".repeat(3_000),
    ];
    for (const source of inputs) {
      const t0 = performance.now();
      assert.doesNotThrow(() => discoverTests(source, { jsx: true }));
      const ms = performance.now() - t0;
      t.diagnostic(`${JSON.stringify(source.slice(0, 12))}…: ${ms.toFixed(0)} ms`);
    }
  });
});

describe("speed", () => {
  /** A realistic ~2,000-line test file: the fixtures' kinds of blocks, renamed per repetition. */
  function bigFile(): string {
    const block = (i: number) => `
describe("module ${i}", () => {
  const gen${i} = st.lists(st.integers({ min: -${i}, max: ${i * 10} }), { maxSize: 20 });
  const roundTrip${i} = property(gen${i}, (xs: number[]) => {
    assert.deepEqual(decode(encode(xs)), xs); // decode ∘ encode = id
  });

  test("round-trips ${i}", roundTrip${i});

  test(\`sorts case \${${i}} with "quotes" and 'apostrophes'\`, property(gen${i}, (xs) => {
    const sorted = [...xs].sort((a, b) => a - b);
    assert.ok(sorted.every((x, k) => k === 0 || sorted[k - 1]! <= x));
    assert.match(String(xs.length / 2), /^[0-9.]+$/);
  }));

  it("handles the empty list ${i}", () => {
    /* a block comment with test("fake", property( inside */
    const empty: Array<{ readonly id: number }> = [];
    expect(empty.map((e) => e.id)).toEqual([]);
  });

  describe("nested ${i}", () => {
    test.each([[1, 2], [3, 4]])("adds %i and %i", (a, b) => {
      expect(add<number>(a, b)).toBe(a + b);
    });

    it("checks inline", async () => {
      await check(property(st.text(), (s) => {
        assert.equal(s.split("").join(""), s);
      }), { seed: ${i}, database: null });
    });
  });
});
`;
    let out = 'import { test, describe, it } from "node:test";\nimport { property, check, st } from "shrinkscope";\n';
    for (let i = 0; out.split("\n").length < 2000; i++) out += block(i);
    return out;
  }

  test("a 2,000-line file: every test found (scan time reported, median of 9 after warm-up)", (t) => {
    const src = bigFile();
    const lines = src.split("\n").length;
    assert.ok(lines >= 2000);
    const first = discoverTests(src, { fileName: "big.test.ts" });
    assert.ok(first.length > 200 && first.filter((x) => x.isProperty).length > 150);
    for (let i = 0; i < 5; i++) discoverTests(src, { fileName: "big.test.ts" });
    const times: number[] = [];
    for (let i = 0; i < 9; i++) {
      const t0 = performance.now();
      discoverTests(src, { fileName: "big.test.ts" });
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const median = times[4]!;
    t.diagnostic(
      `${lines} lines, ${src.length} chars, ${first.length} tests: median ${median.toFixed(2)} ms (min ${times[0]!.toFixed(2)}, max ${times[8]!.toFixed(2)})`,
    );
  });
});

describe("regex after a statement head or a block", () => {
  test("`if (…) /re/` and a block then `/re/` start regex literals: a backtick in them does not open a template that hides the tests after", () => {
    const src = [
      'if (ok) /["(`]/.test(s);',
      "while (busy) /'/.exec(s);",
      "{ setup(); }",
      "/`{/.test(s);",
      'test("after the regexes", property(st.integers(), (n) => {}));',
      "const ratio = f(a) / 2 / g(b); // division after a call's `)`: not a regex",
      'test("after the division", () => {});',
    ].join("\n");
    assert.deepEqual(summary(discoverTests(src)), ["P after the regexes", "- after the division"]);
  });
});

describe("state machines", () => {
  test("machine(...) is a property: directly, renamed, through a namespace, bound, in check(...); another library's machine is not", () => {
    const src = [
      'import { machine as m, check } from "shrinkscope";',
      'import * as ss from "shrinkscope";',
      'import { createMachine as machine } from "xstate";',
      'test("renamed", m(Ledger, spec));',
      'test("namespace", ss.machine(Ledger, spec, { stepCount: 5 }));',
      "const bound = m(Ledger, spec);",
      'test("bound", bound);',
      'test("checked", () => { check(m(Ledger, spec)); });',
      'test("xstate", () => { machine({ id: "toggle" }); });',
    ].join("\n");
    const tests = discoverTests(src, { fileName: "m.test.ts" });
    assert.deepEqual(summary(tests), ["P renamed", "P namespace", "P bound", "P checked", "- xstate"]);
    assert.deepEqual(
      tests.map((t) => t.propertyCall?.callee),
      ["machine", "machine", "machine", "check", undefined],
    );
    assert.equal(byName(tests, "bound").propertyCall?.line, 5, "a bound machine points at its binding's call");
  });
});

describe("propertiesOfFile", () => {
  // Found in the e2e: a package.json naming shrinkscope counted as a property file when shown, so the editor had
  // the project's vitest run it as a warm-up, and the click after it waited.
  test("a package.json or README that names shrinkscope holds no property; a test file does", () => {
    const pkg = JSON.stringify(
      { devDependencies: { shrinkscope: "^0.1.0", vitest: "^4.0.0" }, scripts: { test: "vitest" } },
      null,
      2,
    );
    assert.deepEqual(propertiesOfFile("/p/package.json", pkg), []);
    assert.deepEqual(
      propertiesOfFile("/p/README.md", 'test("x", property(st.integers(), (n) => {})) // shrinkscope'),
      [],
    );
    const src = 'import { property, st } from "shrinkscope";\ntest("sums", property(st.integers(), (n) => {}));';
    assert.deepEqual(summary(propertiesOfFile("/p/test/sum.test.mts", src)), ["P sums"]);
    assert.deepEqual(
      propertiesOfFile("/p/test/sum.test.mts", src.replace("shrinkscope", "fast-check")),
      [],
      "no shrinkscope, no property of ours",
    );
  });

  // The Test Explorer (propertiesOfFile) and the CodeLens (discoverProperties) disagreed: the Explorer skipped every
  // file that did not mention shrinkscope, though discovery takes `property` imported through the project's own
  // module as ours, and the CodeLens showed it.
  test("lists exactly what the CodeLens shows: a property imported through the project's own module, every corpus file", () => {
    const src = 'import { property, st } from "./testing";\ntest("sums", property(st.integers(), (n) => {}));';
    assert.deepEqual(summary(propertiesOfFile("/p/test/sum.test.ts", src)), ["P sums"]);
    for (const name of fs.readdirSync(path.join(FIXTURES, "corpus")).filter((f) => f.endsWith(".txt"))) {
      const file = name.replace(/\.txt$/, "");
      const text = fs.readFileSync(path.join(FIXTURES, "corpus", name), "utf8");
      assert.deepEqual(
        summary(propertiesOfFile(`/p/${file}`, text)),
        summary(discoverProperties(text, { fileName: file })),
        file,
      );
    }
  });
});

describe("fast-check suites on shrinkscope/fc, shrinkscope/vitest and shrinkscope/jest", () => {
  test("fc.assert(fc.property(…)) and fc.asyncProperty(…) in a test make it a property; fast-check's own do not", () => {
    const src = [
      'import fc from "shrinkscope/fc";',
      'import { test } from "vitest";',
      'test("sorts", () => {',
      "  fc.assert(fc.property(fc.array(fc.integer()), (xs) => xs.length >= 0));",
      "});",
      'test("fetches", async () => {',
      "  await fc.assert(fc.asyncProperty(fc.nat(), async (n) => n >= 0));",
      "});",
      'test("plain", () => {});',
    ].join("\n");
    assert.deepEqual(summary(discoverTests(src, { fileName: "a.test.ts" })), ["P sorts", "P fetches", "- plain"]);
    assert.equal(byName(discoverTests(src), "sorts").propertyCall?.offset, src.indexOf("fc.property"));
    assert.equal(byName(discoverTests(src), "fetches").propertyCall?.callee, "asyncProperty");
    const theirs = src.replace('"shrinkscope/fc"', '"fast-check"');
    assert.deepEqual(summary(discoverTests(theirs)), ["- sorts", "- fetches", "- plain"]);
  });

  test("test.prop, it.prop and their modifiers' .prop are properties, named by the test call's own name", () => {
    const src = [
      'import { test, it, fc } from "shrinkscope/vitest";',
      'describe("math", () => {',
      '  test.prop([fc.nat(), fc.nat()])("commutes", (a, b) => a + b === b + a);',
      '  it.prop({ a: fc.nat() }, { numRuns: 10 })("records", ({ a }) => a >= 0);',
      '  test.concurrent.skip.prop([fc.nat()])("skipped", (n) => n >= 0);',
      '  test.each([1, 2])("plain %i", (n) => {});',
      "});",
    ].join("\n");
    const tests = discoverTests(src, { fileName: "m.test.ts" });
    assert.deepEqual(summary(tests), [
      "P math > commutes",
      "P math > records",
      "P math > skipped",
      "- math > plain %i",
    ]);
    assert.equal(byName(tests, "commutes").propertyCall?.offset, src.indexOf("prop(["));
    assert.equal(byName(tests, "records").kind, "it");
    assert.deepEqual(
      propertiesOfFile("m.test.ts", src).map((t) => t.path.at(-1)),
      ["commutes", "records", "skipped"],
      "a file whose only property word is test.prop's is read",
    );
  });
});
