/** The extension's settings (package.json "contributes.configuration"), read at the start of each run. */
import * as vscode from "vscode";
import * as path from "node:path";
import type { RunRequest } from "../shared/protocol.ts";
import type { RunConfig } from "./runConfig.ts";
import type { RunnerSetting } from "./runnerDetect.ts";
import { runConfigFrom } from "./runConfig.ts";

export function runConfig(workspaceRoot: string): RunConfig {
  const c = vscode.workspace.getConfiguration("shrinkscope");
  return runConfigFrom((key, fallback) => c.get(key, fallback), workspaceRoot);
}

/**
 * Whether user code may run here; if not, tells the user why (with a way to trust the workspace). Every path
 * that runs a property — a run, a replay, the debugger — asks this first.
 */
export function ensureTrusted(): boolean {
  if (vscode.workspace.isTrusted) return true;
  void vscode.window
    .showWarningMessage(
      "Shrinkscope runs your test code, so it only runs in a trusted workspace. Trust this workspace to run properties.",
      "Manage Workspace Trust",
    )
    .then((pick) => {
      if (pick) void vscode.commands.executeCommand("workbench.trust.manage");
    });
  return false;
}

/** The runner request for one test, with the workspace's settings, and the run's timeout. */
export function runRequest(
  uri: vscode.Uri,
  testPath: readonly string[],
  replayOnly: boolean,
  fresh = false,
): { request: RunRequest; timeoutMs: number; runner: RunnerSetting; folder: vscode.WorkspaceFolder | undefined } {
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  const workspaceRoot = folder?.uri.fsPath ?? path.dirname(uri.fsPath);
  const config = runConfig(workspaceRoot);
  const settings = replayOnly
    ? { ...config.settings, replayOnly: true }
    : fresh
      ? { ...config.settings, fresh: true }
      : config.settings;
  return {
    request: { type: "run", file: uri.fsPath, testPath, workspaceRoot, settings },
    timeoutMs: config.timeoutMs,
    runner: config.runner,
    folder,
  };
}
