/** A database in process memory: for tests, and for runs that must not touch the disk. */
import type { DatabaseOptions, ExampleDatabase, StoredChoice } from "./exampleDatabase.ts";
import { decodeChoices, encodeChoices } from "./encoding.ts";
import { errorMessage } from "./thrownValues.ts";

/**
 * An ExampleDatabase in process memory, for tests and for runs that must not touch the disk. Sequences are
 * stored encoded, which gives the same dedupe-by-encoding semantics as DirectoryDatabase and hands callers
 * fresh copies they can mutate freely.
 */
export class InMemoryDatabase implements ExampleDatabase {
  private readonly entries = new Map<string, Set<string>>();
  private readonly warn: (message: string) => void;

  constructor(options: DatabaseOptions = {}) {
    this.warn = options.warn ?? ((message) => console.warn(message));
  }

  fetch(key: string): StoredChoice[][] {
    // A Set iterates in insertion order, and re-adding an existing member keeps its place: oldest first.
    return [...(this.entries.get(key) ?? [])].map(decodeChoices);
  }

  save(key: string, choices: readonly StoredChoice[]): void {
    try {
      const text = encodeChoices(choices);
      let forKey = this.entries.get(key);
      if (forKey === undefined) this.entries.set(key, (forKey = new Set()));
      forKey.add(text);
    } catch (error) {
      this.warn(`Shrinkscope: could not save example in memory: ${errorMessage(error)}`);
    }
  }

  delete(key: string, choices: readonly StoredChoice[]): void {
    const forKey = this.entries.get(key);
    if (forKey === undefined) return;
    try {
      forKey.delete(encodeChoices(choices));
    } catch {
      // Unencodable choices were never saved, so there is nothing to delete.
    }
    if (forKey.size === 0) this.entries.delete(key);
  }
}
