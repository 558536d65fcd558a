/**
 * shrinkscope/fc as a user loads it: the built entries (ESM and CJS) through the package's exports, their arbitraries
 * the strategies of the package's own engine (one Strategy class: an fc arbitrary goes into property() and st.*
 * into fc.property), a failure thrown as the engine's PropertyFailure, and a key made from the user's file.
 *
 * Reads dist/: run `npm run build` first.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import { tempDir } from "../helpers.ts";

const ROOT = path.resolve(__dirname, "..", "..", "..");

function node(file: string, code: string): string {
  const dir = tempDir("fc-package");
  // The package linked into a project of its own, as npm would install it.
  fs.mkdirSync(path.join(dir, "node_modules"));
  fs.symlinkSync(ROOT, path.join(dir, "node_modules", "shrinkscope"), "junction");
  fs.writeFileSync(path.join(dir, file), code);
  return execFileSync(process.execPath, [file], { cwd: dir, encoding: "utf8", env: { ...process.env, CI: "true" } });
}

const BODY = (imports: string) => `${imports}
const out = {};
out.shared = st.integers() instanceof fc.Arbitrary === false && fc.nat() instanceof Strategy;
fc.assert(fc.property(st.lists(st.integers()), fc.string(), (xs, s) => Array.isArray(xs) && typeof s === "string"));
check(property(fc.nat(), (n) => { if (n < 0) throw new Error("negative"); }));
try {
  fc.assert(fc.property(fc.array(fc.nat()), (xs) => xs.length < 2), { seed: 1 });
} catch (e) {
  out.failure = [e.name, e instanceof PropertyFailure, JSON.stringify(e.args)];
}
const keys = [];
check(fc.property(fc.nat(), (n) => n >= 0).run, { maxExamples: 1, database: { fetch: (k) => (keys.push(k), []), save() {}, delete() {} } });
out.keyFile = keys[0].split("::")[0];
console.log(JSON.stringify(out));
`;

for (const [file, imports] of [
  [
    "esm.mjs",
    'import fc from "shrinkscope/fc";\nimport * as named from "shrinkscope/fc";\nimport { check, property, st, Strategy, PropertyFailure } from "shrinkscope";\nif (named.integer !== fc.integer) throw new Error("the default export and the named ones differ");',
  ],
  [
    "cjs.cjs",
    'const fc = require("shrinkscope/fc").default;\nconst { check, property, st, Strategy, PropertyFailure } = require("shrinkscope");\nif (require("shrinkscope/fc").integer !== fc.integer) throw new Error("the default export and the named ones differ");',
  ],
] as const) {
  test(`the built entry (${file.endsWith(".mjs") ? "ESM" : "CommonJS"}) runs on the package's own engine`, () => {
    const out = JSON.parse(node(file, BODY(imports)));
    assert.equal(out.shared, true, "an fc arbitrary is a Strategy of the package's engine");
    assert.deepEqual(out.failure, ["PropertyFailure", true, "[[0,0]]"]);
    assert.equal(out.keyFile, file, "the property is keyed by the user's file, not dist/fc.*");
  });
}

test("the built entry bundles no copy of the engine", () => {
  for (const f of ["dist/fc.mjs", "dist/fc.cjs"]) {
    const code = fs.readFileSync(path.join(ROOT, f), "utf8");
    assert.ok(!/class Strategy\b|class TestCase\b|class Engine\b/.test(code), `${f} holds engine classes`);
    assert.ok(code.includes('"shrinkscope"'), `${f} imports the package`);
  }
});
