/** A significant token of source text, as the tokenizer (scan.ts) makes them and every reader gets them. */

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

export function token(
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

/** Nesting limit for templates-in-templates and JSX-in-JSX: deeper input is pathological, and recursion must not overflow. */
export const MAX_DEPTH = 200;
