/**
 * Debug property: replay the saved minimal example under the debugger — no generation, no shrinking — so
 * breakpoints in the test stop on the failing input. The runner runs in its command-line mode (the request in
 * a file) under a node launch configuration; source maps lead the debugger back to the original test file.
 */
import * as vscode from "vscode";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ensureTrusted, runRequest } from "./config.ts";

export async function debugProperty(extensionUri: vscode.Uri, uri: vscode.Uri, testPath: readonly string[]): Promise<void> {
  if (!ensureTrusted()) return;
  const { request, folder } = runRequest(uri, testPath, true);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shrinkscope-debug-"));
  const requestFile = path.join(dir, "request.json");
  fs.writeFileSync(requestFile, JSON.stringify(request));
  await vscode.debug.startDebugging(folder, {
    type: "node",
    request: "launch",
    name: `Debug property: ${testPath[testPath.length - 1]}`,
    program: vscode.Uri.joinPath(extensionUri, "dist", "runner.js").fsPath,
    args: ["--request", requestFile],
    cwd: request.workspaceRoot,
    sourceMaps: true,
    resolveSourceMapLocations: ["**", "!**/node_modules/**"],
    skipFiles: ["<node_internals>/**", `${vscode.Uri.joinPath(extensionUri, "dist").fsPath}/**`],
    console: "internalConsole",
  });
}
