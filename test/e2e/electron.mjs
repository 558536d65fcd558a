// The same in-host tests under desktop VS Code, via @vscode/test-electron — for machines that can download
// VS Code (this project's CI cannot, so it runs them in code-server: tools/vscode-e2e). `npm run test:electron`.
import path from "node:path";
import fs from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { runTests } from "@vscode/test-electron";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "..", "..");
// A fresh copy of the fixture workspace: the tests edit files in it.
const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "shrinkscope-electron-"));
fs.cpSync(path.join(HERE, "fixtures", "workspace-props"), workspace, { recursive: true });
try {
  await runTests({
    extensionDevelopmentPath: REPO,
    extensionTestsPath: path.join(HERE, "fixtures", "host-tests", "index.js"),
    launchArgs: [workspace, "--disable-extensions", "--disable-workspace-trust"],
  });
} catch (e) {
  console.error(`in-host tests failed: ${e instanceof Error ? e.message : e}`);
  process.exitCode = 1;
} finally {
  fs.rmSync(workspace, { recursive: true, force: true });
}
