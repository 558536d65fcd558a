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

/** Paths relative to the repository, sorted within each folder; fixture projects' own tests excluded. */
export function unitTestFiles() {
  const out = [];
  for (const folder of FOLDERS) {
    const dir = path.join(ROOT, "test", folder);
    const files = fs.readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith(".test.ts") && !f.split(path.sep).some((part) => part === "fixtures" || part === "projects" || part === "node_modules"));
    out.push(...files.sort().map((f) => path.join("test", folder, f)));
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(unitTestFiles().join("\n"));
