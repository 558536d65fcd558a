/**
 * The `node` that runs the user's test runner: the one on PATH, as in the user's terminal and CI; failing that,
 * the editor's own executable acting as Node (VS Code's Electron with ELECTRON_RUN_AS_NODE), which runs every
 * runner but may be another Node version than the project's.
 */
import * as fs from "node:fs";
import * as path from "node:path";

export function nodeExecutable(env: NodeJS.ProcessEnv = process.env): { path: string; env?: Record<string, string> } {
  const names = process.platform === "win32" ? ["node.exe", "node.cmd"] : ["node"];
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (dir === "") continue;
    for (const name of names) {
      const candidate = path.join(dir, name);
      try {
        fs.accessSync(candidate, fs.constants.X_OK);
        if (fs.statSync(candidate).isFile()) return { path: candidate };
      } catch {
        // not here
      }
    }
  }
  return process.versions.electron !== undefined
    ? { path: process.execPath, env: { ELECTRON_RUN_AS_NODE: "1" } }
    : { path: process.execPath };
}
