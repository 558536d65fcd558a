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
 * One pattern for a string with a fixed prefix, parts in order and a suffix, any text between: `^ab.*@.*yz$`.
 * Each piece is a pattern source already (an escaped literal); `between` is what may stand between them.
 */
export function affixes(prefix: string, parts: readonly string[], suffix: string, between: string): string {
  return `^${prefix}${between}${parts.map((p) => p + between).join("")}${suffix}$`;
}

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
    const pre = PREFIX.exec(p);
    const suf = pre === null ? SUFFIX.exec(p) : null;
    if (pre !== null) {
      if (prefix !== undefined) return undefined;
      prefix = pre[1];
    } else if (suf !== null) {
      if (suffix !== undefined) return undefined;
      suffix = suf[1];
    } else if (CONTAINS.test(p)) parts.push(p);
    else return undefined;
  }
  return affixes(prefix ?? "", parts, suffix ?? "", ".*");
}
