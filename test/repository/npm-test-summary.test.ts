/**
 * `npm test`'s closing lines (scripts/summary.mjs): tests are counted, a stage that failed without a failing test
 * is named and exits non-zero, and the last line is always "N passed, N failed" (CI reads it).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
// @ts-expect-error: a plain .mjs script without types
import { summarize } from "../../scripts/summary.mjs";

const unitOk = { out: "# tests 10\n# pass 10\n# fail 0\n", code: 0 };
const e2eOk = { out: "vscode-e2e: 2 check(s); screenshots in /tmp/x\n2 passed, 0 failed\n", code: 0 };
const last = (text: string) => text.split("\n").at(-1);

test("all green: the counts added up, exit 0, no stage named", () => {
  const s = summarize({ unit: unitOk, e2e: e2eOk });
  assert.equal(last(s.text), "12 passed, 0 failed");
  assert.deepEqual([s.stageFailures, s.exitCode], [[], 0]);
});

test("failing tests in either stage are counted", () => {
  const s = summarize({
    unit: { out: "# pass 8\n# fail 2\n", code: 1 },
    e2e: { out: "1 passed, 1 failed\n", code: 1 },
  });
  assert.equal(last(s.text), "9 passed, 3 failed");
  assert.deepEqual([s.stageFailures, s.exitCode], [[], 1]);
});

test("the VS Code toolchain install failed: named, not counted as failed tests, exit non-zero", () => {
  const e2e = {
    out: "vscode-e2e: VS Code toolchain install failed: tools/vscode-e2e/install.sh exited with 2 (its output is above)\n",
    code: 2,
  };
  const s = summarize({ unit: unitOk, e2e });
  assert.equal(last(s.text), "10 passed, 0 failed");
  assert.match(
    s.text,
    /^stage failed: VS Code toolchain install failed: tools\/vscode-e2e\/install\.sh exited with 2/m,
  );
  assert.equal(s.exitCode, 1);
});

test("a unit runner that crashed without a failing test, and an e2e that died before its summary, are named", () => {
  const s = summarize({
    unit: { out: "# pass 3\n", code: 7 },
    e2e: { out: "vscode-e2e: 12 check(s); screenshots in /tmp/x\n", code: 134 },
  });
  assert.equal(last(s.text), "3 passed, 0 failed");
  assert.equal(s.stageFailures.length, 2);
  assert.match(s.stageFailures[0], /exited with code 7 and no failing test/);
  assert.match(s.stageFailures[1], /exited with code 134 before reporting/);
  assert.equal(s.exitCode, 1);
});
