/**
 * Find the top-level arguments of a call in source text, skipping strings, template literals, comments and
 * nested brackets — enough to take a property call apart without a parser (the bundle stays small).
 */
export interface ArgumentRange {
  readonly start: number;
  readonly end: number;
}

/**
 * Arguments of the call whose callee starts at `calleeOffset` (e.g. the `p` of `property(`), or undefined when
 * the call is not closed (the file is being edited).
 */
export function splitArguments(source: string, calleeOffset: number): ArgumentRange[] | undefined {
  const open = source.indexOf("(", calleeOffset);
  if (open < 0) return undefined;
  const args: ArgumentRange[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open; i < source.length; i++) {
    const ch = source[i];
    if (ch === '"' || ch === "'") i = skipString(source, i, ch);
    else if (ch === "`") i = skipTemplate(source, i);
    else if (ch === "/" && source[i + 1] === "/") i = source.indexOf("\n", i) < 0 ? source.length : source.indexOf("\n", i);
    else if (ch === "/" && source[i + 1] === "*") i = source.indexOf("*/", i + 2) < 0 ? source.length : source.indexOf("*/", i + 2) + 1;
    else if (ch === "(" || ch === "[" || ch === "{") depth++;
    else if (ch === ")" || ch === "]" || ch === "}") {
      depth--;
      if (depth === 0) {
        if (source.slice(start, i).trim() !== "") args.push(range(source, start, i));
        return args;
      }
    } else if (ch === "," && depth === 1) {
      args.push(range(source, start, i));
      start = i + 1;
    }
  }
  return undefined;
}

function range(source: string, start: number, end: number): ArgumentRange {
  let s = start;
  while (s < end && /\s/.test(source[s])) s++;
  return { start: s, end: trimEnd(source, s, end) };
}

function trimEnd(source: string, start: number, end: number): number {
  let e = end;
  while (e > start && /\s/.test(source[e - 1])) e--;
  return e;
}

function skipString(source: string, i: number, quote: string): number {
  for (let j = i + 1; j < source.length; j++) {
    if (source[j] === "\\") j++;
    else if (source[j] === quote || source[j] === "\n") return j;
  }
  return source.length;
}

function skipTemplate(source: string, i: number): number {
  for (let j = i + 1; j < source.length; j++) {
    const ch = source[j];
    if (ch === "\\") j++;
    else if (ch === "`") return j;
    else if (ch === "$" && source[j + 1] === "{") {
      // Skip the substitution, which may itself hold strings and braces.
      let depth = 0;
      for (j = j + 1; j < source.length; j++) {
        const c = source[j];
        if (c === '"' || c === "'") j = skipString(source, j, c);
        else if (c === "`") j = skipTemplate(source, j);
        else if (c === "{") depth++;
        else if (c === "}" && --depth === 0) break;
      }
    }
  }
  return source.length;
}
