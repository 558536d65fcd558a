// The repository is formatted by Prettier (.prettierrc.json, .prettierignore): code reads the same whoever wrote it,
// and a diff shows what changed, not how someone's editor wraps lines. `npm run format` applies it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";

test("every file Prettier covers is formatted (npm run format fixes what this lists)", () => {
  const prettier = createRequire(import.meta.url).resolve("prettier/bin/prettier.cjs");
  const r = spawnSync(process.execPath, [prettier, "--list-different", "."], { encoding: "utf8" });
  assert.equal(r.stderr.trim(), "", "prettier itself failed");
  assert.deepEqual(r.stdout.split("\n").filter(Boolean), [], "files not formatted: run npm run format");
});
