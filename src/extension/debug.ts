/**
 * Debug property: replay the saved minimal example under the debugger — no generation, no shrinking — so
 * breakpoints in the test stop on the failing input. Through the user's own test runner when the file has one
 * (the runner's command under a node launch configuration, the tap's environment carrying replay-only, and the
 * debugger attached to the workers the runner forks); otherwise the bundled runner in its command-line mode
 * (the request in a file). Source maps lead the debugger back to the original test file.
 */
import * as vscode from "vscode";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ensureTrusted, runRequest } from "./config.ts";
import { tapEnvironment } from "./externalRun.ts";
import { detectRunner, userRunnerCommand } from "./runnerDetect.ts";

export async function debugProperty(
  extensionUri: vscode.Uri,
  uri: vscode.Uri,
  testPath: readonly string[],
): Promise<void> {
  if (!ensureTrusted()) return;
  const { request, folder, runner } = runRequest(uri, testPath, true);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shrinkscope-debug-"));
  const source = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())?.getText() ?? "";
  const plan = detectRunner(uri.fsPath, request.workspaceRoot, runner, source);
  const name = `Debug property: ${testPath[testPath.length - 1]}`;
  if (plan.kind === "external") {
    const command = userRunnerCommand(plan, request.file, request.testPath);
    await vscode.debug.startDebugging(folder, {
      type: "node",
      request: "launch",
      name,
      runtimeExecutable: command.execPath,
      runtimeArgs: command.args,
      cwd: command.cwd,
      env: tapEnvironment(command, request, vscode.Uri.joinPath(extensionUri, "dist", "tap.cjs").fsPath, dir, {}),
      autoAttachChildProcesses: true,
      sourceMaps: true,
      skipFiles: ["<node_internals>/**", "**/node_modules/**"],
      console: "internalConsole",
    });
    return;
  }
  const requestFile = path.join(dir, "request.json");
  fs.writeFileSync(requestFile, JSON.stringify(request));
  await vscode.debug.startDebugging(folder, {
    type: "node",
    request: "launch",
    name,
    program: vscode.Uri.joinPath(extensionUri, "dist", "runner.js").fsPath,
    args: ["--request", requestFile],
    cwd: request.workspaceRoot,
    sourceMaps: true,
    resolveSourceMapLocations: ["**", "!**/node_modules/**"],
    skipFiles: ["<node_internals>/**", `${vscode.Uri.joinPath(extensionUri, "dist").fsPath}/**`],
    console: "internalConsole",
  });
}
