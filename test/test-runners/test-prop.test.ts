/**
 * `test.prop` from shrinkscope/vitest and shrinkscope/jest under the real runners, as fast-check's connectors are
 * used: tuple and record arbitraries, parameters, `it.prop`, and the runner's modifiers (`.skip`, `.concurrent`);
 * a failure carries the engine's minimal example. Each runner runs a file of such tests in a project that installs
 * this package (a link), with the runner from this repository.
 *
 * Needs `npm run build` first (`npm test` does it).
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, test } from "node:test";
import { runNode } from "./runChild.ts";

const ROOT = path.resolve(__dirname, "..", "..");
const project = fs.mkdtempSync(path.join(os.tmpdir(), "shrinkscope-test-prop-"));
after(() => fs.rmSync(project, { recursive: true, force: true }));
fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "test-prop", private: true }));
fs.mkdirSync(path.join(project, "node_modules"));
fs.symlinkSync(ROOT, path.join(project, "node_modules", "shrinkscope"), "junction");

/** The same tests for both runners: `imports` brings test, it, fc and st; `check` asserts in a plain test. */
const tests = (imports: string, check: string) => `${imports}
let runs = 0;
test.prop([fc.nat(), fc.nat()])("addition commutes", (a, b) => a + b === b + a);
test.prop({ a: fc.nat(), s: st.text() })("a record of named values", ({ a, s }) => a >= 0 && typeof s === "string");
test.prop([fc.array(fc.nat())])("fails from three elements", (xs) => xs.length < 3);
test.skip.prop([fc.nat()])("is skipped", () => {
  throw new Error("a skipped test ran");
});
test.concurrent.prop([fc.nat()])("runs concurrently", async (n) => n >= 0);
it.prop([fc.string()], { numRuns: 7 })("it.prop with parameters", () => {
  runs++;
});
test("numRuns was kept", () => {
  ${check}
});
`;

const FILES = {
  vitest: {
    name: "prop.test.mjs",
    code: tests(
      'import { test, it, fc } from "shrinkscope/vitest";\nimport { st } from "shrinkscope";\nimport { expect } from "vitest";',
      "expect(runs).toBe(7);",
    ),
    args: (out: string) => [
      path.join(ROOT, "node_modules", "vitest", "vitest.mjs"),
      "run",
      "--root",
      project,
      "--reporter=json",
      `--outputFile=${out}`,
    ],
  },
  jest: {
    name: "prop.test.cjs",
    code: tests(
      'const { test, it, fc } = require("shrinkscope/jest");\nconst { st } = require("shrinkscope");\nconst { expect } = require("@jest/globals");',
      "expect(runs).toBe(7);",
    ),
    args: (out: string) => [
      path.join(ROOT, "node_modules", "jest", "bin", "jest.js"),
      "--rootDir",
      project,
      "--testMatch",
      "**/prop.test.cjs",
      "--ci",
      "--json",
      "--outputFile",
      out,
      "--cacheDirectory",
      path.join(project, ".jest-cache"),
    ],
  },
};

for (const [runner, file] of Object.entries(FILES)) {
  test(
    `${runner}: test.prop and it.prop run on the engine, with the runner's modifiers`,
    { timeout: 180_000 },
    async () => {
      fs.writeFileSync(path.join(project, file.name), file.code);
      const out = path.join(project, `${runner}.json`);
      const exit = await runNode(file.args(out), project, 150_000);
      const context = `\n--- stdout:\n${exit.stdout.slice(-3000)}\n--- stderr:\n${exit.stderr.slice(-3000)}`;
      assert.ok(fs.existsSync(out), `${runner} wrote no report${context}`);
      const report = JSON.parse(fs.readFileSync(out, "utf8")) as {
        testResults: { assertionResults: { title: string; status: string; failureMessages?: string[] }[] }[];
      };
      const results = report.testResults.flatMap((r) => r.assertionResults);
      const status = Object.fromEntries(results.map((r) => [r.title, r.status]));
      assert.deepEqual(
        status,
        {
          "addition commutes": "passed",
          "a record of named values": "passed",
          "fails from three elements": "failed",
          "is skipped": runner === "vitest" ? "skipped" : "pending",
          "runs concurrently": "passed",
          "it.prop with parameters": "passed",
          "numRuns was kept": "passed",
        },
        context,
      );
      const failure = results.find((r) => r.title === "fails from three elements")!.failureMessages!.join("\n");
      assert.match(failure, /Minimal failing arguments \(TypeScript\):\r?\n\s*\[0, 0, 0\]/, failure);
    },
  );
}
