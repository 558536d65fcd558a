/**
 * The `shrinkscope.databaseLocation` setting as the runner receives it. Pure (no vscode import), so it is
 * tested in Node. It must mean what the library's `database` setting means for the same text: an empty
 * (or blank) value turns the database off — the library treats `database: ""` the same way.
 */
import * as path from "node:path";

export const DEFAULT_DATABASE_LOCATION = ".shrinkscope/examples";

/** Absolute folder for the examples, or null for none; relative paths are relative to the workspace. */
export function databaseFolder(setting: unknown, workspaceRoot: string): string | null {
  // Not a string (a hand-edited settings.json with null or a number): the documented default, not "off".
  const location = typeof setting === "string" ? setting : DEFAULT_DATABASE_LOCATION;
  if (location.trim() === "") return null;
  return path.resolve(workspaceRoot, location);
}
