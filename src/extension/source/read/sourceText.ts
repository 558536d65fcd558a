/**
 * A file's source as every reader in the extension sees it: its tokens (`scan.ts`), its imports and its scopes,
 * each computed once and only when first asked for. Discovery, the quick fixes and runner detection take a
 * `SourceText` rather than a string, so one pass over a file — the CodeLens after an edit, then the quick fix on
 * the same text — tokenizes it once (`readSource` keeps the last few).
 */
import type { ScanOptions } from "./scan.ts";
import { jsxDefault } from "./scan.ts";
import { Tokenized } from "./tokens.ts";
import type { ImportBinding } from "./imports.ts";
import { importBindings } from "./imports.ts";
import type { Declaration } from "./scopes.ts";
import { Scopes } from "./scopes.ts";

export class SourceText extends Tokenized {
  private importList: readonly ImportBinding[] | undefined;
  private scopeTree: Scopes | undefined;

  /** What the file imports (`import`, `require`), in source order. */
  get imports(): readonly ImportBinding[] {
    return (this.importList ??= importBindings(this));
  }

  get scopes(): Scopes {
    return (this.scopeTree ??= new Scopes(this, this.imports));
  }

  /** The declaration `name` means at token `at` (JavaScript's scoping); undefined for a global. */
  resolve(name: string, at: number): Declaration | undefined {
    return this.scopes.resolve(name, at);
  }

  /** Whether code inserted at `offset` sees a declaration of `name` (an import, or one in a scope around it). */
  visibleAt(name: string, offset: number): boolean {
    return this.scopes.visibleAt(name, offset);
  }
}

/** The JSX choice a file's options make: the cache keeps texts read with and without JSX apart. */
function jsxOf(options: ScanOptions): boolean {
  return options.jsx ?? jsxDefault(options.fileName);
}

/** How many texts of each JSX kind stay read: an editor pass touches one document, a quick fix one more (an imported class). */
const KEPT = 4;
const recent: [Map<string, SourceText>, Map<string, SourceText>] = [new Map(), new Map()];
let scans = 0;

/** The source read once: the same text (with the same JSX choice) gives back the same `SourceText`. */
export function readSource(text: string, options: ScanOptions = {}): SourceText {
  const jsx = jsxOf(options);
  const cache = recent[jsx ? 1 : 0];
  const found = cache.get(text);
  if (found !== undefined) {
    // Most recently used last, so the oldest is the one dropped.
    cache.delete(text);
    cache.set(text, found);
    return found;
  }
  scans++;
  const read = new SourceText(text, { jsx });
  cache.set(text, read);
  if (cache.size > KEPT) cache.delete(cache.keys().next().value!);
  return read;
}

/**
 * A short text the engine printed (a repro's arguments, a step's argument object), read without JSX and not
 * kept: a quick fix reads many of them, and they must not push the document out of `readSource`'s few.
 */
export function readSnippet(text: string): SourceText {
  return new SourceText(text, { jsx: false });
}

/** How many texts `readSource` has tokenized so far: tests check that a pass over a file tokenizes it once. */
export function tokenizations(): number {
  return scans;
}
