/**
 * Where an expression may start, read off the previous significant token: what decides whether a `/` opens a
 * regex and a `<` may open JSX (scan.ts), and whether a `{` opens a block or an object literal.
 */
import type { Token } from "./token.ts";

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
export function expressionMayStart(prev: Token | undefined): boolean {
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
export const CONTROL_HEADS = new Set(["if", "while", "for", "with"]);

/** Punctuators after which a `{` opens a block (not an object literal): statement boundaries and `=>`. */
export const BLOCK_AFTER = new Set([";", "{", "}", ")", "=>"]);

/** Whether the `{` after `prev` opens a block rather than an object literal. */
export function opensBlock(prev: Token | undefined): boolean {
  if (prev === undefined) return true;
  if (prev.kind === "punct") return BLOCK_AFTER.has(prev.text);
  // `else {`, `try {`, `class A extends B {`: any word but one that starts an expression (`return {`).
  return prev.kind === "ident" && (prev.text === "else" || prev.text === "do" || !EXPRESSION_KEYWORDS.has(prev.text));
}
