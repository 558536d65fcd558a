// Runtime boundaries (docs/architecture.md, "The runtimes"): the engine bundle runs in plain Node and never imports vscode;
// its sources import the PRNG, Node's built-ins and, for st.fromRegex only, the regex parser, which the build bundles
// (docs/architecture.md, "Strategies": the dependency decision and its figures).
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { execFileSync } from "node:child_process";

test("the built engine bundles import nothing from vscode nor the bundled regex parser, and run in plain node", () => {
  for (const file of ["dist/engine.mjs", "dist/engine.cjs"]) {
    const code = fs.readFileSync(file, "utf8");
    assert.doesNotMatch(
      code,
      /(from\s*["']vscode["']|require\(\s*["']vscode["']\s*\)|import\(\s*["']vscode["']\s*\))/,
      file,
    );
    assert.doesNotMatch(code, /(from\s*|require\(\s*|import\(\s*)["']@eslint-community\/regexpp["']/, file);
  }
  const out = execFileSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      'import { find, st } from "shrinkscope"; console.log(JSON.stringify(find(st.lists(st.integers()), (xs) => xs.length > 1, { database: null })));',
    ],
    { encoding: "utf8" },
  );
  assert.equal(out.trim(), "[0,0]");
  const cjs = execFileSync(
    process.execPath,
    [
      "-e",
      'const { find, st } = require("shrinkscope"); console.log(find(st.integers(), (n) => n > 9, { database: null }));',
    ],
    { encoding: "utf8" },
  );
  assert.equal(cjs.trim(), "10");
});

/** The one package besides the PRNG an engine source may import, and the files that may: st.fromRegex's parser. */
const REGEX_PARSER = "@eslint-community/regexpp";
const REGEX_FILES = /^strategies[/\\](fromRegex\.ts$|regex[/\\])/;
/** The test.prop entries import their runner (the user's own, an optional peer), and only they do. */
const RUNNER_ENTRIES: Record<string, string> = { "vitest.ts": "vitest", "jest.ts": "@jest/globals" };

test("engine sources import nothing outside the engine but node built-ins, the PRNG, (st.fromRegex's files) the regex parser and (the test.prop entries) their runner", () => {
  const dir = "src/engine";
  const files = fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".ts"));
  for (const f of files) {
    // Module specifiers only, not the examples in comments.
    const code = fs.readFileSync(`${dir}/${f}`, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
    for (const m of code.matchAll(/\bfrom\s+"([^"]+)"/g)) {
      const spec = m[1];
      assert.ok(
        spec.startsWith(".") ||
          spec.startsWith("node:") ||
          spec.startsWith("pure-rand") ||
          (spec === REGEX_PARSER && REGEX_FILES.test(f)) ||
          RUNNER_ENTRIES[f] === spec,
        `${f} imports ${spec}`,
      );
      assert.ok(!spec.includes("extension") && !spec.includes("webview"), `${f} imports ${spec}`);
    }
  }
});

test("the webview imports no vscode and no engine internals: only src/shared/protocol.ts (types), the events' wire format, its own modules and d3", () => {
  const files = fs
    .readdirSync("webview", { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".ts"));
  assert.ok(files.length > 5);
  for (const f of files) {
    const code = fs.readFileSync(`webview/${f}`, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
    for (const m of code.matchAll(/\bfrom\s+"([^"]+)"/g)) {
      const spec = m[1];
      const ok = spec.startsWith(".")
        ? !spec.includes("src/") || spec.endsWith("src/shared/protocol.ts") || spec.endsWith("src/shared/eventWire.ts")
        : spec.startsWith("d3");
      assert.ok(ok, `webview/${f} imports ${spec}`);
    }
  }
  // The wire format (decoded in the panel, encoded in the host) brings nothing else in: types only.
  const wire = fs.readFileSync("src/shared/eventWire.ts", "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
  for (const m of wire.matchAll(/^import\b.*$/gm))
    assert.match(m[0], /^import type /, `src/shared/eventWire.ts: ${m[0]}`);
  const bundle = fs.readFileSync("dist/webview.js", "utf8");
  assert.doesNotMatch(bundle, /require\(\s*["']vscode["']\s*\)|from\s*["']vscode["']/);
});

test("the shared wire formats and the runner import neither vscode nor the extension host's code", () => {
  for (const dir of ["src/shared", "src/runner"]) {
    const files = fs
      .readdirSync(dir, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith(".ts"));
    assert.ok(files.length > 0, dir);
    for (const f of files) {
      const code = fs.readFileSync(`${dir}/${f}`, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
      for (const m of code.matchAll(/\b(?:from\s+|import\s*\(\s*|require\(\s*)"([^"]+)"/g)) {
        const spec = m[1];
        assert.ok(spec !== "vscode" && !spec.includes("/extension/"), `${dir}/${f} imports ${spec}`);
      }
    }
  }
});
