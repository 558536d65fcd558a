/**
 * A database made of other databases (Hypothesis's MultiplexedDatabase): a team shares a failure database
 * (RedisDatabase) while each developer keeps the local folder as a fallback. It follows the ExampleDatabase
 * contract (exampleDatabase.ts): never throw — each part is called in its own try, so one part failing leaves the
 * others working — and return fresh arrays.
 */
import { encodeChoices } from "./encoding.ts";
import { errorMessage } from "./thrownValues.ts";
import {
  flushOf,
  noteOf,
  savedAtOf,
  type FailureNote,
  type NotedDatabase,
  type DatedDatabase,
  type ExampleDatabase,
  type FlushableDatabase,
  type StoredChoice,
} from "./exampleDatabase.ts";

/** How the parts' problems are reported (defaults to console.warn). */
export interface CompositeOptions {
  warn?: (message: string) => void;
}

/**
 * Reads every part (their sequences merged, each once, the first part's first), writes to every part. A
 * failure saved while one part is unreachable is still in the others.
 */
export class MultiplexedDatabase implements DatedDatabase, FlushableDatabase, NotedDatabase {
  readonly parts: readonly ExampleDatabase[];
  private readonly warn: (message: string) => void;
  /** The part each returned sequence came from (for savedAt). */
  private readonly sources = new WeakMap<readonly StoredChoice[], ExampleDatabase>();

  constructor(parts: readonly ExampleDatabase[], options: CompositeOptions = {}) {
    if (!Array.isArray(parts) || parts.length === 0)
      throw new TypeError("MultiplexedDatabase: parts must be a non-empty array of ExampleDatabase objects");
    this.parts = [...parts];
    this.warn = options.warn ?? ((message) => console.warn(message));
  }

  fetch(key: string): StoredChoice[][] {
    const out: StoredChoice[][] = [];
    const seen = new Set<string>();
    for (const [i, part] of this.parts.entries()) {
      const found = this.attempt(i, "fetch", () => part.fetch(key));
      if (!Array.isArray(found)) continue;
      for (const choices of found) {
        let text: string;
        try {
          text = encodeChoices(choices);
        } catch {
          continue; // not a choice sequence: GuardedDatabase reports what a part returns
        }
        if (seen.has(text)) continue;
        seen.add(text);
        out.push(choices);
        this.sources.set(choices, part);
      }
    }
    return out;
  }

  save(key: string, choices: readonly StoredChoice[]): void {
    for (const [i, part] of this.parts.entries()) this.attempt(i, "save", () => part.save(key, choices));
  }

  delete(key: string, choices: readonly StoredChoice[]): void {
    for (const [i, part] of this.parts.entries()) this.attempt(i, "delete", () => part.delete(key, choices));
  }

  flush(): void {
    for (const [i, part] of this.parts.entries()) this.attempt(i, "flush", () => flushOf(part));
  }

  note(key: string, choices: readonly StoredChoice[], note: FailureNote): void {
    for (const [i, part] of this.parts.entries()) this.attempt(i, "note", () => noteOf(part, key, choices, note));
  }

  savedAt(choices: readonly StoredChoice[]): number | undefined {
    const part = this.sources.get(choices);
    return part === undefined ? undefined : savedAtOf(part, choices);
  }

  private attempt<T>(i: number, method: string, f: () => T): T | undefined {
    try {
      return f();
    } catch (error) {
      try {
        this.warn(
          `Shrinkscope: MultiplexedDatabase part ${i} ${method} failed (the other parts still ${method === "fetch" ? "answered" : "had it"}): ${errorMessage(error)}`,
        );
      } catch {
        // a warn that throws must not stop the other parts
      }
      return undefined;
    }
  }
}
