/**
 * The extension's runner must save and replay failures under the keys the user's own test runner uses, or a
 * failure found in one is never replayed by the other. This runs one failing file per framework (node:test,
 * mocha, jest, vitest) with the real framework and then with the built runner (dist/runner.js, which bundles
 * the file with esbuild), each saving to its own example folder, and compares the keys (key.txt) they wrote.
 *
 * Needs `npm run build` first. Run: node --import tsx --test test/runner/database-keys.test.ts
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, before, test } from "node:test";
import { startRun } from "../../src/extension/runnerClient.ts";

const ROOT = path.resolve(__dirname, "..", "..");
const RUNNER = path.join(ROOT, "dist", "runner.js");
let ws = "";

// Two failing tests per file, both under describe "outer": a property as the test callback (the name comes
// from the test's context: node:test's t, mocha's this, vitest's task, jest's expect state), and for jest and
// vitest a property checked inside the test (the name comes from the expect state).
const BODY = (req: string) => `${req}
describe("outer", () => {
  it("direct", property(st.integers(), (x) => { if (x > 5) throw new Error("big"); }, { database: "examples-user", seed: 1 }));
  it("via check", () => { check(property(st.integers(), (x) => { if (x > 7) throw new Error("big"); }), { database: "examples-user", seed: 1 }); });
});
`;
const FILES: Record<string, { file: string; source: string; tests: string[][]; args: string[] }> = {
  "node:test": {
    file: "node.test.mjs",
    source: BODY(`import { describe, it } from "node:test";\nimport { property, check, st } from "shrinkscope";`),
    tests: [
      ["outer", "direct"],
      ["outer", "via check"],
    ],
    args: ["--test", "node.test.mjs"],
  },
  mocha: {
    file: "mocha.test.cjs",
    // Imported, not globals: the runner treats global describe/it as jest's (jest also names a checked property).
    source: BODY(
      `const { describe, it } = require("mocha");\nconst { property, check, st } = require("shrinkscope");`,
    ).replace('describe("outer", () => {', 'describe("outer", function () {'),
    tests: [
      ["outer", "direct"],
      ["outer", "via check"],
    ],
    args: [
      path.join(ROOT, "node_modules", "mocha", "bin", "mocha.js"),
      "--no-config",
      "--no-package",
      "--timeout",
      "60000",
      "mocha.test.cjs",
    ],
  },
  jest: {
    file: "jest.test.cjs",
    source: BODY(`const { property, check, st } = require("shrinkscope");`),
    tests: [
      ["outer", "direct"],
      ["outer", "via check"],
    ],
    args: [path.join(ROOT, "node_modules", "jest", "bin", "jest.js"), "--config", "jest.config.cjs", "--ci"],
  },
  vitest: {
    file: "vitest.test.mjs",
    source: BODY(`import { describe, it } from "vitest";\nimport { property, check, st } from "shrinkscope";`),
    tests: [
      ["outer", "direct"],
      ["outer", "via check"],
    ],
    args: [path.join(ROOT, "node_modules", "vitest", "vitest.mjs"), "run", "--config", "vitest.config.mjs"],
  },
};

function keysIn(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .map((d) => path.join(dir, d, "key.txt"))
    .filter((f) => fs.existsSync(f))
    .map((f) => fs.readFileSync(f, "utf8"))
    .sort();
}

function runFramework(args: string[]): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
  delete env.NODE_TEST_CONTEXT; // set by our own `node --test`; the child would report to us
  delete env.SHRINKSCOPE_SEED;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ws, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("close", () => {
      clearTimeout(timer);
      resolve(out);
    });
  });
}

before(() => {
  assert.ok(fs.existsSync(RUNNER), "dist/runner.js is missing: run `npm run build` first");
  ws = fs.mkdtempSync(path.join(os.tmpdir(), "shrinkscope-keys-"));
  const modules = path.join(ws, "node_modules");
  fs.mkdirSync(modules);
  fs.symlinkSync(ROOT, path.join(modules, "shrinkscope"), "junction");
  for (const framework of ["vitest", "mocha"])
    fs.symlinkSync(path.join(ROOT, "node_modules", framework), path.join(modules, framework), "junction");
  fs.writeFileSync(path.join(ws, "package.json"), JSON.stringify({ name: "keys-fixture", private: true }));
  fs.writeFileSync(
    path.join(ws, "jest.config.cjs"),
    `module.exports = { rootDir: __dirname, testMatch: ["<rootDir>/jest.test.cjs"], testEnvironment: "node", transform: {}, watchman: false, cacheDirectory: ${JSON.stringify(path.join(ws, ".jest"))} };\n`,
  );
  fs.writeFileSync(
    path.join(ws, "vitest.config.mjs"),
    `import { defineConfig } from "vitest/config";\nexport default defineConfig({ root: ${JSON.stringify(ws)}, cacheDir: ${JSON.stringify(path.join(ws, ".vite"))}, test: { include: ["vitest.test.mjs"], environment: "node" } });\n`,
  );
});

after(() => {
  if (ws !== "") fs.rmSync(ws, { recursive: true, force: true });
});

for (const [name, spec] of Object.entries(FILES)) {
  test(`${name}: the runner saves under the key the framework uses`, { timeout: 240_000 }, async () => {
    fs.writeFileSync(path.join(ws, spec.file), spec.source);
    const out = await runFramework(spec.args);
    const userKeys = keysIn(path.join(ws, "examples-user")).filter((k) => k.startsWith(`${spec.file}::`));
    assert.equal(
      userKeys.length,
      spec.tests.length,
      `the framework saved one failure per test; got ${JSON.stringify(userKeys)}\n${out.slice(-3000)}`,
    );

    const runnerDb = path.join(ws, `examples-runner-${spec.file}`);
    for (const testPath of spec.tests) {
      const handle = startRun({
        runnerPath: RUNNER,
        request: {
          type: "run",
          file: path.join(ws, spec.file),
          testPath,
          workspaceRoot: ws,
          settings: { database: runnerDb, seed: 1 },
        },
        timeoutMs: 60_000,
        onMessage() {},
      });
      const result = await handle.done;
      assert.equal(result.outcome, "failed", `${testPath.join(" > ")}: ${result.reason ?? ""} ${result.stderr ?? ""}`);
    }
    assert.deepEqual(keysIn(runnerDb), userKeys);
    // Named where the framework tells the property its test; else keyed by source text, which survives here.
    assert.ok(
      userKeys.some((k) => /::outer( >)? direct::/.test(k)),
      `the direct test's key names it: ${JSON.stringify(userKeys)}`,
    );
  });
}
