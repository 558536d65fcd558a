/**
 * The state-machine examples (examples/machines) as a user runs them: they import the built package
 * ("shrinkscope" → dist/), typecheck under their own tsconfig (module NodeNext, as a user's project), and fail
 * on purpose, printing the minimal steps and the Explanation the README describes.
 *
 * Needs `npm run build` first.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";

const ROOT = path.resolve(__dirname, "..", "..");
const DIR = path.join(ROOT, "examples", "machines");

test("the machine examples typecheck against the built package's types", () => {
  const r = spawnSync(process.execPath, [path.join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", DIR], {
    encoding: "utf8",
  });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test("the demo workspace, as `npm run demo` serves it (a copy with shrinkscope and @types/node linked), has no TypeScript problem", () => {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), "shrinkscope-demo-ws-"));
  try {
    fs.cpSync(path.join(ROOT, "examples", "demo-workspace"), copy, { recursive: true });
    // What examples/demo-vscode.mjs links (linkPackages): the only problem VS Code shows is then Shrinkscope's.
    fs.mkdirSync(path.join(copy, "node_modules", "@types"), { recursive: true });
    fs.symlinkSync(ROOT, path.join(copy, "node_modules", "shrinkscope"));
    fs.symlinkSync(
      path.join(ROOT, "node_modules", "@types", "node"),
      path.join(copy, "node_modules", "@types", "node"),
    );
    const r = spawnSync(process.execPath, [path.join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", copy], {
      encoding: "utf8",
    });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
});

const FREE = "// or any other generated value";
/** An LRU put whose value is free, as the failure message prints it. */
const freePut = (key: string) => ["state.put({", `key: "${key}",`, `value: 0 ${FREE}`, "});"];
const EXPECTED: Record<string, string[]> = {
  // The explain phase's finding is printed too: a step's free argument on its own line, marked.
  "ledger.test.ts": [
    "const accounts_0 = state.open({",
    `name: "a" ${FREE}`,
    "});",
    "state.transfer({ src: accounts_0, dst: accounts_0, amount: 1 });",
    "state.totalsMatch();",
    "Explanation: assertion failed in invariant totalsMatch",
  ],
  "lru.test.ts": [
    ...freePut("0"),
    ...freePut("1"),
    'state.get({ key: "0" });',
    ...freePut("2"),
    "state.keysMatch();",
    "Explanation: assertion failed in invariant keysMatch",
  ],
};

for (const [file, lines] of Object.entries(EXPECTED)) {
  test(`examples/machines/${file} fails with its minimal steps`, () => {
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT; // its own run, not a subtest of ours
    const r = spawnSync(
      process.execPath,
      [
        "--import",
        pathToFileURL(path.join(ROOT, "node_modules", "tsx", "dist", "loader.mjs")).href,
        "--test",
        path.join(DIR, file),
      ],
      { encoding: "utf8", cwd: ROOT, env },
    );
    const out = r.stdout + r.stderr;
    assert.notEqual(r.status, 0, out);
    let at = 0;
    for (const line of lines) {
      const i = out.indexOf(line, at);
      assert.ok(i >= 0, `"${line}" (in order) in:\n${out}`);
      at = i;
    }
  });
}
