/**
 * Where a test runner says the test file does not compile, from its own output: the bundled runner reports
 * esbuild's errors with positions (src/runner/main.ts), and a run through the user's runner must put the same
 * squiggle on the same line. Runners print it in their transformer's format, so this reads those there are
 * (columns as printed: esbuild's and Babel's count from 0, oxc's from 1):
 *
 *   esbuild (tsx, older vite):     /abs/test/a.test.ts:6:29: ERROR: Unexpected ";"
 *   oxc (vite 7+, so vitest 4):    [PARSE_ERROR] Unexpected token
 *                                     ╭─[ test/a.test.ts:6:22 ]
 *   Babel (jest):                  SyntaxError: /abs/test/a.test.js: Unexpected token (4:21)
 *   Node's own (plain .js/.mjs):   /abs/test/a.test.mjs:6            (then the source line, a caret, and)
 *                                  SyntaxError: Unexpected token ';'
 *
 * Only positions in the test file count, and only these shapes: a stack frame pointing into the file (a throw at
 * the file's top level) is a runtime error, not one of compiling, and stays text. A runner that names no position
 * (mocha wraps Node's error as `SyntaxError[ @file ]: …`) leaves the error as text, as before. Node only.
 */
import * as path from "node:path";
import type { CompileError } from "../shared/protocol.ts";

/**
 * Colour codes. NO_COLOR is set, but not every runner's every message honours it (vitest's parse errors come
 * coloured from its bundler): what the panel and the output channel show is plain text.
 */
export const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]/g;

/** The compile errors `output` reports in `file` (absolute), first one first; none when it names no position. */
export function compileErrorsIn(output: string, file: string): CompileError[] {
  // (node --test prefixes a file's own output with "# ")
  const lines = output
    .replace(ANSI, "")
    .split(/\r?\n/)
    .map((l) => l.replace(/^# /, ""));
  const errors: CompileError[] = [];
  const seen = new Set<string>();
  const add = (line: number, column: number, message: string): void => {
    const key = `${line}:${column}`;
    if (seen.has(key) || !(line >= 1) || !(column >= 1)) return;
    seen.add(key);
    errors.push({ message: message.trim(), location: { file, line, column } });
  };
  for (const [i, text] of lines.entries()) {
    for (const m of text.matchAll(/(\S+):(\d+):(\d+): ERROR: (.*)$/g)) {
      if (sameFile(m[1]!, file)) add(Number(m[2]), Number(m[3]) + 1, m[4]!);
    }
    const oxc = /╭─+\[\s*(\S+?):(\d+):(\d+)\s*\]/.exec(text);
    if (oxc !== null && sameFile(oxc[1]!, file)) {
      const above = lines
        .slice(Math.max(0, i - 3), i)
        .reverse()
        .find((l) => l.trim() !== "");
      add(Number(oxc[2]), Number(oxc[3]), (above ?? "").trim().replace(/^(×|\[\w+\])\s*/, ""));
    }
    const babel = /(\w*Error): (\S+?): (.*) \((\d+):(\d+)\)\s*$/.exec(text);
    if (babel !== null && sameFile(babel[2]!, file))
      add(Number(babel[4]), Number(babel[5]) + 1, `${babel[1]}: ${babel[3]}`);
    const node = /^(\S+):(\d+)$/.exec(text.trim());
    if (node !== null && sameFile(node[1]!, file)) {
      const caret = lines[i + 2]?.indexOf("^") ?? -1;
      const error = lines.slice(i + 1, i + 8).find((l) => /^\w*Error: /.test(l.trim()));
      if (error !== undefined) add(Number(node[2]), caret >= 0 ? caret + 1 : 1, error.trim());
    }
  }
  return errors;
}

/** Whether a path as a runner printed it (absolute, a file URL, or relative to its folder) is `file`. */
function sameFile(printed: string, file: string): boolean {
  let p = printed.replace(/^file:\/\//, "");
  try {
    p = decodeURIComponent(p);
  } catch {
    return false;
  }
  if (path.isAbsolute(p)) return path.resolve(p) === path.resolve(file);
  const rel = p.replace(/^\.\//, "").split(/[\\/]/).join(path.sep);
  return path.resolve(file).endsWith(`${path.sep}${rel}`);
}
