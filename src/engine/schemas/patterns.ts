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
