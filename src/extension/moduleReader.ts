/**
 * Reading a module a test file imports, so the quick fix and the diagnostics can find a machine's class in it
 * (source/read/machineCall.ts asks; this answers). Only relative specifiers, resolved the simple way next to the
 * test file — the path as written, then with TypeScript's source extension for a `.js` one (`./ledger.js` is
 * `./ledger.ts` before compilation), then with each extension, then `index.*` in a folder — and only files
 * inside the workspace. No tsconfig paths, no packages. An open editor's text wins over the file on disk (it may be unsaved).
 *
 * No vscode import: the host passes the open documents' text in, and the unit tests a map.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { ModuleReader } from "./source/read/index.ts";

const EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];
/** A specifier written with the compiled extension names the source file. */
const SOURCE_EXTENSIONS: Record<string, readonly string[]> = {
  ".js": [".ts", ".tsx"],
  ".jsx": [".tsx"],
  ".mjs": [".mts"],
  ".cjs": [".cts"],
};
/** Larger files are not source a person wrote a class in. */
const MAX_BYTES = 2 * 1024 * 1024;

/** The files a relative import of `base` (an absolute path, extension as written) may name, in the order tried. */
export function moduleCandidates(base: string): string[] {
  const ext = path.extname(base);
  const stem = base.slice(0, base.length - ext.length);
  return [
    base,
    ...(SOURCE_EXTENSIONS[ext] ?? []).map((e) => stem + e),
    ...EXTENSIONS.map((e) => base + e),
    ...EXTENSIONS.map((e) => path.join(base, `index${e}`)),
  ];
}

export function moduleReader(
  testFile: string,
  workspaceRoot: string,
  openText: (file: string) => string | undefined,
): ModuleReader {
  const root = path.resolve(workspaceRoot);
  return (specifier) => {
    if (!specifier.startsWith("./") && !specifier.startsWith("../")) return undefined;
    for (const file of moduleCandidates(path.resolve(path.dirname(testFile), specifier))) {
      const relative = path.relative(root, file);
      if (relative.startsWith("..") || path.isAbsolute(relative)) return undefined;
      const open = openText(file);
      if (open !== undefined) return { fileName: file, source: open };
      try {
        const stat = fs.statSync(file);
        if (stat.isFile())
          return stat.size > MAX_BYTES ? undefined : { fileName: file, source: fs.readFileSync(file, "utf8") };
      } catch {
        // not this candidate
      }
    }
    return undefined;
  };
}
