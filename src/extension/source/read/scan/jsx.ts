/**
 * JSX in the tokenizer (scan.ts): recognised only where an expression may start and only if the element closes
 * properly; otherwise the `<` is plain punctuation. JSX text can hold `'`, `"`, `//` and unbalanced brackets,
 * which the JS rules would misread, so a whole element is one opaque token.
 */
import {
  COLON,
  COMMA,
  DOT,
  DQUOTE,
  EQ,
  GT,
  isIdentPart,
  isIdentStart,
  LBRACE,
  LT,
  MINUS,
  SLASH,
  SQUOTE,
  skipTrivia,
} from "./chars.ts";
import { MAX_DEPTH, token, type Token } from "./token.ts";

/** The scanner's state a JSX element is read from and leaves behind (`pos`), and its `${…}`-style expression reader. */
export interface JsxHost {
  readonly src: string;
  readonly len: number;
  pos: number;
  depth: number;
  /** Reads an expression from `pos` up to its closing `}`; false if it never closes. */
  expressionUntilBrace(): boolean;
}

export class JsxReader {
  /**
   * Characters that failed JSX attempts may still re-read. A failed attempt can scan to the end of the file
   * before giving up, so without a budget a file full of `<T>` casts would be quadratic.
   */
  private jsxBudget: number;

  constructor(
    private readonly host: JsxHost,
    budget: number,
  ) {
    this.jsxBudget = budget;
  }

  /** The JSX element at `start` (a `<`) as one token, or undefined (`pos` back at `start`): not JSX, or it never closes. */
  token(start: number): Token | undefined {
    if (this.jsxBudget <= 0 || !this.looksLikeJsx(start)) return undefined;
    this.host.pos = start;
    if (this.jsxElement()) return token("jsx", start, this.host.pos, "");
    this.jsxBudget -= Math.max(1, this.host.pos - start);
    this.host.pos = start;
    return undefined;
  }

  /** `<Name` or `<>`, but not a TSX generic arrow `<T,>(…)` / `<T extends U>(…)`. */
  private looksLikeJsx(start: number): boolean {
    const src = this.host.src;
    const c = src.charCodeAt(start + 1);
    if (c === GT) return true;
    if (!isIdentStart(c)) return false;
    let p = start + 2;
    while (p < this.host.len && isIdentPart(src.charCodeAt(p))) p++;
    p = skipTrivia(src, p);
    const after = src.charCodeAt(p);
    if (after === COMMA || after === EQ) return false;
    return !(src.startsWith("extends", p) && !isIdentPart(src.charCodeAt(p + 7)));
  }

  private jsxName(p: number): number {
    const src = this.host.src;
    while (p < this.host.len) {
      const c = src.charCodeAt(p);
      if (isIdentPart(c) || c === DOT || c === MINUS || c === COLON) p++;
      else break;
    }
    return p;
  }

  /** Parses the element at `this.host.pos` (a `<`); leaves `pos` after it, or where it failed. */
  private jsxElement(): boolean {
    if (this.host.depth >= MAX_DEPTH) return false;
    this.host.depth++;
    try {
      return this.jsxElementBody();
    } finally {
      this.host.depth--;
    }
  }

  /** Records where a JSX attempt gave up (for the budget) and fails. */
  private fail(p: number): false {
    this.host.pos = p;
    return false;
  }

  private jsxElementBody(): boolean {
    const src = this.host.src;
    let p = skipTrivia(src, this.host.pos + 1);
    if (src.charCodeAt(p) !== GT && !isIdentStart(src.charCodeAt(p))) return this.fail(p);
    const nameEnd = src.charCodeAt(p) === GT ? p : this.jsxName(p);
    const name = src.slice(p, nameEnd);
    p = nameEnd;
    // Attributes, up to `>` or `/>`.
    for (;;) {
      p = skipTrivia(src, p);
      this.host.pos = p;
      if (p >= this.host.len) return false;
      const c = src.charCodeAt(p);
      if (c === SLASH) {
        if (src.charCodeAt(p + 1) !== GT) return false;
        this.host.pos = p + 2;
        return true;
      }
      if (c === GT) {
        p++;
        break;
      }
      if (c === LBRACE) {
        if (!this.jsxContainer(p)) return false;
        p = this.host.pos;
      } else if (isIdentStart(c)) {
        p = skipTrivia(src, this.jsxName(p));
        if (src.charCodeAt(p) !== EQ) continue;
        p = skipTrivia(src, p + 1);
        const v = src.charCodeAt(p);
        if (v === DQUOTE || v === SQUOTE) {
          // JSX attribute strings have no escapes and may span lines.
          const close = src.indexOf(v === DQUOTE ? '"' : "'", p + 1);
          if (close < 0) return this.fail(this.host.len);
          p = close + 1;
        } else if (v === LBRACE) {
          if (!this.jsxContainer(p)) return false;
          p = this.host.pos;
        } else if (v === LT) {
          this.host.pos = p;
          if (!this.jsxElement()) return false;
          p = this.host.pos;
        } else {
          return this.fail(p);
        }
      } else {
        return false;
      }
    }
    // Children: text, `{expression}`, nested elements, then the matching closing tag.
    for (;;) {
      if (p >= this.host.len) return this.fail(this.host.len);
      const c = src.charCodeAt(p);
      if (c === LBRACE) {
        if (!this.jsxContainer(p)) return false;
        p = this.host.pos;
      } else if (c === LT) {
        const q = skipTrivia(src, p + 1);
        if (src.charCodeAt(q) === SLASH) {
          const closeStart = skipTrivia(src, q + 1);
          const closeEnd = this.jsxName(closeStart);
          const gt = skipTrivia(src, closeEnd);
          if (src.slice(closeStart, closeEnd) !== name || src.charCodeAt(gt) !== GT) return this.fail(gt);
          this.host.pos = gt + 1;
          return true;
        }
        this.host.pos = p;
        if (!this.jsxElement()) return false;
        p = this.host.pos;
      } else {
        p++;
      }
    }
  }

  private jsxContainer(p: number): boolean {
    this.host.pos = p + 1;
    return this.host.expressionUntilBrace();
  }
}
