/**
 * The example database: failing choice sequences saved so the next run replays them first (Hypothesis's
 * `.hypothesis/examples`). This file is the interface every database implements and the optional abilities one
 * may have (flush, notes, dates); the folder holds the implementations: a folder of files (directory.ts), memory
 * (inMemory.ts), Redis (redis/), and compositions of them (multiplexed.ts, readOnly.ts). GuardedDatabase
 * (guarded.ts) is how the engine calls any of them.
 *
 * The database is a cache, never the source of truth: a corrupt entry is skipped with a warning, and a failed save
 * warns instead of throwing — throwing there would hide the test failure being recorded behind an I/O error.
 * Deliberately self-contained: the databases depend on nothing of the engine but its clock and utilities.
 */

/** One recorded choice. Deliberately self-contained: this file must not depend on the rest of the engine. */
export type StoredChoice = number | boolean | string | Uint8Array;

export interface ExampleDatabase {
  /** All sequences saved under key (order: oldest first is fine). Never throws for corrupt data: skips it and warns. */
  fetch(key: string): StoredChoice[][];
  /**
   * Save (idempotent: saving the same sequence twice stores one copy). Never throws: a failure to record an
   * example is reported through the warning channel, so it cannot mask the test result being recorded.
   */
  save(key: string, choices: readonly StoredChoice[]): void;
  /** Remove a sequence if present. Never throws; failures are warned about. */
  delete(key: string, choices: readonly StoredChoice[]): void;
}

/**
 * A database that saves asynchronously (RedisDatabase) and can wait, boundedly, for writes still in flight: a
 * failure must not be lost when the test process exits right after the run. The engine calls `flush` at the
 * end of every run of a database that has one (flushOf). Never throws; what could not be confirmed is warned about.
 */
export interface FlushableDatabase extends ExampleDatabase {
  flush(): void;
}

/** Call `db.flush()` if it has one. Throws what flush throws (GuardedDatabase turns that into a warning). */
export function flushOf(db: ExampleDatabase): void {
  const f: unknown = (db as Partial<FlushableDatabase>).flush;
  if (typeof f === "function") (f as () => void).call(db);
}

/** What a saved failure looks like to a person: its printed minimal example and the error it ends with. */
export interface FailureNote {
  readonly repro: string;
  readonly error: string;
}

/**
 * A database that keeps, beside a saved sequence, how its failure reads (RedisDatabase): an editor on another
 * machine can then say "failed elsewhere: minimal example …" without running anything. The engine calls `note`
 * right after saving a failure, once its example is printed.
 */
export interface NotedDatabase extends ExampleDatabase {
  note(key: string, choices: readonly StoredChoice[], note: FailureNote): void;
}

/** Call `db.note(…)` if it has one. Throws what note throws (GuardedDatabase turns that into a warning). */
export function noteOf(db: ExampleDatabase, key: string, choices: readonly StoredChoice[], note: FailureNote): void {
  const f: unknown = (db as Partial<NotedDatabase>).note;
  if (typeof f === "function") (f as NotedDatabase["note"]).call(db, key, choices, note);
}

/**
 * A database that also knows when a sequence `fetch` returned (that same array) was last saved, in ms since the
 * epoch: the editor then says how old a replayed failure is. Optional for any ExampleDatabase (savedAtOf).
 */
export interface DatedDatabase extends ExampleDatabase {
  savedAt(choices: readonly StoredChoice[]): number | undefined;
}

/** When `choices` (as `db.fetch` returned it) was saved, if `db` says: a finite number, or undefined. Never throws. */
export function savedAtOf(db: ExampleDatabase, choices: readonly StoredChoice[]): number | undefined {
  try {
    const f: unknown = (db as Partial<DatedDatabase>).savedAt;
    const t: unknown = typeof f === "function" ? (f as DatedDatabase["savedAt"]).call(db, choices) : undefined;
    return typeof t === "number" && Number.isFinite(t) ? t : undefined;
  } catch {
    return undefined; // for display only: no date shown
  }
}

export interface DatabaseOptions {
  /** Where problems (corrupt files, failed writes) are reported. Defaults to console.warn. */
  warn?: (message: string) => void;
}
