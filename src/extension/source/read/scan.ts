/**
 * The one tokenizer the extension reads source with: discovery (which tests are where), the quick fixes (a
 * property call's arguments, its body's parameters and statements) and runner detection all work on its
 * tokens (through `sourceText.ts`), so they can never disagree about where a string, a comment or a regex ends.
 *
 * It is hand-written, small and pure (no `vscode`, no Node APIs), and it never fails: half-typed code is
 * the normal case in an editor. It was measured against @babel/parser with error recovery and TypeScript's
 * own parser (`npm run bench:source-parsers`; the figures and the decision are in docs/architecture.md,
 * "Reading source text"): as correct on the corpus, at least as good on half-typed files, a fraction of the
 * bundle, and faster per edit.
 *
 * Characters → significant tokens. Comments are skipped; strings, template literals (with
 * nested `${…}`), regex literals and JSX elements each become a single opaque token, so `test("x", property(`
 * text inside any of them is invisible to the passes after. Regex vs division is decided by the previous
 * significant token (a `)` closing an `if (…)` head or a `}` closing a block lets a regex start; other `)`/`}`
 * end an expression). A regex that does not close on its line falls back to a `/` punctuator, and a JSX
 * element that does not close falls back to `<`, so a wrong guess costs one token, not the rest of the file.
 * `tokens.ts` matches the brackets and answers the few questions every reader asks of the tokens.
 */
import {
  BACKSLASH,
  BACKTICK,
  CR,
  DOLLAR,
  DOT,
  DQUOTE,
  EQ,
  GT,
  isDigit,
  isIdentPart,
  isIdentStart,
  isLineBreak,
  LBRACE,
  LBRACKET,
  LF,
  LT,
  MINUS,
  PLUS,
  QUESTION,
  RBRACKET,
  skipTrivia,
  SLASH,
  SQUOTE,
} from "./scan/chars.ts";
import { CONTROL_HEADS, expressionMayStart, opensBlock } from "./scan/expressionStart.ts";
import { JsxReader, type JsxHost } from "./scan/jsx.ts";
import { MAX_DEPTH, token, type Token } from "./scan/token.ts";

export type { Token, TokenKind } from "./scan/token.ts";
export { EXPRESSION_KEYWORDS } from "./scan/expressionStart.ts";

export interface ScanOptions {
  /**
   * Whether `<Tag …>` in expression position may be JSX. Default: from `fileName` (off for .ts/.mts/.cts,
   * where `<T>(x: T) => x` and `<T>value` are not JSX), otherwise on. A wrong "on" only costs a failed
   * attempt per `<`; a wrong "off" only risks JSX text like `don't` opening a one-line string.
   */
  readonly jsx?: boolean;
  /** The file's name or path, used only to pick the `jsx` default. */
  readonly fileName?: string;
}

/** Longest regex literal tried: a failed attempt rescans its line, so a long line of `(/` must not go quadratic. */
const MAX_REGEX = 2000;

class Scanner implements JsxHost {
  pos = 0;
  depth = 0;
  private readonly jsxReader: JsxReader;
  readonly len: number;

  constructor(
    readonly src: string,
    private readonly jsx: boolean,
  ) {
    this.len = src.length;
    this.jsxReader = new JsxReader(this, 4 * src.length + 4096);
    if (src.startsWith("#!")) {
      // A hashbang line would otherwise read as `#`, `!` and a regex-ish `/usr/…`.
      while (this.pos < this.len && !isLineBreak(src.charCodeAt(this.pos))) this.pos++;
    }
  }

  scanAll(): Token[] {
    const tokens: Token[] = [];
    let prev: Token | undefined;
    // For each bracket still open: whether a statement may follow its closer (see `expressionMayStart`).
    const statementAfter: boolean[] = [];
    for (;;) {
      let t = this.next(prev);
      if (t === undefined) return tokens;
      if (t.kind === "punct") {
        const c = t.text;
        if (c === "(") {
          const head =
            prev?.kind === "ident" &&
            (CONTROL_HEADS.has(prev.text) || (prev.text === "await" && tokens[tokens.length - 2]?.text === "for"));
          statementAfter.push(head);
        } else if (c === "{") {
          statementAfter.push(opensBlock(prev));
        } else if (c === "[") {
          statementAfter.push(false);
        } else if ((c === ")" || c === "}" || c === "]") && statementAfter.pop() === true) {
          t = token("punct", t.start, t.end, c, false, true, true);
        }
      }
      tokens.push(t);
      prev = t;
    }
  }

  /** The next significant token, or undefined at the end. `prev` drives the regex and JSX decisions. */
  next(prev: Token | undefined): Token | undefined {
    const src = this.src;
    const start = (this.pos = skipTrivia(src, this.pos));
    if (start >= this.len) return undefined;
    const c = src.charCodeAt(start);
    if (isIdentStart(c)) {
      let p = start + 1;
      while (p < this.len && isIdentPart(src.charCodeAt(p))) p++;
      this.pos = p;
      return token("ident", start, p, src.slice(start, p));
    }
    if (isDigit(c) || (c === DOT && isDigit(src.charCodeAt(start + 1)))) return this.number(start);
    if (c === DQUOTE || c === SQUOTE) return this.string(start, c);
    if (c === BACKTICK) return this.template(start);
    if (c === SLASH && expressionMayStart(prev)) {
      const regex = this.regex(start);
      if (regex !== undefined) return regex;
    }
    if (c === LT && this.jsx && expressionMayStart(prev)) {
      const jsx = this.jsxReader.token(start);
      if (jsx !== undefined) return jsx;
    }
    return this.punct(start, c);
  }

  private number(start: number): Token {
    const src = this.src;
    const hex = src.charCodeAt(start) === 48 && (src.charCodeAt(start + 1) | 32) === 120; // 0x…: `e` is a digit there
    let p = start + 1;
    while (p < this.len) {
      const c = src.charCodeAt(p);
      if (isIdentPart(c) || c === DOT) p++;
      else if ((c === PLUS || c === MINUS) && !hex && (src.charCodeAt(p - 1) | 32) === 101)
        p++; // 1e-5
      else break;
    }
    this.pos = p;
    return token("number", start, p, "");
  }

  /** A quoted string. Unterminated strings stop at the line break: that is where a half-typed one really ends. */
  private string(start: number, quote: number): Token {
    const src = this.src;
    let p = start + 1;
    let closed = false;
    while (p < this.len) {
      const c = src.charCodeAt(p);
      if (c === quote) {
        p++;
        closed = true;
        break;
      }
      if (c === BACKSLASH) {
        // An escaped CRLF is one line continuation.
        p += src.charCodeAt(p + 1) === CR && src.charCodeAt(p + 2) === LF ? 3 : 2;
        continue;
      }
      if (c === LF || c === CR) break;
      p++;
    }
    this.pos = Math.min(p, this.len);
    return token("string", start, this.pos, "", false, closed);
  }

  /** A template literal; each `${` scans a nested expression (strings, braces, templates) up to its `}`. */
  private template(start: number): Token {
    const src = this.src;
    let p = start + 1;
    let substitutions = false;
    let closed = false;
    while (p < this.len) {
      const c = src.charCodeAt(p);
      if (c === BACKTICK) {
        p++;
        closed = true;
        break;
      }
      if (c === BACKSLASH) {
        p += 2;
        continue;
      }
      if (c === DOLLAR && src.charCodeAt(p + 1) === LBRACE) {
        substitutions = true;
        this.pos = p + 2;
        this.expressionUntilBrace();
        p = this.pos; // at the end of input when the `}` never came
        continue;
      }
      p++;
    }
    this.pos = Math.min(p, this.len);
    return token("template", start, this.pos, "", substitutions, closed);
  }

  /** Scans tokens after a `{` up to and including its `}`; false when the input ended first. */
  expressionUntilBrace(): boolean {
    if (this.depth >= MAX_DEPTH) {
      this.pos = this.len;
      return false;
    }
    this.depth++;
    try {
      let depth = 0;
      let prev: Token | undefined;
      for (;;) {
        const t = this.next(prev);
        if (t === undefined) return false;
        if (t.kind === "punct") {
          if (t.text === "{") depth++;
          else if (t.text === "}" && depth-- === 0) return true;
        }
        prev = t;
      }
    } finally {
      this.depth--;
    }
  }

  /** A regex literal, or undefined when it does not close on its line (then `/` was division after all). */
  private regex(start: number): Token | undefined {
    const src = this.src;
    let p = start + 1;
    let inClass = false;
    const limit = Math.min(this.len, start + MAX_REGEX);
    for (;;) {
      if (p >= limit) return undefined;
      const c = src.charCodeAt(p);
      if (isLineBreak(c)) return undefined;
      if (c === BACKSLASH) {
        if (p + 1 >= this.len || isLineBreak(src.charCodeAt(p + 1))) return undefined;
        p += 2;
        continue;
      }
      p++;
      if (c === LBRACKET) inClass = true;
      else if (c === RBRACKET) inClass = false;
      else if (c === SLASH && !inClass) break;
    }
    while (p < this.len && isIdentPart(src.charCodeAt(p))) p++; // flags
    this.pos = p;
    return token("regex", start, p, "");
  }

  private punct(start: number, c: number): Token {
    const src = this.src;
    const d = src.charCodeAt(start + 1);
    let length = 1;
    // Only the multi-character punctuators the structure pass or the regex rule care about.
    if (c === QUESTION && d === DOT && !isDigit(src.charCodeAt(start + 2)))
      length = 2; // ?.
    else if (c === EQ && d === GT)
      length = 2; // =>
    else if (c === DOT && d === DOT && src.charCodeAt(start + 2) === DOT)
      length = 3; // ...
    else if ((c === PLUS || c === MINUS) && d === c) length = 2; // ++ --
    this.pos = start + length;
    return token("punct", start, this.pos, src.slice(start, this.pos));
  }
}

export function jsxDefault(fileName: string | undefined): boolean {
  return fileName === undefined || !/\.[mc]?ts$/i.test(fileName);
}

/** The significant tokens of `src`: comments skipped; strings, templates, regexes and JSX elements one token each. */
export function scan(src: string, jsx: boolean): Token[] {
  return new Scanner(src, jsx).scanAll();
}
