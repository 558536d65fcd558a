/**
 * A scanned source: the tokens of `scan.ts` with their brackets matched, and the few questions every reader
 * asks of them — is token i this punctuator, split a call's arguments (skipping `<…>` type arguments), where
 * is offset x. Brackets are matched tolerantly, as half-typed code needs: a closer that skips openers closes
 * them implicitly, a stray closer is ignored, unclosed openers run to the end.
 */
import type { ScanOptions, Token } from "./scan.ts";
import { EXPRESSION_KEYWORDS, jsxDefault, scan } from "./scan.ts";

// ─────────────────────────────────────────── brackets ───────────────────────────────────────────

export const OPENERS: Record<string, string> = { "(": ")", "[": "]", "{": "}" };
const CLOSER_OPENS: Record<string, string> = { ")": "(", "]": "[", "}": "{" };

/**
 * For each opening bracket, the index of the token that closes it, and whether that is its own closer.
 * A closer that does not match the innermost opener but matches one further out closes everything in
 * between implicitly (a deleted `)` inside a test body then does not leak into the rest of the file); a
 * closer that matches nothing is ignored; openers still open at the end close at `tokens.length`.
 */
export function matchBrackets(tokens: readonly Token[]): { close: Int32Array; proper: Uint8Array } {
  const n = tokens.length;
  const close = new Int32Array(n).fill(-1);
  const proper = new Uint8Array(n);
  const stack: number[] = [];
  // How many of each opener are on the stack: a stray closer is then rejected in O(1), and the search
  // down the stack only runs when it will succeed, popping what it passes (so it is amortised O(1)).
  const open: Record<string, number> = { "(": 0, "[": 0, "{": 0 };
  for (let i = 0; i < n; i++) {
    const t = tokens[i]!;
    if (t.kind !== "punct") continue;
    if (OPENERS[t.text] !== undefined) {
      stack.push(i);
      open[t.text]!++;
      continue;
    }
    const opener = CLOSER_OPENS[t.text];
    if (opener === undefined || open[opener] === 0) continue;
    for (;;) {
      const k = stack.pop()!;
      const text = tokens[k]!.text;
      open[text]!--;
      close[k] = i;
      if (text === opener) {
        proper[k] = 1;
        break;
      }
    }
  }
  for (const k of stack) close[k] = n; // still open at the end: they run to the end of the file
  return { close, proper };
}

/** Offsets where each line starts; `\r\n`, `\n` and `\r` each end a line, as in VS Code. */
export function lineStarts(src: string): number[] {
  const starts = [0];
  for (let i = 0; i < src.length; i++) {
    const c = src.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) {
      if (src.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}

/** The value of a string literal token (its closing quote may be missing). */
export function decodeString(src: string, t: Token): string {
  return decodeEscapes(src.slice(t.start + 1, t.closed ? t.end - 1 : t.end));
}

const SIMPLE_ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", v: "\v", "0": "\0" };

/** JS string escapes: `\n`, `\x41`, `\u0041`, `\u{1F600}`, line continuations; any other `\c` is `c`. */
export function decodeEscapes(raw: string): string {
  if (!raw.includes("\\")) return raw;
  return raw.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|\r\n|[\s\S]?)/g, (_, e: string) => {
    if (e.length > 1 && (e[0] === "u" || e[0] === "x")) {
      const hex = e[1] === "{" ? e.slice(2, -1) : e.slice(1);
      const code = parseInt(hex, 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : e;
    }
    if (e === "\r\n" || e === "\n" || e === "\r" || e === "\u2028" || e === "\u2029") return "";
    return SIMPLE_ESCAPES[e] ?? e;
  });
}

// ─────────────────────────────────────────── Tokenized ───────────────────────────────────────────

/** Punctuators that may appear inside `<…>` type arguments (with names, literals and bracketed parts). */
const TYPE_PUNCTUATION = new Set([",", ".", "|", "&", "?", ":", "=>", "...", "-", "=", "<", ">"]);

/**
 * What may follow the `>` of type arguments in an expression: a call's `(`, a tagged template, or a token
 * that cannot start an expression. `a < b, c > d` (two comparisons) is followed by a name, so it is not.
 */
const AFTER_TYPE_ARGUMENTS = new Set(["(", "=>", ",", ")", "]", "}", ";", ".", "?."]);

/** A scanned source: its tokens, matched brackets, and the questions both consumers ask of them. */
export class Tokenized {
  readonly tokens: readonly Token[];
  readonly n: number;
  /** For each opener, the index of the token that closes it (`n` when it never closes). */
  readonly close: Int32Array;
  /** For each opener, 1 when its closer is its own kind (not an implicit close). */
  readonly proper: Uint8Array;
  private starts: number[] | undefined;

  constructor(
    readonly src: string,
    options: ScanOptions = {},
  ) {
    this.tokens = scan(src, options.jsx ?? jsxDefault(options.fileName));
    this.n = this.tokens.length;
    ({ close: this.close, proper: this.proper } = matchBrackets(this.tokens));
  }

  is(i: number, text: string): boolean {
    const t = this.tokens[i];
    return t !== undefined && t.kind === "punct" && t.text === text;
  }

  ident(i: number): string | undefined {
    const t = this.tokens[i];
    return t !== undefined && t.kind === "ident" ? t.text : undefined;
  }

  isMemberAccess(i: number): boolean {
    return this.is(i - 1, ".") || this.is(i - 1, "?.");
  }

  /** The decoded value of a string literal token, else undefined. */
  string(i: number): string | undefined {
    const t = this.tokens[i];
    return t !== undefined && t.kind === "string" ? decodeString(this.src, t) : undefined;
  }

  /** Source text from the start of token `first` to the end of token `last`. */
  text(first: number, last: number): string {
    return this.src.slice(this.tokens[first]!.start, this.tokens[last]!.end);
  }

  /** Whether tokens `i` and `i + 1` touch (no space or comment between): `+=` is `+` `=` touching. */
  touching(i: number): boolean {
    const a = this.tokens[i];
    const b = this.tokens[i + 1];
    return a !== undefined && b !== undefined && a.end === b.start;
  }

  /** The index of the token starting exactly at `offset`, or -1. */
  tokenAt(offset: number): number {
    let lo = 0;
    let hi = this.n - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const start = this.tokens[mid]!.start;
      if (start === offset) return mid;
      if (start < offset) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /**
   * When `lt` is the `<` of type arguments or parameters (`f<T>(…)`, `Map<K, V>`, `<T,>(x: T) =>`), the
   * index just after its `>`; else undefined. Only type-shaped tokens may come between, and the `>` must be
   * followed by what can follow type arguments, so a comparison `a < b` is never skipped.
   */
  typeArgumentsEnd(lt: number, limit = this.n): number | undefined {
    let depth = 0;
    const end = Math.min(limit, lt + 256);
    for (let k = lt; k < end; k++) {
      const t = this.tokens[k]!;
      if (t.kind === "regex" || t.kind === "jsx") return undefined;
      if (t.kind !== "punct") continue;
      const c = t.text;
      if (c === "<") depth++;
      else if (c === ">") {
        if (--depth > 0) continue;
        const after = this.tokens[k + 1];
        if (
          k + 1 >= limit ||
          after === undefined ||
          after.kind === "template" ||
          (after.kind === "punct" && AFTER_TYPE_ARGUMENTS.has(after.text))
        )
          return k + 1;
        // `<T>value`: a type assertion where an expression starts.
        return this.startsExpression(lt) ? k + 1 : undefined;
      } else if (OPENERS[c] !== undefined) {
        if (!this.proper[k]) return undefined;
        k = this.close[k]!;
      } else if (!TYPE_PUNCTUATION.has(c) || ((c === "&" || c === "|") && this.is(k + 1, c) && this.touching(k))) {
        return undefined; // `;`, `+`, `!`, `&&`, `||`: an expression, not a type
      }
    }
    return undefined;
  }

  /** Whether an expression starts at token `i` (judged by the token before it). */
  private startsExpression(i: number): boolean {
    const prev = this.tokens[i - 1];
    return (
      prev === undefined ||
      (prev.kind === "punct" && prev.text !== ")" && prev.text !== "]" && prev.text !== "}") ||
      (prev.kind === "ident" && EXPRESSION_KEYWORDS.has(prev.text))
    );
  }

  /**
   * Top-level comma-separated arguments between bracket `open` and its closer `close`, as inclusive token
   * ranges. Nested brackets and `<…>` type arguments are skipped whole; empty slots (a trailing comma) are
   * left out.
   */
  splitArguments(open: number, close: number): Array<readonly [number, number]> {
    const args: Array<readonly [number, number]> = [];
    let first = open + 1;
    const end = Math.min(close, this.n);
    for (let k = open + 1; k < end; k++) {
      const t = this.tokens[k]!;
      if (t.kind !== "punct") continue;
      if (t.text === ",") {
        if (k > first) args.push([first, k - 1]);
        first = k + 1;
      } else if (OPENERS[t.text] !== undefined) {
        k = Math.min(this.close[k]!, end); // an opener closed implicitly ends with this call
      } else if (t.text === "<") {
        const after = this.typeArgumentsEnd(k, end);
        if (after !== undefined) k = after - 1;
      }
    }
    if (end > first) args.push([first, end - 1]);
    return args;
  }

  /** 0-based line and character (UTF-16 code units, as VS Code) of an offset. */
  position(offset: number): { line: number; character: number } {
    const starts = (this.starts ??= lineStarts(this.src));
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: offset - starts[lo]! };
  }
}
