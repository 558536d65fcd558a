// Reading source text (src/extension/source/read/): one module reads a user's file for discovery, the quick
// fixes and runner detection. These tests pin what holds that together: a text is tokenized once however many
// readers ask; a name means the declaration JavaScript's scoping gives it where it is used; and code outside
// source/read/ and source/write/ reaches them only through their index.ts.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { discoverProperties, discoverTests, propertiesOfFile } from "../../src/extension/discovery.ts";
import { failingMethod, readSource, tokenizations } from "../../src/extension/source/read/index.ts";
import { explicitExample, regressionTest } from "../../src/extension/source/write/index.ts";
import { importedRunner } from "../../src/extension/runnerDetect.ts";

const ROOT = path.resolve(__dirname, "../..");
const CORPUS = path.join(__dirname, "fixtures", "corpus");

describe("one read per text", () => {
  test("an edit, then the CodeLens, the Test Explorer, the diagnostics and both quick fixes on the same text tokenize it once", () => {
    for (const file of ["21-property-outside.ts.txt", "31-machines.ts.txt", "32-schedules.ts.txt"]) {
      const fileName = file.replace(/\.txt$/, "");
      // A text no earlier test has read: the edit just made.
      const source = `${fs.readFileSync(path.join(CORPUS, file), "utf8")}\n// edited at ${process.hrtime.bigint()}\n`;
      const before = tokenizations();
      const lenses = discoverProperties(source, { fileName });
      assert.ok(lenses.length > 0, file);
      propertiesOfFile(fileName, source);
      importedRunner(source, fileName);
      for (const t of discoverTests(source, { fileName })) {
        if (t.propertyCall === undefined) continue;
        const { offset, callee } = t.propertyCall;
        failingMethod(source, offset, { name: "totalsMatch" }, { fileName, callee });
        const insertAt = t.insertAfter.offset;
        const testLineStart = source.lastIndexOf("\n", t.range.start - 1) + 1;
        regressionTest({
          source,
          fileName,
          propertyOffset: offset,
          callee,
          kind: t.kind,
          name: t.path.at(-1)!,
          testLineStart,
          insertAt,
          presentation: { kind: "arguments", text: "[1, 2]" },
        });
        explicitExample(source, offset, { kind: "arguments", text: "[1, 2]" }, fileName, callee);
      }
      assert.equal(tokenizations() - before, 1, `${file}: tokenized ${tokenizations() - before} times`);
    }
  });

  test("the same text with another JSX choice is another reading; an equal string is the same one", () => {
    const text = `test("x", () => <div>it's</div>); // ${process.hrtime.bigint()}`;
    assert.equal(readSource(text, { fileName: "a.tsx" }), readSource(text.slice(0), { fileName: "b.jsx" }));
    assert.notEqual(readSource(text, { fileName: "a.tsx" }), readSource(text, { fileName: "a.ts" }));
  });
});

describe("a name means the declaration visible where it is used", () => {
  /** The line of the declaration `name` resolves to at the `n`th occurrence of `use` (1-based), or "global". */
  function resolvedLine(src: string, name: string, use: string, n = 1): number | "global" {
    const s = readSource(src, { fileName: "a.ts" });
    let offset = -1;
    for (let i = 0; i < n; i++) offset = src.indexOf(use, offset + 1);
    const at = s.tokenAt(offset + use.indexOf(name));
    assert.ok(at >= 0, `no token at ${use}`);
    const d = s.resolve(name, at);
    return d === undefined ? "global" : s.position(s.tokens[d.token]!.start).line + 1;
  }

  test("block scopes: a sibling block's name is not visible, an inner one shadows, a later one in the block counts", () => {
    const src = [
      "const p = 1;", // 1
      "{ const p = 2; use(p); }", // 2
      "{ use(p); const p = 3; }", // 3
      "{ use(p); }", // 4
      "function f(p) { use(p); }", // 5
      "const g = (p) => use(p);", // 6
      "const h = p => use(p);", // 7
      "for (const p of ps) use(p);", // 8
      "try {} catch (p) { use(p); }", // 9
      "const { a: p2, p: [p3] } = o; use(p2, p3);", // 10
    ].join("\n");
    assert.equal(resolvedLine(src, "p", "use(p); }", 1), 2);
    assert.equal(resolvedLine(src, "p", "use(p); const", 1), 3);
    assert.equal(resolvedLine(src, "p", "{ use(p); }\n", 1), 1);
    assert.equal(resolvedLine(src, "p", "use(p); }\nconst g", 1), 5);
    assert.equal(resolvedLine(src, "p", "use(p);\nconst h", 1), 6);
    assert.equal(resolvedLine(src, "p", "use(p);\nfor", 1), 7);
    assert.equal(resolvedLine(src, "p", "use(p);\ntry", 1), 8);
    assert.equal(resolvedLine(src, "p", "use(p); }\nconst {", 1), 9);
    assert.equal(resolvedLine(src, "p2", "use(p2", 1), 10);
    assert.equal(resolvedLine(src, "p3", "p3)", 1), 10);
    assert.equal(resolvedLine(src, "a", "a: p2", 1), "global", "a destructuring key binds nothing");
  });

  test("var is function-scoped, function and class declarations block-scoped; an expression's name only inside it; ambient declarations are globals", () => {
    const src = [
      "function outer() {", // 1
      "  if (x) { var v = 1; }", // 2
      "  use(v);", // 3
      "}", // 4
      "use(v);", // 5
      "{ class C {} }", // 6
      "use(C);", // 7
      "const k = function named() { use(named); };", // 8
      "use(named);", // 9
      "declare const amb: number;", // 10
      "use(amb);", // 11
    ].join("\n");
    assert.equal(resolvedLine(src, "v", "use(v);", 1), 2);
    assert.equal(resolvedLine(src, "v", "use(v);", 2), "global");
    assert.equal(resolvedLine(src, "C", "use(C)"), "global");
    assert.equal(resolvedLine(src, "named", "use(named)", 1), 8);
    assert.equal(resolvedLine(src, "named", "use(named)", 2), "global");
    assert.equal(resolvedLine(src, "amb", "use(amb)"), "global");
  });

  test("a parameter or a local declaration named like ours shadows it; an import of ours under any name is ours", () => {
    const src = [
      'import { property as prop, check } from "shrinkscope";',
      'test("renamed", prop(st.integers(), (n) => {}));',
      'test("shadowed by a parameter", () => [1].forEach((check) => check(1)));',
      'test("shadowed by a local", () => { const property = (x) => x; property(1); });',
      'test("ours in the same file", () => check(prop(st.integers(), (n) => {})));',
    ].join("\n");
    assert.deepEqual(
      discoverTests(src).map((t) => `${t.isProperty ? "P" : "-"} ${t.path[0]}`),
      ["P renamed", "- shadowed by a parameter", "- shadowed by a local", "P ours in the same file"],
    );
  });
});

describe("the read and write modules' boundaries", () => {
  /**
   * The .ts files under `dir` (a repository path), node_modules and symbolic links left out: the test runners' fixture
   * projects link the repository into their node_modules, and a walk through the link read the whole repository
   * again, its node_modules included (minutes, gigabytes), on every run after the first.
   */
  function tsFiles(dir: string): string[] {
    const out: string[] = [];
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const file = `${dir}/${entry.name}`;
      if (entry.isSymbolicLink() || entry.name === "node_modules") continue;
      if (entry.isDirectory()) out.push(...tsFiles(file));
      else if (entry.name.endsWith(".ts")) out.push(file);
    }
    return out;
  }

  /** Relative imports of every .ts file under src/ and test/, as repository paths. */
  function imports(): Array<[file: string, target: string]> {
    const out: Array<[string, string]> = [];
    for (const dir of ["src", "test"]) {
      for (const file of tsFiles(dir)) {
        const code = fs.readFileSync(path.join(ROOT, file), "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
        for (const m of code.matchAll(/\bfrom\s+"(\.[^"]+)"/g))
          out.push([file, path.join(path.dirname(file), m[1]!).split(path.sep).join("/")]);
      }
    }
    return out;
  }

  test("outside src/extension/source/read/ and source/write/, code imports only their index.ts", () => {
    const found = imports();
    const crossing = found.filter(([file, target]) => {
      const m = /^src\/extension\/source\/(read|write)\//.exec(target);
      return m !== null && !file.startsWith(`src/extension/source/${m[1]}/`) && !target.endsWith("/index.ts");
    });
    assert.deepEqual(crossing, []);
    assert.ok(
      found.some(
        ([file, target]) => file === "src/extension/discovery.ts" && target === "src/extension/source/read/index.ts",
      ),
      "imports are read",
    );
  });

  test("reading never imports writing", () => {
    assert.deepEqual(
      imports().filter(
        ([file, target]) =>
          file.startsWith("src/extension/source/read/") && !target.startsWith("src/extension/source/read/"),
      ),
      [],
    );
  });
});
