// The demo in a real VS Code: serves code-server on localhost with the Shrinkscope extension installed and
// examples/demo-workspace open. Open the printed URL in a browser and click "Run property".
// Run by `npm run demo` after the terminal demo (or alone: `node examples/demo-vscode.mjs`).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { spawnSync } from "node:child_process";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "..");
const install = spawnSync("bash", [path.join(REPO, "tools", "vscode-e2e", "install.sh")], { stdio: "inherit" });
if (install.status !== 0) process.exit(install.status ?? 1);
const { linkPackages, startCodeServer } = await import("../tools/vscode-e2e/launch.mjs");

const server = await startCodeServer({
  installExtensions: [REPO],
  smokeTestDriver: false,
  workspace: path.join(HERE, "demo-workspace"),
});
// The workspace is a temp copy: give it what `npm install` would, so that it opens with no TypeScript problem
// (shrinkscope's types, Node's) and the only one shown is Shrinkscope's failure.
linkPackages(server.workspace, { shrinkscope: REPO, "@types/node": path.join(REPO, "node_modules", "@types", "node") });
console.log(`\nVS Code with Shrinkscope is at:\n\n  ${server.workbenchUrl()}\n`);
console.log('Open it in a browser, open sort.test.ts and click "Run property" above a test. Ctrl+C stops the server.');
let stopping;
const stop = () => {
  stopping ??= server.stop().finally(() => process.exit(0));
  return stopping;
};
// SIGHUP too: closing the terminal the demo runs in must not leave code-server (its own process group, with the
// extension host and the runners under it) and its temp folder behind.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, stop);
if (process.argv.includes("--check")) {
  // Non-interactive: prove the server answers, then stop (used to check this script itself).
  const res = await fetch(server.workbenchUrl());
  console.log(`workbench answered ${res.status}`);
  await stop();
}
