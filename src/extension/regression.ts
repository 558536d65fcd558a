/**
 * The text of a regression test for a minimal counterexample: pure string work, no vscode, unit-tested.
 *
 * The generated test calls the property's own body with the minimal arguments as literals, so it throws the
 * property's original error (the user's assertion, not a wrapper) until the bug is fixed:
 *   - an inline body is invoked in place, `((xs) => { … })([0, 1])` — TypeScript types an immediately
 *     invoked function's parameters from its arguments, so this compiles under strict settings;
 *   - a named body (`property(st.integers(), checkSorted)`) is called by name: `checkSorted(10)`.
 * It uses the enclosing test's own call (`test`/`it`) and is inserted right after it, indented like it.
 */
import { splitArguments } from "./sourceArgs.ts";

export interface RegressionInput {
  /** The whole file. */
  readonly source: string;
  /** Offset of the `property(`/`check(` call's callee in the file. */
  readonly propertyOffset: number;
  /** The test call's kind (`test`, `it`, …) and its own name. */
  readonly kind: string;
  readonly name: string;
  /** Offset of the start of the test statement's line and of where to insert (just after the statement). */
  readonly testLineStart: number;
  readonly insertAt: number;
  /** The minimal arguments printed as TypeScript (comma-separated), from the run. */
  readonly repro: string;
}

export interface TextInsertion {
  readonly offset: number;
  readonly text: string;
}

/** JS string literal for a test name (any string round-trips). */
export function quote(s: string): string {
  return JSON.stringify(s).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** The property body's source: the last function argument of the property call (before optional settings). */
export function propertyBody(source: string, propertyOffset: number): { text: string; isAsync: boolean; named: boolean } | undefined {
  const args = splitArguments(source, propertyOffset);
  if (args === undefined) return undefined;
  for (let i = args.length - 1; i >= 0; i--) {
    const text = source.slice(args[i].start, args[i].end).trim();
    if (text.startsWith("{")) continue; // settings object
    const isFunction = /^(async\s+)?(function\b|\(|[A-Za-z_$][\w$]*\s*=>)/.test(text);
    const named = /^[A-Za-z_$][\w$.]*$/.test(text);
    if (!isFunction && !named) return undefined;
    return { text, isAsync: /^async\b/.test(text), named };
  }
  return undefined;
}

export function regressionTest(input: RegressionInput): TextInsertion | undefined {
  const body = propertyBody(input.source, input.propertyOffset);
  if (body === undefined) return undefined;
  const indent = /^[ \t]*/.exec(input.source.slice(input.testLineStart))?.[0] ?? "";
  const eol = input.source.includes("\r\n") ? "\r\n" : "\n";
  const call = body.named ? `${body.text}(${input.repro})` : `(${reindent(body.text, indent + "  ", eol)})(${input.repro})`;
  const name = quote(`${input.name} (regression: minimal counterexample)`);
  const lines = body.isAsync
    ? [`${indent}${input.kind}(${name}, async () => {`, `${indent}  await ${call};`, `${indent}});`]
    : [`${indent}${input.kind}(${name}, () => {`, `${indent}  ${call};`, `${indent}});`];
  return { offset: input.insertAt, text: eol + eol + lines.join(eol) };
}

/** Re-indent the continuation lines of a copied function so it nests in the new test. */
function reindent(text: string, indent: string, eol: string): string {
  const lines = text.split(/\r?\n/);
  if (lines.length === 1) return text;
  const rest = lines.slice(1);
  const common = Math.min(...rest.filter((l) => l.trim() !== "").map((l) => /^[ \t]*/.exec(l)?.[0].length ?? 0));
  const last = rest[rest.length - 1];
  const closingIndent = /^[ \t]*/.exec(last)?.[0].length ?? 0;
  const base = Math.min(common, closingIndent);
  return [lines[0], ...rest.map((l) => (l.trim() === "" ? "" : indent + l.slice(base)))].join(eol);
}

/**
 * Pin the arguments as an explicit example of the property: add `examples: [[…]]` to its settings object
 * (creating the object if there is none), so they run first on every run.
 */
export function explicitExample(source: string, propertyOffset: number, repro: string): TextInsertion | undefined {
  const args = splitArguments(source, propertyOffset);
  if (args === undefined || args.length === 0) return undefined;
  const last = args[args.length - 1];
  const lastText = source.slice(last.start, last.end).trim();
  const example = `[${repro}]`;
  if (lastText.startsWith("{")) {
    // An existing settings object: extend `examples` if present, else add it first.
    const open = source.indexOf("{", last.start);
    const existing = /\bexamples\s*:\s*\[/.exec(source.slice(open, last.end));
    if (existing) {
      const at = open + existing.index + existing[0].length;
      return { offset: at, text: `${example}, ` };
    }
    return { offset: open + 1, text: ` examples: [${example}],` };
  }
  return { offset: last.end, text: `, { examples: [${example}] }` };
}
