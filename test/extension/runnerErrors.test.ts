/**
 * compileErrorsIn (src/extension/runnerErrors.ts) on what the runners print. The four runners' real outputs for
 * their fixture projects' broken files are checked end to end in test/test-runners/external.test.ts; here the shapes
 * around them: colour codes, relative paths, file URLs, node --test's "# " prefix, and what must not count.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { test } from "node:test";
import { compileErrorsIn } from "../../src/extension/runnerErrors.ts";

const root = path.resolve("/project");
const file = path.join(root, "test", "a.test.ts");

test("esbuild's format (0-based column), absolute, with node --test's '# ' prefix: 1-based line and column", () => {
  const out = `# Error [TransformError]: Transform failed with 1 error:\n# ${file}:6:29: ERROR: Unexpected ";"\n#     at failureErrorWithLog (x.js:1:1)`;
  assert.deepEqual(compileErrorsIn(out, file), [
    { message: 'Unexpected ";"', location: { file, line: 6, column: 30 } },
  ]);
});

test("oxc's frame (1-based column), a path relative to the project, coloured: the message is the line above", () => {
  const out =
    "Error: Transform failed with 1 error:\n\n\x1b[31m[PARSE_ERROR] \x1b[0mUnexpected token\n   \x1b[38;5;246m╭\x1b[0m\x1b[38;5;246m─\x1b[0m\x1b[38;5;246m[\x1b[0m test/a.test.ts:6:22 \x1b[38;5;246m]\x1b[0m\n";
  assert.deepEqual(compileErrorsIn(out, file), [
    { message: "Unexpected token", location: { file, line: 6, column: 22 } },
  ]);
});

test("Babel's format (jest): the error's name kept, the path dropped, the column made 1-based", () => {
  const out = `  ● Test suite failed to run\n\n    SyntaxError: ${file}: Unexpected token (4:21)\n\n    > 4 |   const total = (1 + ;\n        |                      ^`;
  assert.deepEqual(compileErrorsIn(out, file), [
    { message: "SyntaxError: Unexpected token", location: { file, line: 4, column: 22 } },
  ]);
});

test("Node's own syntax error (a file URL, the caret's column, the error below)", () => {
  const out = `file://${file}:3\n  const y = (1 + ;\n                 ^\n\nSyntaxError: Unexpected token ';'\n    at compileSourceTextModule (node:internal/modules/esm/utils:346:16)`;
  assert.deepEqual(compileErrorsIn(out, file), [
    { message: "SyntaxError: Unexpected token ';'", location: { file, line: 3, column: 18 } },
  ]);
});

test("not a compile error: another file's position, a stack frame into the file, mocha's wrapped error without a position", () => {
  const other = path.join(root, "src", "a.ts");
  assert.deepEqual(compileErrorsIn(`${other}:6:29: ERROR: Unexpected ";"`, file), []);
  assert.deepEqual(
    compileErrorsIn(
      `Error: boom\n    at Object.<anonymous> (${file}:12:5)\n    at Module._compile (node:internal/modules/cjs/loader:1554:14)`,
      file,
    ),
    [],
  );
  assert.deepEqual(compileErrorsIn(`Exception during run: SyntaxError[ @${file} ]: Unexpected token ';'`, file), []);
  // A file whose name ends the same is not this one.
  assert.deepEqual(compileErrorsIn(`/elsewhere/xa.test.ts:1:1: ERROR: nope`, file), []);
  assert.deepEqual(compileErrorsIn(`\n   ╭─[ other/test/a.test.tsx:1:1 ]`, file), []);
});

test("the same position printed twice (a runner repeating its summary) is one error", () => {
  const line = `${file}:2:4: ERROR: Expected ")"`;
  assert.equal(compileErrorsIn(`${line}\n${line}`, file).length, 1);
});
