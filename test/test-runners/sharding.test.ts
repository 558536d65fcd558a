/**
 * Sharded runs with the real runners: node:test's `--test-shard` and vitest's `--shard` split a project's property
 * files between machines — every file runs on exactly one shard, its failure reported with the same minimal
 * example as unsharded — and SHRINKSCOPE_SHARD on top changes only the seeds the shards generate from.
 *
 * Needs `npm run build` first (`npm test` does it): the project links this package as "shrinkscope".
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, test } from "node:test";

const ROOT = path.resolve(__dirname, "..", "..");
const project = fs.mkdtempSync(path.join(os.tmpdir(), "shrinkscope-shards-"));
after(() => fs.rmSync(project, { recursive: true, force: true }));

// Four files, one property each, failing with a minimal example that names its file.
const FILES = ["a", "b", "c", "d"].map((name, i) => ({ name: `${name}.test.mjs`, minimal: String(100 * (i + 1) + 1) }));
fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "shards", private: true, type: "module" }));
fs.mkdirSync(path.join(project, "node_modules"));
fs.symlinkSync(ROOT, path.join(project, "node_modules", "shrinkscope"));
FILES.forEach((f, i) => {
  const limit = 100 * (i + 1);
  const runner = i % 2 === 0 ? "node:test" : "vitest";
  fs.writeFileSync(
    path.join(project, f.name),
    `import { test } from ${JSON.stringify(runner === "vitest" ? "vitest" : "node:test")};\n` +
      `import { property, st } from "shrinkscope";\n` +
      `test("stays at most ${limit}", property(st.integers({ min: 0, max: 10000 }), (n) => {\n  if (n > ${limit}) throw new Error("over ${limit}: " + n);\n}));\n`,
  );
});

function run(args: string[], env: Record<string, string> = {}): string {
  const e: NodeJS.ProcessEnv = { ...process.env, CI: "true", NO_COLOR: "1", ...env };
  delete e.NODE_TEST_CONTEXT;
  const r = spawnSync(process.execPath, args, { cwd: project, env: e, encoding: "utf8", timeout: 120_000 });
  return r.stdout + r.stderr;
}

const failedFiles = (out: string, files: readonly { name: string; minimal: string }[]) =>
  files.filter((f) => out.includes(`over ${Number(f.minimal) - 1}: ${f.minimal}`)).map((f) => f.name);

test("node --test --test-shard=i/2: each property file runs on one shard, with its minimal example", () => {
  const nodeFiles = FILES.filter((_, i) => i % 2 === 0);
  const shards = [1, 2].map((i) => run(["--test", `--test-shard=${i}/2`, ...nodeFiles.map((f) => f.name)]));
  const ran = shards.map((out) => failedFiles(out, nodeFiles));
  assert.deepEqual([...ran[0], ...ran[1]].sort(), nodeFiles.map((f) => f.name).sort(), shards.join("\n----\n"));
  assert.ok(
    ran.every((r) => r.length === 1),
    "split between the shards",
  );
});

test("vitest run --shard=i/2: each property file runs on one shard, with its minimal example", () => {
  const vitestFiles = FILES.filter((_, i) => i % 2 === 1);
  const vitest = path.join(ROOT, "node_modules", "vitest", "vitest.mjs");
  const shards = [1, 2].map((i) =>
    run([vitest, "run", `--shard=${i}/2`, "--root", project, ...vitestFiles.map((f) => f.name)]),
  );
  const ran = shards.map((out) => failedFiles(out, vitestFiles));
  assert.deepEqual([...ran[0], ...ran[1]].sort(), vitestFiles.map((f) => f.name).sort(), shards.join("\n----\n"));
  assert.ok(
    ran.every((r) => r.length === 1),
    "split between the shards",
  );
});

test("SHRINKSCOPE_SHARD on top: the same minimal example, from each shard's own seed", () => {
  const file = FILES[0];
  const seeds = ["1/2", "2/2"].map((shard) => {
    const out = run(["--test", file.name], { SHRINKSCOPE_SHARD: shard });
    assert.ok(out.includes(`over 100: ${file.minimal}`), out);
    const m = /SHRINKSCOPE_SEED=(\d+)/.exec(out);
    assert.ok(m, out);
    return m[1];
  });
  assert.notEqual(seeds[0], seeds[1]);
});
