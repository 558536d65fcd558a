/** The extension's settings (package.json "contributes.configuration"), read at the start of each run. */
import * as vscode from "vscode";
import * as path from "node:path";
import type { RunSettings } from "../protocol.ts";

export interface RunConfig {
  readonly settings: RunSettings;
  readonly timeoutMs: number;
}

export function runConfig(workspaceRoot: string): RunConfig {
  const c = vscode.workspace.getConfiguration("shrinkscope");
  const seed = c.get<number | null>("seed", null);
  const deadline = c.get<number | null>("deadline", null);
  const db = c.get<string>("databaseLocation", ".shrinkscope/examples");
  return {
    settings: {
      maxExamples: c.get<number>("maxExamples", 100),
      ...(seed !== null && Number.isSafeInteger(seed) ? { seed } : {}),
      ...(deadline !== null ? { deadline } : {}),
      database: db === "" ? null : path.resolve(workspaceRoot, db),
    },
    timeoutMs: Math.max(1000, c.get<number>("timeout", 60_000)),
  };
}
