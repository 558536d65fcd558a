/**
 * Source text as lines of generated code: a body's statements copied into a regression test, re-indented to
 * sit at the test's own level, with lines inside a multi-line string or template kept exactly as they are
 * (their spaces are part of the value).
 */
import type { SourceText } from "../read/index.ts";
import type { Line } from "./generated.ts";

/**
 * The source between two offsets as lines, re-indented to start at column 0 (keeping their relative
 * indentation); lines that begin inside a multi-line template or string keep their exact text. Blank lines
 * at either end are dropped when `trim` is set (a block's inside).
 */
export function linesOf(t: SourceText, from: number, to: number, trim: boolean): Line[] {
  const src = t.src;
  const out: Array<{ start: number; text: string; verbatim: boolean }> = [];
  let start = from;
  for (;;) {
    const m = /\r\n|\n|\r|\u2028|\u2029/g;
    m.lastIndex = start;
    const found = m.exec(src);
    const end = found === null || found.index >= to ? to : found.index;
    out.push({ start, text: src.slice(start, end), verbatim: start !== from && insideLiteral(t, start) });
    if (end >= to) break;
    start = end + found![0].length;
  }
  if (trim) {
    while (out.length > 0 && out[0]!.text.trim() === "" && !out[0]!.verbatim) out.shift();
    while (out.length > 0 && out[out.length - 1]!.text.trim() === "" && !out[out.length - 1]!.verbatim) out.pop();
  }
  if (out.length === 0) return [];
  // The first line may continue the `{` line (`(x) => { f(x);`): its own indentation does not count.
  const firstOnOwnLine = out[0]!.start !== from || isLineStart(src, from);
  const measured = out.filter((l, i) => !l.verbatim && l.text.trim() !== "" && (i > 0 || firstOnOwnLine));
  const common = measured.length === 0 ? 0 : Math.min(...measured.map((l) => /^[ \t]*/.exec(l.text)![0].length));
  return out.map((l, i) => {
    if (l.verbatim) return { text: l.text, verbatim: true };
    if (i === 0 && !firstOnOwnLine) return { text: l.text.trimStart().trimEnd(), verbatim: false };
    return { text: l.text.slice(Math.min(common, /^[ \t]*/.exec(l.text)![0].length)).trimEnd(), verbatim: false };
  });
}

function isLineStart(src: string, offset: number): boolean {
  return /^[ \t]*$/.test(src.slice(src.lastIndexOf("\n", offset - 1) + 1, offset));
}

/** Whether an offset is inside a template or string token (a multi-line literal). */
function insideLiteral(t: SourceText, offset: number): boolean {
  let lo = 0;
  let hi = t.n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (t.tokens[mid]!.start < offset) lo = mid;
    else hi = mid - 1;
  }
  const tok = t.tokens[lo];
  return (
    tok !== undefined && tok.start < offset && offset < tok.end && (tok.kind === "template" || tok.kind === "string")
  );
}

/** `lines` with `prefix` before the first and `suffix` after the last. */
export function wrap(lines: readonly Line[], prefix: string, suffix: string): Line[] {
  const first = lines[0]!;
  const last = lines[lines.length - 1]!;
  if (lines.length === 1) return [{ text: prefix + first.text + suffix, verbatim: false }];
  return [
    { text: prefix + first.text, verbatim: false },
    ...lines.slice(1, -1),
    { text: last.text + suffix, verbatim: last.verbatim },
  ];
}
