// The unit tests `npm test` and `npm run test:unit` run: every *.test.ts under these folders of test/, which mirror
// the source folders (test/engine/<room>/ for src/engine/<room>/, test/shared/, test/runner/, test/extension/,
// test/webview/), plus property() under the user's test runners (test/test-runners/) and the repository's own
// rules (test/repository/: runtime and room boundaries, links in the docs, the examples in README).
// test/e2e/ (a real VS Code) runs apart: tools/vscode-e2e/run-e2e.mjs.
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const FOLDERS = ["engine", "shared", "webview", "extension", "runner", "test-runners", "repository"];

/** Folders whose tests are not ours to run: fixtures, fixture projects, and what tests install into them. */
const SKIP = new Set(["fixtures", "projects", "node_modules"]);

/** Paths relative to the repository, sorted within each folder; fixture projects' own tests excluded. */
export function unitTestFiles() {
  const out = [];
  for (const folder of FOLDERS) out.push(...testsUnder(path.join("test", folder)).sort());
  return out;
}

/** The *.test.ts files below `dir`, without following links (a test links the package into its fixture projects). */
function testsUnder(dir) {
  const out = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory() && !SKIP.has(entry.name)) out.push(...testsUnder(rel));
    else if (entry.isFile() && entry.name.endsWith(".test.ts")) out.push(rel);
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(unitTestFiles().join("\n"));
