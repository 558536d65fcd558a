/**
 * The example database: failing choice sequences saved so the next run replays them first (Hypothesis's
 * `.hypothesis/examples`).
 *
 * Layout: `<dir>/<keyHash>/<choicesHash>.json`, with `<dir>/<keyHash>/key.txt` holding the key for humans.
 * Naming a file by the hash of its own contents makes save idempotent and delete a single unlink.
 *
 * Two rules shape everything here:
 * - Writes are atomic (write a uniquely named `.tmp` file in the same folder, then rename it onto the final
 *   name). Several test processes may share one database and any of them may be killed mid-write (Ctrl-C, a
 *   test-runner timeout); rename within one folder is atomic, so a reader sees either no file or a whole one,
 *   never half of one. A killed writer leaves only a `.tmp` file, which readers ignore and eventually remove.
 *   We do not fsync: atomicity holds against process death, not power loss — and the next rule covers that.
 * - The database is a cache, never the source of truth. A corrupt or unreadable file (power loss, a bad merge,
 *   a hand edit, a file from a newer version) must not break the test run, so fetch skips it with a warning.
 *   Likewise a failed save warns instead of throwing: throwing there would hide the test failure we were
 *   trying to record behind an I/O error.
 */
import { createHash, randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { wallNow } from "../util/clock.ts";
import { isThenable } from "../util/thenable.ts";

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

const FORMAT = "shrinkscope-choices";
const VERSION = 1;
const KEY_FILE = "key.txt";
const TMP_SUFFIX = ".tmp";
const JSON_SUFFIX = ".json";
/** A `.tmp` file older than this belongs to a writer that died; a live writer renames within milliseconds. */
const STALE_TMP_MS = 60_000;

// Special numbers have no JSON literal; -0 has one ("-0") but JSON.stringify(-0) prints "0", losing the sign.
const SPECIAL_NUMBERS: ReadonlyMap<string, number> = new Map([
  ["-0", -0],
  ["NaN", NaN],
  ["Infinity", Infinity],
  ["-Infinity", -Infinity],
]);

type EncodedChoice = { n: number | string } | { b: boolean } | { s: string } | { y: string };

function encodeChoice(choice: StoredChoice, index: number): EncodedChoice {
  switch (typeof choice) {
    case "number":
      if (Object.is(choice, -0)) return { n: "-0" };
      // Finite doubles survive JSON exactly: JSON.stringify prints the shortest round-tripping decimal.
      if (Number.isFinite(choice)) return { n: choice };
      return { n: String(choice) }; // "NaN", "Infinity", "-Infinity"
    case "boolean":
      return { b: choice };
    case "string":
      // JSON.stringify (well-formed since ES2019) escapes lone surrogates as \udXXX, so they round-trip.
      return { s: choice };
    default:
      if (choice instanceof Uint8Array) {
        return { y: Buffer.from(choice.buffer, choice.byteOffset, choice.byteLength).toString("base64") };
      }
      throw new TypeError(`encodeChoices: choice ${index} is not a number, boolean, string or Uint8Array`);
  }
}

/** Serialize a choice sequence as versioned JSON in which every choice is tagged with its type. */
export function encodeChoices(choices: readonly StoredChoice[]): string {
  return JSON.stringify({ format: FORMAT, version: VERSION, choices: choices.map(encodeChoice) });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What a value is, for warnings. Never throws (Array.isArray throws on a revoked Proxy). */
function describe(value: unknown): string {
  if (value === null) return "null";
  try {
    if (Array.isArray(value)) return "an array";
  } catch {
    return "a revoked Proxy";
  }
  return typeof value === "string" ? JSON.stringify(value) : typeof value;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function decodeChoice(raw: unknown, index: number): StoredChoice {
  const where = `choices[${index}]`;
  if (!isPlainObject(raw)) throw new Error(`${where} must be an object with one tag, got ${describe(raw)}`);
  const keys = Object.keys(raw);
  if (keys.length !== 1) throw new Error(`${where} must have exactly one tag, got ${keys.length} keys`);
  const tag = keys[0]!;
  const value = raw[tag];
  switch (tag) {
    case "n":
      if (typeof value === "number") {
        // A literal like 1e400 parses to Infinity; the encoder never writes that, so treat it as corruption.
        if (!Number.isFinite(value)) throw new Error(`${where}: number literal out of range`);
        return value;
      }
      if (typeof value === "string" && SPECIAL_NUMBERS.has(value)) return SPECIAL_NUMBERS.get(value)!;
      throw new Error(`${where}: "n" must be a finite number or one of "-0", "NaN", "Infinity", "-Infinity", got ${describe(value)}`);
    case "b":
      if (typeof value === "boolean") return value;
      throw new Error(`${where}: "b" must be a boolean, got ${describe(value)}`);
    case "s":
      if (typeof value === "string") return value;
      throw new Error(`${where}: "s" must be a string, got ${describe(value)}`);
    case "y": {
      // Buffer.from(..., "base64") silently skips bad characters; demand canonical base64 so garbage is caught.
      if (typeof value !== "string") throw new Error(`${where}: "y" must be a base64 string, got ${describe(value)}`);
      const bytes = BASE64.test(value) ? Buffer.from(value, "base64") : undefined;
      if (bytes === undefined || bytes.toString("base64") !== value) throw new Error(`${where}: "y" is not valid base64`);
      // Copy into a plain Uint8Array: callers compare with Uint8Array semantics, not Buffer's.
      return new Uint8Array(bytes);
    }
    default:
      throw new Error(`${where}: unknown tag ${JSON.stringify(tag)} (expected "n", "b", "s" or "y")`);
  }
}

/** Parse text written by encodeChoices. Throws an Error saying what is wrong with anything else. */
export function decodeChoices(text: string): StoredChoice[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`invalid JSON: ${(error as Error).message}`);
  }
  if (!isPlainObject(parsed)) throw new Error(`expected a JSON object, got ${describe(parsed)}`);
  if (parsed["format"] !== FORMAT) {
    throw new Error(`"format" must be ${JSON.stringify(FORMAT)}, got ${describe(parsed["format"])}`);
  }
  if (parsed["version"] !== VERSION) {
    // Most likely written by a newer Shrinkscope; skipping it is safe, it is only a cache.
    throw new Error(`unsupported version ${JSON.stringify(parsed["version"]) ?? "undefined"} (this reader understands version ${VERSION})`);
  }
  const extra = Object.keys(parsed).filter((k) => k !== "format" && k !== "version" && k !== "choices");
  if (extra.length > 0) throw new Error(`unexpected field(s) ${extra.map((k) => JSON.stringify(k)).join(", ")}`);
  const choices = parsed["choices"];
  if (!Array.isArray(choices)) throw new Error(`"choices" must be an array, got ${describe(choices)}`);
  return choices.map(decodeChoice);
}

function shortHash(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex").slice(0, 16);
}

/**
 * The message of a thrown value, for warnings. Never throws: a custom database may throw anything (a
 * null-prototype object, a toString or message getter that throws, a revoked Proxy), and a warning that
 * throws would replace the failure being reported (or, from a rejection handler, crash the process).
 */
export function errorMessage(error: unknown): string {
  try {
    if (error instanceof Error) {
      const message: unknown = error.message;
      if (typeof message === "string") return message;
    }
  } catch {
    // a throwing message getter or getPrototypeOf trap: fall through to the other readings
  }
  try {
    if (typeof error !== "object" && typeof error !== "function") return String(error);
    const text: unknown = String(error);
    if (typeof text === "string") return text;
  } catch {
    // no usable toString: describe it instead
  }
  try {
    return `a thrown ${Object.prototype.toString.call(error)} that cannot be converted to a string`;
  } catch {
    return `a thrown ${describe(error)} that cannot be read`;
  }
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

// fatal: a file that is not valid UTF-8 is corrupt; the default decoder would quietly substitute U+FFFD and
// could turn a damaged string choice into a different, valid-looking one.
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Files under a directory, one folder per key. Safe to share between processes. */
export class DirectoryDatabase implements DatedDatabase {
  readonly dir: string;
  private readonly warn: (message: string) => void;
  /** Modification time of each file as fetch read it: delete leaves a file that was saved again since. */
  private readonly fetchedMtimes = new Map<string, number>();
  /** The sequences fetch returned, with their file's modification time (savedAt). */
  private readonly returnedAt = new WeakMap<readonly StoredChoice[], number>();

  constructor(dir: string, options: DatabaseOptions = {}) {
    this.dir = dir;
    this.warn = options.warn ?? ((message) => console.warn(message));
  }

  private keyDir(key: string): string {
    return path.join(this.dir, shortHash(key));
  }

  fetch(key: string): StoredChoice[][] {
    // (Absent folders are the common case — a property with nothing saved — and are asked about without a
    // thrown ENOENT: an exception's stack costs more than the rest of the fetch.)
    try {
      const stat = fs.statSync(this.dir, { throwIfNoEntry: false });
      if (stat === undefined) return [];
      if (!stat.isDirectory()) {
        this.warn(`Shrinkscope: example database path ${this.dir} is not a directory; ignoring it`);
        return [];
      }
    } catch (error) {
      if (errorCode(error) !== "ENOENT") {
        this.warn(`Shrinkscope: cannot read example database ${this.dir}: ${errorMessage(error)}`);
      }
      return [];
    }

    const keyDir = this.keyDir(key);
    let names: string[];
    try {
      if (fs.statSync(keyDir, { throwIfNoEntry: false }) === undefined) return [];
      names = fs.readdirSync(keyDir);
    } catch (error) {
      if (errorCode(error) !== "ENOENT") {
        this.warn(`Shrinkscope: cannot read example folder ${keyDir}: ${errorMessage(error)}`);
      }
      return [];
    }

    const found: { name: string; mtime: number; choices: StoredChoice[] }[] = [];
    for (const name of names) {
      const file = path.join(keyDir, name);
      if (name.endsWith(TMP_SUFFIX)) {
        this.removeIfStale(file);
        continue;
      }
      if (!name.endsWith(JSON_SUFFIX)) continue; // key.txt, editor backups, .DS_Store, ...
      try {
        // Read through one descriptor so the mtime belongs to the content we decoded.
        const fd = fs.openSync(file, "r");
        let text: string;
        let mtime: number;
        try {
          mtime = fs.fstatSync(fd).mtimeMs;
          text = utf8.decode(fs.readFileSync(fd));
        } finally {
          fs.closeSync(fd);
        }
        found.push({ name, mtime, choices: decodeChoices(text) });
        this.fetchedMtimes.set(file, mtime);
      } catch (error) {
        // Another process deleted it between readdir and open (it replayed the example and it passed): gone,
        // not corrupt. Renames onto the name are atomic, so a replaced file reads as old or new, never half.
        if (errorCode(error) === "ENOENT") continue;
        if (errorCode(error) !== undefined && errorCode(error) !== "EISDIR" && !(error instanceof TypeError)) {
          this.warn(`Shrinkscope: cannot read example file ${file}: ${errorMessage(error)}`);
          continue;
        }
        const reason = error instanceof TypeError && errorCode(error) === "ERR_ENCODING_INVALID_ENCODED_DATA"
          ? "not valid UTF-8"
          : errorMessage(error);
        this.warn(`Shrinkscope: skipping corrupt example file ${file}: ${reason}`);
      }
    }
    // Oldest first; the name breaks ties so the order is deterministic on coarse-mtime filesystems.
    found.sort((a, b) => a.mtime - b.mtime || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of found) this.returnedAt.set(entry.choices, entry.mtime);
    return found.map((entry) => entry.choices);
  }

  savedAt(choices: readonly StoredChoice[]): number | undefined {
    return this.returnedAt.get(choices);
  }

  save(key: string, choices: readonly StoredChoice[]): void {
    let file = this.keyDir(key);
    try {
      const text = encodeChoices(choices);
      const keyDir = this.keyDir(key);
      file = path.join(keyDir, shortHash(text) + JSON_SUFFIX);
      fs.mkdirSync(keyDir, { recursive: true });
      const keyFile = path.join(keyDir, KEY_FILE);
      if (!fs.existsSync(keyFile)) atomicWrite(keyFile, key);
      // Idempotent: same content, same name. Rewrite only if the file is missing or damaged, which also heals
      // a file that was corrupted after it was written. An intact file is touched instead: it was saved again
      // just now, which a concurrent delete (see delete) must be able to see.
      if (readIfExists(file) === text && touch(file)) return;
      atomicWrite(file, text);
    } catch (error) {
      this.warn(`Shrinkscope: could not save example to ${file}: ${errorMessage(error)}`);
    }
  }

  delete(key: string, choices: readonly StoredChoice[]): void {
    let file = this.keyDir(key);
    try {
      file = path.join(file, shortHash(encodeChoices(choices)) + JSON_SUFFIX);
      // The engine deletes an example it fetched that now passes. If another process saved the same example
      // since (its run failed on it), the file is newer than what we read: it is that process's failure now,
      // so keep it. (Best effort: a save landing between this check and the unlink is still lost.)
      const fetched = this.fetchedMtimes.get(file);
      if (fetched !== undefined) {
        this.fetchedMtimes.delete(file);
        if (fs.statSync(file).mtimeMs !== fetched) return;
      }
      fs.unlinkSync(file);
    } catch (error) {
      if (errorCode(error) === "ENOENT" || errorCode(error) === "ENOTDIR") return; // already gone
      this.warn(`Shrinkscope: could not delete example ${file}: ${errorMessage(error)}`);
    }
  }

  /** Best effort: another process may be removing the same file, or it may be a live writer's (if young). */
  private removeIfStale(file: string): void {
    try {
      if (wallNow() - fs.statSync(file).mtimeMs > STALE_TMP_MS) fs.unlinkSync(file);
    } catch {
      // Someone else cleaned it up, or we lack permission; either way it stays ignored.
    }
  }
}

/** Mark an intact example as saved just now; false if another process deleted it meanwhile (write it again). */
function touch(file: string): boolean {
  try {
    const now = new Date(wallNow());
    fs.utimesSync(file, now, now);
    return true;
  } catch (error) {
    if (errorCode(error) === "ENOENT") return false;
    throw error;
  }
}

function readIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * Write via a temp file in the same folder (rename is only atomic within one filesystem) whose name is
 * unique per process and call, so concurrent writers of the same example never share a temp file.
 */
function atomicWrite(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}${TMP_SUFFIX}`;
  try {
    fs.writeFileSync(tmp, text, { encoding: "utf8", flag: "wx" });
    fs.renameSync(tmp, file);
  } catch (error) {
    try {
      fs.unlinkSync(tmp);
    } catch {
      // The temp file was never created, or was already renamed.
    }
    throw error;
  }
}

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
          this.warn(`Shrinkscope: ${this.name} fetch returned a promise (fetch must be synchronous); an ExampleDatabase must return its arrays synchronously, so saved examples are not replayed`);
          this.swallow(raw, "fetch");
        } else {
          this.warn(`Shrinkscope: ${this.name} fetch returned ${describe(raw)}, not an array of choice sequences; running without saved examples`);
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
    if (skipped > MAX_SKIP_WARNINGS) this.warn(`Shrinkscope: ${this.name} fetch: skipped ${skipped - MAX_SKIP_WARNINGS} more entries`);
    if (typeof length === "number" && length > MAX_FETCHED_ENTRIES) {
      this.warn(`Shrinkscope: ${this.name} fetch returned ${length} entries; only the first ${MAX_FETCHED_ENTRIES} are replayed`);
    }
    return out;
  }

  save(key: string, choices: readonly StoredChoice[]): void {
    this.call("save", () => this.inner.save(key, choices), "the failure is still reported, but will not be replayed first next run");
  }

  savedAt(choices: readonly StoredChoice[]): number | undefined {
    const original = this.originals.get(choices);
    return original === undefined ? undefined : savedAtOf(this.inner, original);
  }

  delete(key: string, choices: readonly StoredChoice[]): void {
    this.call("delete", () => this.inner.delete(key, choices), "the example stays saved and is replayed again next run");
  }

  flush(): void {
    try {
      flushOf(this.inner);
    } catch (error) {
      this.warn(`Shrinkscope: ${this.name} flush failed (a save may not have reached it): ${errorMessage(error)}`);
    }
  }

  note(key: string, choices: readonly StoredChoice[], note: FailureNote): void {
    this.call("note", () => noteOf(this.inner, key, choices, note), "the failure is saved, without its printed example");
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
        if (consequence !== undefined) this.warn(`Shrinkscope: ${this.name} ${method} failed (${consequence}): ${errorMessage(error)}`);
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
