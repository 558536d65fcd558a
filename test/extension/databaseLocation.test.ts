/**
 * `shrinkscope.databaseLocation` (the extension) and `database` (the library) agree on what a value means:
 * empty turns the database off in both, a relative folder is a folder under the workspace.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "node:test";
import { property, PropertyFailure, st } from "../../src/engine/index.ts";
import { databaseFolder } from "../../src/extension/databaseLocation.ts";

const ROOT = path.join(os.tmpdir(), "workspace");

test("empty or blank turns the database off", () => {
  assert.equal(databaseFolder("", ROOT), null);
  assert.equal(databaseFolder("  ", ROOT), null);
});

test("a relative folder is under the workspace; an absolute one is kept; a non-string is the default", () => {
  assert.equal(databaseFolder(".shrinkscope/examples", ROOT), path.join(ROOT, ".shrinkscope", "examples"));
  assert.equal(databaseFolder("../team-db", ROOT), path.resolve(ROOT, "..", "team-db"));
  const abs = path.join(os.tmpdir(), "db");
  assert.equal(databaseFolder(abs, ROOT), abs);
  for (const odd of [null, undefined, 42, {}])
    assert.equal(databaseFolder(odd, ROOT), path.join(ROOT, ".shrinkscope", "examples"));
});

test('the library reads database: "" as the extension does: off, nothing written', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shrinkscope-dbloc-"));
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    assert.equal(databaseFolder("", dir), null);
    assert.throws(
      () => property(st.integers(), (x) => assert.ok(x < 3), { database: "", derandomize: true })(),
      PropertyFailure,
    );
    assert.deepEqual(fs.readdirSync(dir), []);
  } finally {
    process.chdir(cwd);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
