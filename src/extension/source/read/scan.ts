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

// ───────────────────────────────────────────── scan ─────────────────────────────────────────────

export type TokenKind = "ident" | "punct" | "string" | "template" | "number" | "regex" | "jsx";

export interface Token {
  readonly kind: TokenKind;
  readonly start: number;
  readonly end: number;
  /** Identifier name or punctuator; "" for literals (the pass after reads them from the source if it needs to). */
  readonly text: string;
  /** Templates only: contains at least one `${`. */
  readonly substitutions: boolean;
  /** Strings and templates: false when the closing quote never came (the user is still typing). */
  readonly closed: boolean;
  /** `)` and `}` only: a statement, not an expression, may start after it (it closes `if (…)` or a block). */
  readonly statementAfter: boolean;
}

function token(
  kind: TokenKind,
  start: number,
  end: number,
  text: string,
  substitutions = false,
  closed = true,
  statementAfter = false,
): Token {
  return { kind, start, end, text, substitutions, closed, statementAfter };
}

const TAB = 9,
  LF = 10,
  VT = 11,
  FF = 12,
  CR = 13,
  SPACE = 32,
  DQUOTE = 34,
  DOLLAR = 36,
  SQUOTE = 39;
const STAR = 42,
  PLUS = 43,
  COMMA = 44,
  MINUS = 45,
  DOT = 46,
  SLASH = 47,
  COLON = 58,
  LT = 60,
  EQ = 61,
  GT = 62;
const QUESTION = 63,
  LBRACKET = 91,
  BACKSLASH = 92,
  RBRACKET = 93,
  BACKTICK = 96,
  LBRACE = 123;

/** Longest regex literal tried: a failed attempt rescans its line, so a long line of `(/` must not go quadratic. */
const MAX_REGEX = 2000;

/** Nesting limit for templates-in-templates and JSX-in-JSX: deeper input is pathological, and recursion must not overflow. */
const MAX_DEPTH = 200;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isUnicodeSpace(c: number): boolean {
  return (
    c === 0xa0 ||
    c === 0xfeff ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

function isSpace(c: number): boolean {
  return c === SPACE || c === TAB || c === LF || c === CR || c === VT || c === FF || (c > 127 && isUnicodeSpace(c));
}

function isIdentStart(c: number): boolean {
  // Non-ASCII counts as a letter: exact Unicode ID_Start tables would cost bundle size for no practical gain.
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === DOLLAR || (c > 127 && !isUnicodeSpace(c));
}

function isIdentPart(c: number): boolean {
  return isIdentStart(c) || isDigit(c);
}

function isLineBreak(c: number): boolean {
  return c === LF || c === CR || c === 0x2028 || c === 0x2029;
}

/** Keywords after which an expression (so a regex or JSX) starts, unlike other identifiers which end one. */
export const EXPRESSION_KEYWORDS: ReadonlySet<string> = new Set([
  "return",
  "typeof",
  "instanceof",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "case",
  "do",
  "else",
  "yield",
  "await",
  "extends",
]);

/**
 * The classic regex-vs-division rule: `/` starts a regex where an expression may start. `]`, and `)` or `}`
 * in general, end an expression; a `)` closing an `if (…)`/`while (…)`/`for (…)` head and a `}` closing a
 * block are followed by a statement instead (`if (ok) /re/.test(s)`), which the scan marks on the token.
 */
function expressionMayStart(prev: Token | undefined): boolean {
  if (prev === undefined) return true;
  switch (prev.kind) {
    case "ident":
      return EXPRESSION_KEYWORDS.has(prev.text);
    case "punct":
      if (prev.text === ")" || prev.text === "}") return prev.statementAfter;
      return !(prev.text === "]" || prev.text === "++" || prev.text === "--");
    default:
      return false;
  }
}

/** Keywords whose `(…)` head is followed by a statement, not by the rest of an expression. */
const CONTROL_HEADS = new Set(["if", "while", "for", "with"]);

/** Punctuators after which a `{` opens a block (not an object literal): statement boundaries and `=>`. */
const BLOCK_AFTER = new Set([";", "{", "}", ")", "=>"]);

/** Whether the `{` after `prev` opens a block rather than an object literal. */
function opensBlock(prev: Token | undefined): boolean {
  if (prev === undefined) return true;
  if (prev.kind === "punct") return BLOCK_AFTER.has(prev.text);
  // `else {`, `try {`, `class A extends B {`: any word but one that starts an expression (`return {`).
  return prev.kind === "ident" && (prev.text === "else" || prev.text === "do" || !EXPRESSION_KEYWORDS.has(prev.text));
}

/** Skips whitespace and comments from `p`; an unterminated block comment runs to the end. */
function skipTrivia(src: string, p: number): number {
  const len = src.length;
  while (p < len) {
    const c = src.charCodeAt(p);
    if (isSpace(c)) {
      p++;
    } else if (c === SLASH && src.charCodeAt(p + 1) === SLASH) {
      p += 2;
      while (p < len && !isLineBreak(src.charCodeAt(p))) p++;
    } else if (c === SLASH && src.charCodeAt(p + 1) === STAR) {
      const close = src.indexOf("*/", p + 2);
      p = close < 0 ? len : close + 2;
    } else {
      break;
    }
  }
  return p;
}

class Scanner {
  pos = 0;
  private depth = 0;
  /**
   * Characters that failed JSX attempts may still re-read. A failed attempt can scan to the end of the file
   * before giving up, so without a budget a file full of `<T>` casts would be quadratic.
   */
  private jsxBudget: number;
  private readonly len: number;

  constructor(
    private readonly src: string,
    private readonly jsx: boolean,
  ) {
    this.len = src.length;
    this.jsxBudget = 4 * src.length + 4096;
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
      const jsx = this.jsxToken(start);
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
  private expressionUntilBrace(): boolean {
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

  // ── JSX ──
  // Recognised only where an expression may start and only if the element closes properly; otherwise the
  // `<` is plain punctuation. JSX text can hold `'`, `"`, `//` and unbalanced brackets, which the JS rules
  // would misread, so a whole element is one opaque token.

  private jsxToken(start: number): Token | undefined {
    if (this.jsxBudget <= 0 || !this.looksLikeJsx(start)) return undefined;
    this.pos = start;
    if (this.jsxElement()) return token("jsx", start, this.pos, "");
    this.jsxBudget -= Math.max(1, this.pos - start);
    this.pos = start;
    return undefined;
  }

  /** `<Name` or `<>`, but not a TSX generic arrow `<T,>(…)` / `<T extends U>(…)`. */
  private looksLikeJsx(start: number): boolean {
    const src = this.src;
    const c = src.charCodeAt(start + 1);
    if (c === GT) return true;
    if (!isIdentStart(c)) return false;
    let p = start + 2;
    while (p < this.len && isIdentPart(src.charCodeAt(p))) p++;
    p = skipTrivia(src, p);
    const after = src.charCodeAt(p);
    if (after === COMMA || after === EQ) return false;
    return !(src.startsWith("extends", p) && !isIdentPart(src.charCodeAt(p + 7)));
  }

  private jsxName(p: number): number {
    const src = this.src;
    while (p < this.len) {
      const c = src.charCodeAt(p);
      if (isIdentPart(c) || c === DOT || c === MINUS || c === COLON) p++;
      else break;
    }
    return p;
  }

  /** Parses the element at `this.pos` (a `<`); leaves `pos` after it, or where it failed. */
  private jsxElement(): boolean {
    if (this.depth >= MAX_DEPTH) return false;
    this.depth++;
    try {
      return this.jsxElementBody();
    } finally {
      this.depth--;
    }
  }

  /** Records where a JSX attempt gave up (for the budget) and fails. */
  private fail(p: number): false {
    this.pos = p;
    return false;
  }

  private jsxElementBody(): boolean {
    const src = this.src;
    let p = skipTrivia(src, this.pos + 1);
    if (src.charCodeAt(p) !== GT && !isIdentStart(src.charCodeAt(p))) return this.fail(p);
    const nameEnd = src.charCodeAt(p) === GT ? p : this.jsxName(p);
    const name = src.slice(p, nameEnd);
    p = nameEnd;
    // Attributes, up to `>` or `/>`.
    for (;;) {
      p = skipTrivia(src, p);
      this.pos = p;
      if (p >= this.len) return false;
      const c = src.charCodeAt(p);
      if (c === SLASH) {
        if (src.charCodeAt(p + 1) !== GT) return false;
        this.pos = p + 2;
        return true;
      }
      if (c === GT) {
        p++;
        break;
      }
      if (c === LBRACE) {
        if (!this.jsxContainer(p)) return false;
        p = this.pos;
      } else if (isIdentStart(c)) {
        p = skipTrivia(src, this.jsxName(p));
        if (src.charCodeAt(p) !== EQ) continue;
        p = skipTrivia(src, p + 1);
        const v = src.charCodeAt(p);
        if (v === DQUOTE || v === SQUOTE) {
          // JSX attribute strings have no escapes and may span lines.
          const close = src.indexOf(v === DQUOTE ? '"' : "'", p + 1);
          if (close < 0) return this.fail(this.len);
          p = close + 1;
        } else if (v === LBRACE) {
          if (!this.jsxContainer(p)) return false;
          p = this.pos;
        } else if (v === LT) {
          this.pos = p;
          if (!this.jsxElement()) return false;
          p = this.pos;
        } else {
          return this.fail(p);
        }
      } else {
        return false;
      }
    }
    // Children: text, `{expression}`, nested elements, then the matching closing tag.
    for (;;) {
      if (p >= this.len) return this.fail(this.len);
      const c = src.charCodeAt(p);
      if (c === LBRACE) {
        if (!this.jsxContainer(p)) return false;
        p = this.pos;
      } else if (c === LT) {
        const q = skipTrivia(src, p + 1);
        if (src.charCodeAt(q) === SLASH) {
          const closeStart = skipTrivia(src, q + 1);
          const closeEnd = this.jsxName(closeStart);
          const gt = skipTrivia(src, closeEnd);
          if (src.slice(closeStart, closeEnd) !== name || src.charCodeAt(gt) !== GT) return this.fail(gt);
          this.pos = gt + 1;
          return true;
        }
        this.pos = p;
        if (!this.jsxElement()) return false;
        p = this.pos;
      } else {
        p++;
      }
    }
  }

  private jsxContainer(p: number): boolean {
    this.pos = p + 1;
    return this.expressionUntilBrace();
  }
}

export function jsxDefault(fileName: string | undefined): boolean {
  return fileName === undefined || !/\.[mc]?ts$/i.test(fileName);
}

/** The significant tokens of `src`: comments skipped; strings, templates, regexes and JSX elements one token each. */
export function scan(src: string, jsx: boolean): Token[] {
  return new Scanner(src, jsx).scanAll();
}
