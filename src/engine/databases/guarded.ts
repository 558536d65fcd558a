/**
 * The database as the engine sees it: every call of a user's database (or one of ours) goes through
 * GuardedDatabase, which copies what it returns into plain choices, skips what is not a choice, turns what it
 * throws — or a promise it returns — into one warning, and never lets a database fault hide a test failure.
 */
import { isThenable } from "../util/thenable.ts";
import {
  flushOf,
  noteOf,
  savedAtOf,
  type DatabaseOptions,
  type DatedDatabase,
  type ExampleDatabase,
  type FailureNote,
  type StoredChoice,
} from "./exampleDatabase.ts";
import { describe, errorMessage } from "./thrownValues.ts";

const METHODS = ["fetch", "save", "delete"] as const;

/** More entries than this from one fetch are ignored: a huge (sparse) array must not stall the run. */
const MAX_FETCHED_ENTRIES = 10_000;
/** Per fetch, after this many skipped entries the rest are counted in one warning instead of one each. */
const MAX_SKIP_WARNINGS = 10;

// Intrinsic getters read internal slots, so a Proxy or a subclass with overridden accessors cannot lie to them.
const typedArrayProto = Object.getPrototypeOf(Uint8Array.prototype) as object;
const typedArrayTag = Object.getOwnPropertyDescriptor(typedArrayProto, Symbol.toStringTag)!.get!;

/**
 * A fresh copy of a stored choice, or undefined if `x` is not one. A Uint8Array is recognised by its internal
 * slot (a Proxy of one is not one) and copied, so nothing the user's database holds reaches the engine.
 */
function copyChoice(x: unknown): StoredChoice | undefined {
  switch (typeof x) {
    case "number":
    case "boolean":
    case "string":
      return x;
    case "object":
      if (x !== null && typedArrayTag.call(x) === "Uint8Array") return new Uint8Array(x as Uint8Array);
  }
  return undefined;
}

/**
 * The database as the engine sees it: every call of a user's database (or ours) goes through here, so a
 * fetch/save/delete that throws, rejects, or returns something that is not a list of choice sequences becomes
 * a warning and the run goes on — an I/O problem must never replace the failure being reported. Entries that
 * are not arrays of choices (number, boolean, string, Uint8Array) are skipped one by one, each with a warning.
 * What fetch returns is read once, inside try/catch, and copied into fresh arrays: the engine never holds an
 * object of the user's (a Proxy, an array with getters) that could throw or change later.
 */
export class GuardedDatabase implements DatedDatabase {
  private readonly rawWarn: (message: string) => void;
  /** Each copy fetch returned, and the inner database's array it copied (for savedAt). */
  private readonly originals = new WeakMap<readonly StoredChoice[], StoredChoice[]>();

  constructor(
    readonly inner: ExampleDatabase,
    /** How the database is named in warnings, e.g. "custom database" or "database .shrinkscope/examples". */
    private readonly name: string,
    options: DatabaseOptions = {},
  ) {
    this.rawWarn = options.warn ?? ((message) => console.warn(message));
  }

  fetch(key: string): StoredChoice[][] {
    let raw: unknown;
    try {
      raw = this.inner.fetch(key);
      if (!Array.isArray(raw)) {
        if (isThenable(raw)) {
          this.warn(
            `Shrinkscope: ${this.name} fetch returned a promise (fetch must be synchronous); an ExampleDatabase must return its arrays synchronously, so saved examples are not replayed`,
          );
          this.swallow(raw, "fetch");
        } else {
          this.warn(
            `Shrinkscope: ${this.name} fetch returned ${describe(raw)}, not an array of choice sequences; running without saved examples`,
          );
        }
        return [];
      }
      return this.copyEntries(raw);
    } catch (error) {
      this.warn(`Shrinkscope: ${this.name} fetch failed; running without saved examples: ${errorMessage(error)}`);
      return [];
    }
  }

  /** Read `raw`'s length once (it may be a Proxy), then each entry in its own try: one bad entry skips only itself. */
  private copyEntries(raw: unknown[]): StoredChoice[][] {
    const length = raw.length;
    const count = Math.min(typeof length === "number" && length > 0 ? length : 0, MAX_FETCHED_ENTRIES);
    const out: StoredChoice[][] = [];
    let skipped = 0;
    const skip = (i: number, why: string) => {
      if (++skipped <= MAX_SKIP_WARNINGS) this.warn(`Shrinkscope: ${this.name} fetch: skipping entry ${i}: ${why}`);
    };
    for (let i = 0; i < count; i++) {
      try {
        const entry: unknown = raw[i];
        if (!Array.isArray(entry)) {
          skip(i, `expected an array of choices, got ${describe(entry)}`);
          continue;
        }
        const n = entry.length;
        const copy: StoredChoice[] = [];
        let bad = -1;
        for (let j = 0; j < n; j++) {
          const c: unknown = entry[j];
          const choice = copyChoice(c);
          if (choice === undefined) {
            bad = j;
            const what = c === undefined || c === null || typeof c !== "object" ? String(c) : describe(c);
            skip(i, `choice ${j} is ${what}, not a number, boolean, string or Uint8Array`);
            break;
          }
          copy.push(choice);
        }
        if (bad < 0) {
          out.push(copy);
          this.originals.set(copy, entry as StoredChoice[]);
        }
      } catch (error) {
        skip(i, `it cannot be read: ${errorMessage(error)}`);
      }
    }
    if (skipped > MAX_SKIP_WARNINGS)
      this.warn(`Shrinkscope: ${this.name} fetch: skipped ${skipped - MAX_SKIP_WARNINGS} more entries`);
    if (typeof length === "number" && length > MAX_FETCHED_ENTRIES) {
      this.warn(
        `Shrinkscope: ${this.name} fetch returned ${length} entries; only the first ${MAX_FETCHED_ENTRIES} are replayed`,
      );
    }
    return out;
  }

  save(key: string, choices: readonly StoredChoice[]): void {
    this.call(
      "save",
      () => this.inner.save(key, choices),
      "the failure is still reported, but will not be replayed first next run",
    );
  }

  savedAt(choices: readonly StoredChoice[]): number | undefined {
    const original = this.originals.get(choices);
    return original === undefined ? undefined : savedAtOf(this.inner, original);
  }

  delete(key: string, choices: readonly StoredChoice[]): void {
    this.call(
      "delete",
      () => this.inner.delete(key, choices),
      "the example stays saved and is replayed again next run",
    );
  }

  flush(): void {
    try {
      flushOf(this.inner);
    } catch (error) {
      this.warn(`Shrinkscope: ${this.name} flush failed (a save may not have reached it): ${errorMessage(error)}`);
    }
  }

  note(key: string, choices: readonly StoredChoice[], note: FailureNote): void {
    this.call(
      "note",
      () => noteOf(this.inner, key, choices, note),
      "the failure is saved, without its printed example",
    );
  }

  private call(method: "save" | "delete" | "note", f: () => unknown, consequence: string): void {
    try {
      const r = f();
      // An asynchronous database is fire-and-forget here; its rejection still deserves a warning, not a crash.
      if (isThenable(r)) this.swallow(r, method, consequence);
    } catch (error) {
      this.warn(`Shrinkscope: ${this.name} ${method} failed (${consequence}): ${errorMessage(error)}`);
    }
  }

  /**
   * Attach a rejection handler to a thenable the database returned, so its rejection is a warning and never an
   * unhandled rejection (which kills the process). Neither the handler nor this call ever throws.
   */
  private swallow(r: PromiseLike<unknown>, method: string, consequence?: string): void {
    try {
      r.then(undefined, (error: unknown) => {
        if (consequence !== undefined)
          this.warn(`Shrinkscope: ${this.name} ${method} failed (${consequence}): ${errorMessage(error)}`);
      });
    } catch (error) {
      // A thenable whose `then` throws will never settle: nothing to wait for, nothing left to handle.
      this.warn(`Shrinkscope: ${this.name} ${method} returned a thenable whose then() throws: ${errorMessage(error)}`);
    }
  }

  /** Report through the warning channel; a warn function that throws must not replace the test's result either. */
  private warn(message: string): void {
    try {
      this.rawWarn(message);
    } catch {
      // nowhere left to report it
    }
  }
}

/** The ExampleDatabase methods `db` lacks (for the settings check, which names them). */
export function missingMethods(db: object): string[] {
  return METHODS.filter((m) => {
    try {
      return typeof (db as Record<string, unknown>)[m] !== "function";
    } catch {
      return true;
    }
  });
}
