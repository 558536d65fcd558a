/**
 * A database read and never written (Hypothesis's ReadOnlyDatabase): a developer reads CI's database without
 * writing into it.
 */
import { savedAtOf, type DatedDatabase, type ExampleDatabase, type StoredChoice } from "./exampleDatabase.ts";

/**
 * Reads `inner`, never writes it: a developer replays CI's failures without CI's database learning of their
 * local runs (or of a local fix deleting CI's entry).
 */
export class ReadOnlyDatabase implements DatedDatabase {
  constructor(readonly inner: ExampleDatabase) {
    if (inner === null || typeof inner !== "object" || typeof inner.fetch !== "function")
      throw new TypeError("ReadOnlyDatabase: inner must be an ExampleDatabase (an object with a fetch method)");
  }

  fetch(key: string): StoredChoice[][] {
    return this.inner.fetch(key);
  }

  save(_key: string, _choices: readonly StoredChoice[]): void {}

  delete(_key: string, _choices: readonly StoredChoice[]): void {}

  savedAt(choices: readonly StoredChoice[]): number | undefined {
    return savedAtOf(this.inner, choices);
  }
}
