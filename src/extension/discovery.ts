/**
 * Discovery: find the tests in a test file's source text, and say which of them are properties.
 *
 * The extension calls this on every edit (CodeLens "Run property", the Test Explorer tree), so it has three
 * jobs: be small, be fast, and never fail on half-typed code. That rules out the TypeScript compiler (~9 MB,
 * far over the < 1 MB bundle budget) and, in practice, parser libraries too: they throw or build recovery
 * trees on broken input, while we only ever need "which `test(...)`-shaped calls are where". So this is a
 * hand-written scanner and a light bracket pass, and it is pure (no `vscode`, no Node APIs): it also runs in
 * the runner and in unit tests.
 *
 *   scan       characters → significant tokens. Comments, strings, template literals (with nested `${…}`),
 *              regex literals and JSX elements each become a single opaque token, so fake `test("x",
 *              property(` text inside any of them is invisible to the next pass. Regex vs division uses the
 *              usual "previous significant token" rule; a regex that does not close on its line falls back
 *              to a `/` punctuator, and a JSX element that does not close falls back to `<`, so a wrong
 *              guess costs one token, not the rest of the file.
 *   structure  match brackets (tolerantly: a closer that skips openers closes them implicitly, a stray
 *              closer is ignored, unclosed openers run to the end), then walk the identifiers looking for
 *              `test|it|specify|describe|suite|context…` optionally followed by `.only/.skip/.each(…)/…`
 *              and then `(`. Suites nest by bracket extent; tests get their suites' names as a path.
 *
 * What matters most is `discoverTests` at the bottom; everything above it is in the order it runs.
 *
 * Deliberately not handled (the cost/benefit is poor for a lens): `t.test(...)` subtests, tests created
 * through helpers or renamed imports of `test`, decorator-style suites (`@suite class …`), and bracket
 * recovery by indentation (a describe whose `})` was deleted swallows the tests after it, which still
 * appear, only under the wrong path).
 */

/** One test call found in the source. Offsets and lines/characters are 0-based (UTF-16 code units, as VS Code). */
export interface DiscoveredTest {
  /** Enclosing describe/suite names, then the test's own name (template literals without ${} are plain names; with ${...} keep the raw text between backticks). */
  readonly path: readonly string[];
  /** The call kind: "test" | "it" | "specify" | ... (the callee, e.g. "test.only" → "test"). */
  readonly kind: string;
  /** 0-based offsets and 0-based line/character of the test call's start (the callee identifier) and of the whole call's end. */
  readonly range: {
    readonly start: number;
    readonly end: number;
    readonly startLine: number;
    readonly startCharacter: number;
    readonly endLine: number;
    readonly endCharacter: number;
  };
  /**
   * Where the property(...)/check(...)/find(...) call inside the callback starts, for diagnostics. When the
   * callback is an identifier bound to `property(...)` elsewhere in the file, this is that binding's call.
   */
  readonly propertyCall: { readonly offset: number; readonly line: number; readonly character: number; readonly callee: PropertyCallee } | undefined;
  /** True when the test is a property test: its callback is `property(...)` directly, or the callback body calls property/check/find, or the callback is an identifier bound in the same file to `property(...)`. */
  readonly isProperty: boolean;
  /** The position just after the whole test statement (after its closing paren, any `.timeout(…)`-style chain and an optional semicolon): where a regression test can be inserted. */
  readonly insertAfter: { readonly offset: number; readonly line: number; readonly character: number };
}

export type PropertyCallee = "property" | "check" | "find";

export interface DiscoverOptions {
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

type TokenKind = "ident" | "punct" | "string" | "template" | "number" | "regex" | "jsx";

interface Token {
  readonly kind: TokenKind;
  readonly start: number;
  readonly end: number;
  /** Identifier name or punctuator; "" for literals (the pass after reads them from the source if it needs to). */
  readonly text: string;
  /** Templates only: contains at least one `${`. */
  readonly substitutions: boolean;
  /** Strings and templates: false when the closing quote never came (the user is still typing). */
  readonly closed: boolean;
}

function token(kind: TokenKind, start: number, end: number, text: string, substitutions = false, closed = true): Token {
  return { kind, start, end, text, substitutions, closed };
}

const TAB = 9, LF = 10, VT = 11, FF = 12, CR = 13, SPACE = 32, DQUOTE = 34, DOLLAR = 36, SQUOTE = 39;
const STAR = 42, PLUS = 43, COMMA = 44, MINUS = 45, DOT = 46, SLASH = 47, COLON = 58, LT = 60, EQ = 61, GT = 62;
const QUESTION = 63, LBRACKET = 91, BACKSLASH = 92, RBRACKET = 93, BACKTICK = 96, LBRACE = 123;

/** Longest regex literal tried: a failed attempt rescans its line, so a long line of `(/` must not go quadratic. */
const MAX_REGEX = 2000;

/** Nesting limit for templates-in-templates and JSX-in-JSX: deeper input is pathological, and recursion must not overflow. */
const MAX_DEPTH = 200;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isUnicodeSpace(c: number): boolean {
  return c === 0xa0 || c === 0xfeff || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
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
const EXPRESSION_KEYWORDS = new Set(["return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield", "await", "extends"]);

/**
 * The classic regex-vs-division rule: `/` starts a regex where an expression may start. `)`, `]` and `}` are
 * taken to end an expression; the rare exceptions (`if (x) /re/`, a block then `/re/`) only lose that regex,
 * and only when it contains quotes or brackets does that matter.
 */
function expressionMayStart(prev: Token | undefined): boolean {
  if (prev === undefined) return true;
  switch (prev.kind) {
    case "ident":
      return EXPRESSION_KEYWORDS.has(prev.text);
    case "punct":
      return !(prev.text === ")" || prev.text === "]" || prev.text === "}" || prev.text === "++" || prev.text === "--");
    default:
      return false;
  }
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
    for (;;) {
      const t = this.next(prev);
      if (t === undefined) return tokens;
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
      else if ((c === PLUS || c === MINUS) && !hex && (src.charCodeAt(p - 1) | 32) === 101) p++; // 1e-5
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
    if (c === QUESTION && d === DOT && !isDigit(src.charCodeAt(start + 2))) length = 2; // ?.
    else if (c === EQ && d === GT) length = 2; // =>
    else if (c === DOT && d === DOT && src.charCodeAt(start + 2) === DOT) length = 3; // ...
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

// ─────────────────────────────────────────── structure ───────────────────────────────────────────

const OPENERS: Record<string, string> = { "(": ")", "[": "]", "{": "}" };
const CLOSER_OPENS: Record<string, string> = { ")": "(", "]": "[", "}": "{" };

/**
 * For each opening bracket, the index of the token that closes it, and whether that is its own closer.
 * A closer that does not match the innermost opener but matches one further out closes everything in
 * between implicitly (a deleted `)` inside a test body then does not leak into the rest of the file); a
 * closer that matches nothing is ignored; openers still open at the end close at `tokens.length`.
 */
function matchBrackets(tokens: readonly Token[]): { close: Int32Array; proper: Uint8Array } {
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

type Role = "test" | "suite";

/** Test and suite functions across node:test, vitest, jest and mocha (BDD and TDD), including jest's f/x aliases. */
const ROLES: ReadonlyMap<string, Role> = new Map<string, Role>([
  ["test", "test"], ["it", "test"], ["specify", "test"], ["fit", "test"], ["xit", "test"], ["xtest", "test"], ["xspecify", "test"],
  ["describe", "suite"], ["suite", "suite"], ["context", "suite"], ["fdescribe", "suite"], ["xdescribe", "suite"], ["xcontext", "suite"],
]);

/** `test.<modifier>` chains that still make a test. Anything else (`test.extend`, `it.next`) is not a test call. */
const MODIFIERS = new Set(["only", "skip", "todo", "concurrent", "sequential", "fails", "failing", "shuffle", "each", "for", "skipIf", "runIf"]);
/** Modifiers that take their own argument list (or tagged template) before the test's: `test.each(table)("name", fn)`. */
const PARAMETERISED = new Set(["each", "for", "skipIf", "runIf"]);

const CALLEES: ReadonlySet<string> = new Set<PropertyCallee>(["property", "check", "find"]);

interface Call {
  readonly role: Role;
  readonly kind: string;
  readonly calleeToken: number;
  /** Index of the `(` of the call that takes the name, and of its closer. */
  readonly open: number;
  readonly close: number;
  readonly proper: boolean;
  /** Arguments as inclusive token index ranges. */
  readonly args: ReadonlyArray<readonly [number, number]>;
}

interface Binding {
  readonly token: number;
  readonly callee: PropertyCallee;
}

/** Which identifiers call the property functions in this file. */
interface CalleeNames {
  /** Local name → function: `property`, `check`, `find` unless imported from elsewhere, plus renamed imports. */
  readonly bare: Map<string, PropertyCallee>;
  /** `import * as ss from "shrinkscope"` / `const ss = require(…)`: `ss.property(…)` counts. */
  readonly namespaces: Set<string>;
}

/** Our package, or a relative path (the project's own tests, or a user's re-export). */
function isOurModule(specifier: string): boolean {
  return specifier === "shrinkscope" || specifier.startsWith("shrinkscope/") || specifier.startsWith(".") || specifier.startsWith("/");
}

class Structure {
  private readonly close: Int32Array;
  private readonly proper: Uint8Array;
  private readonly n: number;
  private readonly lineStarts: number[];
  private names: CalleeNames = { bare: new Map(), namespaces: new Set() };
  private bindings = new Map<string, Binding>();

  constructor(
    private readonly src: string,
    private readonly tokens: readonly Token[],
  ) {
    this.n = tokens.length;
    ({ close: this.close, proper: this.proper } = matchBrackets(tokens));
    this.lineStarts = lineStarts(src);
  }

  private is(i: number, text: string): boolean {
    const t = this.tokens[i];
    return t !== undefined && t.kind === "punct" && t.text === text;
  }

  private ident(i: number): string | undefined {
    const t = this.tokens[i];
    return t !== undefined && t.kind === "ident" ? t.text : undefined;
  }

  private isMemberAccess(i: number): boolean {
    return this.is(i - 1, ".") || this.is(i - 1, "?.");
  }

  private string(i: number): string | undefined {
    const t = this.tokens[i];
    return t !== undefined && t.kind === "string" ? decodeString(this.src, t) : undefined;
  }

  discover(): DiscoveredTest[] {
    this.names = this.collectCalleeNames();
    this.bindings = this.collectBindings();
    const found: DiscoveredTest[] = [];
    // Suites whose extent we are inside, innermost last.
    const suites: Array<{ name: string; close: number }> = [];
    for (let i = 0; i < this.n; i++) {
      const t = this.tokens[i]!;
      if (t.kind !== "ident" || !ROLES.has(t.text)) continue;
      const call = this.recognise(i);
      if (call === undefined) continue;
      while (suites.length > 0 && suites[suites.length - 1]!.close <= i) suites.pop();
      const name = this.argumentText(call.args[0]!);
      if (call.role === "suite") suites.push({ name, close: call.close });
      else found.push(this.describeTest(call, [...suites.map((s) => s.name), name]));
    }
    return found;
  }

  /** A test or suite call starting at identifier `i`, or undefined when it is something else named `test`. */
  private recognise(i: number): Call | undefined {
    const name = this.tokens[i]!.text;
    const role = ROLES.get(name)!;
    // `x.test(…)`, `function test(…)`, `@test` are not calls of the test function.
    if (this.isMemberAccess(i) || this.is(i - 1, "@") || this.ident(i - 1) === "function") return undefined;
    let j = i + 1;
    while (this.is(j, ".")) {
      const modifier = this.ident(j + 1);
      if (modifier === undefined || !MODIFIERS.has(modifier)) return undefined;
      j += 2;
      if (!PARAMETERISED.has(modifier)) continue;
      if (this.is(j, "<")) j = this.skipTypeArguments(j); // test.each<Case>(…)
      if (this.is(j, "(")) {
        if (!this.proper[j]) return undefined;
        j = this.close[j]! + 1;
      } else if (this.tokens[j]?.kind === "template") {
        j++; // test.each`table`
      } else {
        return undefined;
      }
    }
    if (!this.is(j, "(")) return undefined;
    const open = j;
    const close = this.close[open]!;
    // `it(name) { … }` and `test(name: string): void …` are a method named `it`/`test`, not a call.
    if (this.proper[open] && (this.is(close + 1, "{") || this.is(close + 1, ":"))) return undefined;
    const args = this.splitArguments(open, close);
    if (args.length === 0) return undefined;
    // `context` is also an everyday variable name; only a call with a callback is mocha's suite.
    if (name === "context" && args.length < 2) return undefined;
    return { role, kind: name, calleeToken: i, open, close, proper: this.proper[open] === 1, args };
  }

  private skipTypeArguments(j: number): number {
    let depth = 0;
    for (let k = j; k < this.n && k < j + 200; k++) {
      if (this.is(k, "<")) depth++;
      else if (this.is(k, ">") && --depth === 0) return k + 1;
    }
    return j;
  }

  /** Top-level comma-separated arguments between `open` and `close`, skipping nested brackets whole. */
  private splitArguments(open: number, close: number): Array<readonly [number, number]> {
    const args: Array<readonly [number, number]> = [];
    let first = open + 1;
    let k = open + 1;
    for (; k < close; k++) {
      const t = this.tokens[k]!;
      if (t.kind !== "punct") continue;
      if (t.text === ",") {
        if (k > first) args.push([first, k - 1]);
        first = k + 1;
      } else if (OPENERS[t.text] !== undefined) {
        k = Math.min(this.close[k]!, close); // an opener closed implicitly ends with this call
      }
    }
    if (close > first) args.push([first, Math.min(close, this.n) - 1]);
    return args;
  }

  /** A name argument as the user would read it: a decoded literal, or the raw source of anything else. */
  private argumentText([first, last]: readonly [number, number]): string {
    const t = this.tokens[first]!;
    if (first === last) {
      if (t.kind === "string") return decodeString(this.src, t);
      if (t.kind === "template") {
        const raw = this.src.slice(t.start + 1, t.closed ? t.end - 1 : t.end);
        return t.substitutions ? raw : decodeEscapes(raw);
      }
    }
    return this.src.slice(t.start, this.tokens[last]!.end).trim();
  }

  private describeTest(call: Call, path: string[]): DiscoveredTest {
    const start = this.tokens[call.calleeToken]!.start;
    const end = this.endOf(call.close, call.proper);
    const property = this.findPropertyCall(call);
    const after = this.statementEnd(call);
    const s = this.position(start);
    const e = this.position(end);
    const a = this.position(after);
    return {
      path,
      kind: call.kind,
      range: { start, end, startLine: s.line, startCharacter: s.character, endLine: e.line, endCharacter: e.character },
      propertyCall: property && { offset: this.tokens[property.token]!.start, ...this.position(this.tokens[property.token]!.start), callee: property.callee },
      isProperty: property !== undefined,
      insertAfter: { offset: after, ...a },
    };
  }

  /** The offset just after a bracket's closer; for one closed implicitly (or never), after its last token. */
  private endOf(closeToken: number, proper: boolean): number {
    if (proper) return this.tokens[closeToken]!.end;
    return this.tokens[closeToken - 1]?.end ?? 0;
  }

  /** After `)`, any `.timeout(…)`-style chain (mocha) and an optional `;`. */
  private statementEnd(call: Call): number {
    if (!call.proper) return this.endOf(call.close, false);
    let k = call.close;
    while (this.is(k + 1, ".") && this.ident(k + 2) !== undefined && this.is(k + 3, "(") && this.proper[k + 3]) k = this.close[k + 3]!;
    if (this.is(k + 1, ";")) k++;
    return this.tokens[k]!.end;
  }

  /** The first property/check/find call in the arguments after the name, or the `property(…)` an identifier callback is bound to. */
  private findPropertyCall(call: Call): Binding | undefined {
    for (let a = 1; a < call.args.length; a++) {
      const [first, last] = call.args[a]!;
      if (first === last) {
        const bound = this.bindings.get(this.ident(first) ?? "");
        if (bound !== undefined) return bound;
      }
      for (let k = first; k <= last; k++) {
        const name = this.ident(k);
        if (name === undefined) continue;
        const callee = this.calleeAt(k);
        if (callee !== undefined) return { token: k, callee };
        // A test nested inside this one (usually a describe whose `})` is missing) owns its own property.
        if (ROLES.has(name)) {
          const nested = this.recognise(k);
          if (nested !== undefined) k = nested.close;
        }
      }
    }
    return undefined;
  }

  /** Whether identifier `k` starts a property/check/find call: `property(`, `prop(` (renamed) or `ss.property(`. */
  private calleeAt(k: number): PropertyCallee | undefined {
    const name = this.ident(k)!;
    if (this.isMemberAccess(k)) return undefined;
    const bare = this.names.bare.get(name);
    if (bare !== undefined) return this.is(k + 1, "(") ? bare : undefined;
    if (this.names.namespaces.has(name) && (this.is(k + 1, ".") || this.is(k + 1, "?."))) {
      const member = this.ident(k + 2);
      if (member !== undefined && CALLEES.has(member) && this.is(k + 3, "(")) return member as PropertyCallee;
    }
    return undefined;
  }

  /**
   * Imports and requires decide what `property`/`check`/`find` mean: by default the bare names are ours,
   * but `import { find } from "lodash"` makes `find(` not a property; `import { property as p } from
   * "shrinkscope"` makes `p(` one; a namespace import makes `ss.property(` one.
   */
  private collectCalleeNames(): CalleeNames {
    const bare = new Map<string, PropertyCallee>([["property", "property"], ["check", "check"], ["find", "find"]]);
    const namespaces = new Set<string>();
    const record = (specifier: string | undefined, namespace: string | undefined, named: Array<[imported: string, local: string]>): void => {
      if (specifier === undefined) return;
      const ours = isOurModule(specifier);
      if (ours && namespace !== undefined) namespaces.add(namespace);
      for (const [imported, local] of named) {
        if (ours && CALLEES.has(imported)) bare.set(local, imported as PropertyCallee);
        else if (!ours) bare.delete(local);
      }
    };
    for (let i = 0; i < this.n; i++) {
      const word = this.ident(i);
      if (word === "import" && !this.isMemberAccess(i) && !this.is(i + 1, "(") && !this.is(i + 1, ".")) {
        let j = i + 1;
        if (this.ident(j) === "type" && !this.is(j + 1, ",") && this.ident(j + 1) !== "from") continue;
        let namespace: string | undefined;
        let named: Array<[string, string]> = [];
        const first = this.ident(j);
        if (first !== undefined && first !== "from") {
          namespace = first; // default import: with CJS interop it is the namespace
          j++;
          if (this.is(j, ",")) j++;
        }
        if (this.is(j, "*") && this.ident(j + 1) === "as" && this.ident(j + 2) !== undefined) {
          namespace = this.ident(j + 2);
          j += 3;
        } else if (this.is(j, "{")) {
          named = this.specifiers(j, "as");
          j = this.close[j]! + 1;
        }
        if (this.ident(j) === "from") record(this.string(j + 1), namespace, named);
      } else if ((word === "const" || word === "let" || word === "var") && (this.is(i + 2, "=") || this.is(i + 1, "{"))) {
        // const ss = require("shrinkscope") / const { property: p } = require("shrinkscope")
        const destructured = this.is(i + 1, "{");
        const eq = destructured ? this.close[i + 1]! + 1 : i + 2;
        if (!this.is(eq, "=") || this.ident(eq + 1) !== "require" || !this.is(eq + 2, "(")) continue;
        const specifier = this.string(eq + 3);
        if (destructured) record(specifier, undefined, this.specifiers(i + 1, ":"));
        else record(specifier, this.ident(i + 1), []);
      }
    }
    return { bare, namespaces };
  }

  /** `{ a, b as c }` (or `{ a, b: c }` for destructuring) → [imported, local] pairs. */
  private specifiers(open: number, rename: "as" | ":"): Array<[string, string]> {
    const out: Array<[string, string]> = [];
    const end = this.close[open]!;
    for (let k = open + 1; k < end; k++) {
      let imported = this.ident(k);
      if (imported === undefined) continue;
      if (imported === "type" && this.ident(k + 1) !== undefined && this.ident(k + 1) !== "as") imported = this.ident(++k)!;
      const renamed = rename === "as" ? this.ident(k + 1) === "as" : this.is(k + 1, ":");
      const local = renamed ? this.ident(k + 2) : imported;
      if (local !== undefined) out.push([imported, local]);
      if (renamed) k += 2;
      while (k + 1 < end && !this.is(k + 1, ",")) k++;
    }
    return out;
  }

  /** `const name (: Type)? = property(…)` anywhere in the file, so `test("x", name)` is known to be a property. */
  private collectBindings(): Map<string, Binding> {
    const bindings = new Map<string, Binding>();
    for (let i = 0; i < this.n; i++) {
      const word = this.ident(i);
      if (word !== "const" && word !== "let" && word !== "var") continue;
      const name = this.ident(i + 1);
      if (name === undefined) continue;
      let k = i + 2;
      if (this.is(k, ":")) {
        // Skip the type annotation up to `=`, jumping over bracketed parts (object types, tuples).
        const limit = Math.min(this.n, k + 200);
        while (k < limit && !this.is(k, "=") && !this.is(k, ";")) k = this.is(k, "{") || this.is(k, "(") || this.is(k, "[") ? this.close[k]! + 1 : k + 1;
      }
      if (!this.is(k, "=")) continue;
      k++;
      if (this.ident(k) === "await") k++;
      if (this.ident(k) === undefined) continue;
      const callee = this.calleeAt(k);
      if (callee === "property") bindings.set(name, { token: k, callee });
    }
    return bindings;
  }

  private position(offset: number): { line: number; character: number } {
    const starts = this.lineStarts;
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

/** Offsets where each line starts; `\r\n`, `\n` and `\r` each end a line, as in VS Code. */
function lineStarts(src: string): number[] {
  const starts = [0];
  for (let i = 0; i < src.length; i++) {
    const c = src.charCodeAt(i);
    if (c === LF) starts.push(i + 1);
    else if (c === CR) {
      if (src.charCodeAt(i + 1) === LF) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}

/** The value of a string literal token (its closing quote may be missing). */
function decodeString(src: string, t: Token): string {
  return decodeEscapes(src.slice(t.start + 1, t.closed ? t.end - 1 : t.end));
}

const SIMPLE_ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", v: "\v", "0": "\0" };

/** JS string escapes: `\n`, `\x41`, `\u0041`, `\u{1F600}`, line continuations; any other `\c` is `c`. */
function decodeEscapes(raw: string): string {
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

function jsxDefault(fileName: string | undefined): boolean {
  return fileName === undefined || !/\.[mc]?ts$/i.test(fileName);
}

// ───────────────────────────────────────────── API ─────────────────────────────────────────────

/**
 * All tests (property or not) in `source`, in source order. Never throws; on broken input returns what it can
 * (at least every test that ends before the broken region).
 *
 * @example
 * discoverTests('describe("sort", () => { test("idempotent", property(st.lists(st.integers()), (xs) => {})); });')
 * // → [{ path: ["sort", "idempotent"], kind: "test", isProperty: true, … }]
 */
export function discoverTests(source: string, options: DiscoverOptions = {}): DiscoveredTest[] {
  const jsx = options.jsx ?? jsxDefault(options.fileName);
  const tokens = new Scanner(source, jsx).scanAll();
  return new Structure(source, tokens).discover();
}

/** Only the property tests in `source` (those with `isProperty`), in source order. */
export function discoverProperties(source: string, options: DiscoverOptions = {}): DiscoveredTest[] {
  return discoverTests(source, options).filter((t) => t.isProperty);
}
