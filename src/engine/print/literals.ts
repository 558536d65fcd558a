/**
 * Primitive values as literals: numbers (−0 kept), bigints, symbols (well-known and registered ones keep their
 * identity), property keys, and strings — double-quoted, escaping what would break a line, a UTF-8 file, a block
 * comment or a reader's eye (controls, lone surrogates, invisible and bidi characters, `*\/`).
 */

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
/** Canonical array indices; longer digit strings would not survive the trip through a number literal. */
const SMALL_INDEX = /^(?:0|[1-9]\d{0,14})$/;
export const ARRAY_INDEX = /^(?:0|[1-9]\d*)$/;

export function propertyKey(key: string | symbol): string {
  if (typeof key === "symbol") return `[${symbolLiteral(key)}]`;
  // Only a computed `__proto__` key creates an own property; `__proto__: x` and `"__proto__": x` set the prototype.
  if (key === "__proto__") return '["__proto__"]';
  if (IDENTIFIER.test(key) || SMALL_INDEX.test(key)) return key;
  return quote(key);
}

export function primitive(value: unknown): string {
  switch (typeof value) {
    case "undefined":
      return "undefined";
    case "boolean":
      return String(value);
    case "number":
      // String(-0) is "0"; the other specials (NaN, Infinity, -Infinity) are already valid expressions.
      return Object.is(value, -0) ? "-0" : String(value);
    case "bigint":
      return `${value}n`;
    case "string":
      return quote(value);
    case "symbol":
      return symbolLiteral(value);
    default:
      return "null";
  }
}

const WELL_KNOWN_SYMBOLS = new Map<symbol, string>(
  Object.getOwnPropertyNames(Symbol).flatMap((name): [symbol, string][] => {
    const symbol = (Symbol as unknown as Record<string, unknown>)[name];
    return typeof symbol === "symbol" ? [[symbol, `Symbol.${name}`]] : [];
  }),
);

function symbolLiteral(symbol: symbol): string {
  const wellKnown = WELL_KNOWN_SYMBOLS.get(symbol);
  if (wellKnown !== undefined) return wellKnown;
  const registered = Symbol.keyFor(symbol);
  if (registered !== undefined) return `Symbol.for(${quote(registered)})`;
  return symbol.description === undefined ? "Symbol()" : `Symbol(${quote(symbol.description)})`;
}

const SHORT_ESCAPES: Readonly<Record<number, string>> = {
  0x08: "\\b",
  0x09: "\\t",
  0x0a: "\\n",
  0x0b: "\\v",
  0x0c: "\\f",
  0x0d: "\\r",
  0x22: '\\"',
  0x5c: "\\\\",
};

/**
 * Code units escaped as \uXXXX: controls and line separators (which would break the line or the literal), lone
 * surrogates (which UTF-8 files cannot hold), and invisible or bidi-reordering characters (which would make
 * the pasted literal look different from what it holds).
 */
function needsUnicodeEscape(unit: number): boolean {
  return (
    unit < 0x20 ||
    (unit >= 0x7f && unit <= 0x9f) ||
    unit === 0xad ||
    (unit >= 0x200b && unit <= 0x200f) ||
    (unit >= 0x2028 && unit <= 0x202e) ||
    (unit >= 0x2060 && unit <= 0x206f) ||
    (unit >= 0xd800 && unit <= 0xdfff) ||
    unit === 0xfeff
  );
}

function isDigit(unit: number): boolean {
  return unit >= 0x30 && unit <= 0x39;
}

/** A double-quoted literal for any string, including ones that are not well-formed UTF-16. */
export function quote(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const unit = s.charCodeAt(i);
    const next = s.charCodeAt(i + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += s.slice(i, i + 2);
      i++;
    } else if (SHORT_ESCAPES[unit] !== undefined) {
      out += SHORT_ESCAPES[unit];
    } else if (unit === 0) {
      // "\01" would be a legacy octal escape, a syntax error in strict code.
      out += isDigit(next) ? "\\x00" : "\\0";
    } else if (unit === 0x2f && s.charCodeAt(i - 1) === 0x2a) {
      out += "\\/"; // never print `*/`, so the output can sit in a block comment
    } else if (needsUnicodeEscape(unit)) {
      out += `\\u${unit.toString(16).padStart(4, "0")}`;
    } else {
      out += s[i];
    }
  }
  return `${out}"`;
}
