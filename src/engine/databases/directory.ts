/**
 * The example database as a folder of files, the default (`.shrinkscope/examples`).
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
import type { DatabaseOptions, DatedDatabase, StoredChoice } from "./exampleDatabase.ts";
import { decodeChoices, encodeChoices } from "./encoding.ts";
import { errorMessage } from "./thrownValues.ts";

const KEY_FILE = "key.txt";
const TMP_SUFFIX = ".tmp";
const JSON_SUFFIX = ".json";
/** A `.tmp` file older than this belongs to a writer that died; a live writer renames within milliseconds. */
const STALE_TMP_MS = 60_000;

function shortHash(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex").slice(0, 16);
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
        const reason =
          error instanceof TypeError && errorCode(error) === "ERR_ENCODING_INVALID_ENCODED_DATA"
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
      makeDirs(keyDir);
      const keyFile = path.join(keyDir, KEY_FILE);
      if (!fs.existsSync(keyFile)) atomicWrite(keyFile, key);
      // Idempotent: same content, same name. Rewrite only if the file is missing or damaged, which also heals
      // a file that was corrupted after it was written. An intact file is touched instead: it was saved again
      // just now, which a concurrent delete (see delete) must be able to see.
      if (!(readIfExists(file) === text && touch(file))) atomicWrite(file, text);
      // Saved again by this database since fetch read it: its own delete later must not take that for another
      // process's save (see delete), so the time it compares against is this save's.
      if (this.fetchedMtimes.has(file)) this.noteSaved(file);
    } catch (error) {
      this.warn(`Shrinkscope: could not save example to ${file}: ${errorMessage(error)}`);
    }
  }

  /** The modification time of `file` as this database just saved it; forgotten if another process deleted it since. */
  private noteSaved(file: string): void {
    try {
      this.fetchedMtimes.set(file, fs.statSync(file).mtimeMs);
    } catch {
      this.fetchedMtimes.delete(file);
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

/**
 * mkdir -p, one folder at a time from the deepest that exists: Node's own recursive mkdirSync never returns for a
 * path under /proc (where mkdir answers ENOENT for a parent that exists), and a save must fail with a warning, not
 * hang the test run.
 */
function makeDirs(dir: string): void {
  const missing: string[] = [];
  let at = path.resolve(dir);
  while (!fs.existsSync(at)) {
    missing.push(at);
    const parent = path.dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (let i = missing.length - 1; i >= 0; i--) {
    try {
      fs.mkdirSync(missing[i]!);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
}
