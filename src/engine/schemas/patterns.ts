/**
 * JSON Schema's `pattern` and `patternProperties`: ECMA-262 regular expressions, unanchored (a string matches when
 * it holds a match anywhere), read with the `u` flag as draft 2020-12 asks. Each source is compiled once.
 */
const compiled = new Map<string, RegExp>();

/** The pattern's RegExp; throws the RegExp's own SyntaxError for a pattern that is not one. */
export function patternRegExp(source: string): RegExp {
  let re = compiled.get(source);
  if (re === undefined) {
    re = new RegExp(source, "u");
    compiled.set(source, re);
  }
  return re;
}

export function patternTest(source: string, s: string): boolean {
  const re = patternRegExp(source);
  re.lastIndex = 0;
  return re.test(s);
}

/** A literal in a pattern: characters with no meaning of their own, or escaped ones. */
const LITERAL = String.raw`(?:[^\\^$.|?*+()[\]{}]|\\[\\^$.|?*+()[\]{}/-])+`;
const PREFIX = new RegExp(String.raw`^\^(${LITERAL})(?:\.\*)?$`);
const SUFFIX = new RegExp(String.raw`^(?:\.\*)?(${LITERAL})\$$`);
const CONTAINS = new RegExp(`^(${LITERAL})$`);

/**
 * Patterns that each only fix a prefix (`^ab.*`), a suffix (`.*yz$`) or a part (`@`) — what zod's toJSONSchema
 * writes for startsWith, endsWith and includes — as one pattern to draw from: `^ab.*@.*yz$` (strings where the
 * parts overlap, `"ab"` for `^a` and `b$`, are not drawn). Undefined when any is another kind of pattern, or two
 * fix a prefix (or a suffix): one is then drawn and the rest checked.
 */
export function affixPattern(patterns: readonly string[]): string | undefined {
  if (patterns.length < 2) return undefined;
  let prefix: string | undefined;
  let suffix: string | undefined;
  const parts: string[] = [];
  for (const p of patterns) {
    const m = PREFIX.exec(p) ?? undefined;
    const n = m === undefined ? (SUFFIX.exec(p) ?? undefined) : undefined;
    if (m !== undefined) {
      if (prefix !== undefined) return undefined;
      prefix = m[1];
    } else if (n !== undefined) {
      if (suffix !== undefined) return undefined;
      suffix = n[1];
    } else if (CONTAINS.test(p)) parts.push(p);
    else return undefined;
  }
  return `^${prefix ?? ""}.*${parts.map((p) => `${p}.*`).join("")}${suffix ?? ""}$`;
}
