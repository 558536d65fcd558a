/**
 * Characters as the tokenizer (scan.ts) sees them: their codes, which are space, line breaks, digits and
 * identifier characters (ECMAScript's definitions, Unicode escapes aside), and skipping the trivia between
 * tokens (white space and comments).
 */

/** Character codes the tokenizer compares with. */
export const TAB = 9,
  LF = 10,
  VT = 11,
  FF = 12,
  CR = 13,
  SPACE = 32,
  DQUOTE = 34,
  DOLLAR = 36,
  SQUOTE = 39,
  STAR = 42,
  PLUS = 43,
  COMMA = 44,
  MINUS = 45,
  DOT = 46,
  SLASH = 47,
  COLON = 58,
  LT = 60,
  EQ = 61,
  GT = 62,
  QUESTION = 63,
  LBRACKET = 91,
  BACKSLASH = 92,
  RBRACKET = 93,
  BACKTICK = 96,
  LBRACE = 123;

export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

export function isUnicodeSpace(c: number): boolean {
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

export function isSpace(c: number): boolean {
  return c === SPACE || c === TAB || c === LF || c === CR || c === VT || c === FF || (c > 127 && isUnicodeSpace(c));
}

export function isIdentStart(c: number): boolean {
  // Non-ASCII counts as a letter: exact Unicode ID_Start tables would cost bundle size for no practical gain.
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === DOLLAR || (c > 127 && !isUnicodeSpace(c));
}

export function isIdentPart(c: number): boolean {
  return isIdentStart(c) || isDigit(c);
}

export function isLineBreak(c: number): boolean {
  return c === LF || c === CR || c === 0x2028 || c === 0x2029;
}

/** Skips whitespace and comments from `p`; an unterminated block comment runs to the end. */
export function skipTrivia(src: string, p: number): number {
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
