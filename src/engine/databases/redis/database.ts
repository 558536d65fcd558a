/**
 * RedisDatabase: failing examples on a Redis server, shared by every machine that points at it — developers'
 * laptops, CI shards, a nightly job (Hypothesis's RedisExampleDatabase).
 *
 * The engine reads and writes its database synchronously (fetch before the first case, save and delete after
 * the last; see ExampleDatabase), and Node's Redis clients are asynchronous. So the client (the `ioredis` or
 * `redis` package, installed by the user beside Shrinkscope) runs in a worker thread, one per URL per process, and this side
 * waits for its answers with Atomics.wait, never longer than `timeoutMs`:
 * - fetch waits for the answer (once per run, before any case runs);
 * - save and delete are sent and not waited for; `flush`, which the engine calls at the end of every run,
 *   waits for what is still in flight, so a failure is in Redis before the test process can exit.
 * Nothing on the engine's hot path touches Redis.
 *
 * Faults never fail a run or lose a failure:
 * - Redis unreachable, refusing, or slower than `timeoutMs`: one warning, and for `retryAfterMs` every call
 *   fails at once (a suite of many properties pays the timeout once, not per property); the run goes on
 *   with whatever else the database is made of (the URL setting pairs Redis with the local folder).
 * - Every save is first written to a local journal (`pendingDir`, a DirectoryDatabase), and removed from it
 *   once Redis confirms it; what Redis never confirmed (killed mid-run, a timeout) stays there, is replayed
 *   by the next run's fetch of that key, and is sent again then.
 * - Values under our keys that are not ours (another type at the key, fields that are not encoded choice
 *   sequences) are skipped with a warning, never deleted: the key may be someone else's.
 *
 * Layout: one hash per property, `<prefix>examples:<database key>`; a field is a sequence as encodeChoices
 * writes it (the same encoding the directory database stores, so saving is idempotent across machines) and
 * its value is when it was last saved (ms since the epoch). Each save renews the hash's expiry
 * (`expireAfterMs`); fetch skips, and removes, entries saved longer ago than that. Two runners saving at once
 * each set their own field: HSET is atomic, nothing is overwritten but the same sequence's date. The set
 * `<prefix>index` names the hashes that hold examples: the worker re-reads it every INDEX_REFRESH_MS, and a
 * fetch of a key it does not name returns at once — a passing property's run pays no round trip. And
 * `<prefix>notes:<key>` holds, under the same field, how the failure read (its printed example and error, as
 * JSON): what an editor on another machine shows ("failed elsewhere") without running anything.
 */
import { DirectoryDatabase } from "../directory.ts";
import { decodeChoices, encodeChoices } from "../encoding.ts";
import { errorMessage } from "../thrownValues.ts";
import type { DatedDatabase, FailureNote, FlushableDatabase, NotedDatabase, StoredChoice } from "../exampleDatabase.ts";
import { wallNow } from "../../util/clock.ts";
import { processLinks, RedisLink, type Reply } from "./link.ts";
import { isRedisUrl, redactUrl, redisUrlProblem } from "./url.ts";
import { resolveClient, type RedisClientPackage } from "./client.ts";

export interface RedisDatabaseOptions {
  /** Prepended to every key this database writes (default "shrinkscope:"): several projects can share a server. */
  prefix?: string;
  /** An entry not saved again for this long is dropped (default 8 days, as Hypothesis's). */
  expireAfterMs?: number;
  /**
   * The longest a run waits for Redis: to connect and fetch at the start, to confirm saves at the end (default
   * 2000). A process's first wait also allows up to 10 s for the client package to load in its worker.
   */
  timeoutMs?: number;
  /** After Redis was unreachable or too slow, calls fail at once for this long before trying again (default 30 s). */
  retryAfterMs?: number;
  /** A local folder journaling saves until Redis confirms them (none by default: the URL setting sets one). */
  pendingDir?: string;
  /** Where problems are reported (default console.warn). */
  warn?: (message: string) => void;
  /** The client package to load (default: ioredis if it is installed, else redis). */
  client?: "ioredis" | "redis";
}

const DAY_MS = 86_400_000;

/** A save in flight: its reply id, and what to remove from the journal once it is confirmed. */
interface InFlight {
  id: number;
  key: string;
  choices: readonly StoredChoice[] | null;
}

/** A note's repro and error are cut to this many characters: an editor shows a few lines, not a megabyte. */
const MAX_NOTE = 4000;

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** More writes than this in flight, and the next one waits for them first: the queue stays bounded. */
const MAX_IN_FLIGHT = 256;

export class RedisDatabase implements DatedDatabase, FlushableDatabase, NotedDatabase {
  readonly url: string;
  readonly prefix: string;
  private readonly expireAfterMs: number;
  private readonly timeoutMs: number;
  private readonly retryAfterMs: number;
  private readonly pending: DirectoryDatabase | null;
  private readonly rawWarn: (message: string) => void;
  private link: RedisLink | null;
  private readonly client: RedisClientPackage["name"] | undefined;
  private warnedNoClient = false;
  private readonly inFlight: InFlight[] = [];
  /** Saves Redis did not take (made while it was down, or refused), for flush's warning. */
  private unconfirmed = 0;
  private readonly returnedAt = new WeakMap<readonly StoredChoice[], number>();
  /** This database's link in the process's links: the URL, and the client package if one was asked for. */
  private readonly linkKey: string;

  constructor(url: string, options: RedisDatabaseOptions = {}) {
    if (typeof url !== "string" || !isRedisUrl(url))
      throw new TypeError(
        `RedisDatabase: url must start with redis:// or rediss://, got ${typeof url === "string" ? JSON.stringify(redactUrl(url)) : typeof url}`,
      );
    const problem = redisUrlProblem(url);
    if (problem !== undefined) throw new TypeError(`RedisDatabase: ${problem}`);
    for (const name of ["expireAfterMs", "timeoutMs", "retryAfterMs"] as const) {
      const v = options[name];
      if (v !== undefined && !(typeof v === "number" && v > 0 && Number.isFinite(v)))
        throw new TypeError(
          `RedisDatabase: ${name} must be a positive, finite number of milliseconds, got ${String(v)}`,
        );
    }
    if (options.prefix !== undefined && typeof options.prefix !== "string")
      throw new TypeError("RedisDatabase: prefix must be a string");
    this.url = url;
    this.prefix = options.prefix ?? "shrinkscope:";
    this.expireAfterMs = options.expireAfterMs ?? 8 * DAY_MS;
    this.timeoutMs = options.timeoutMs ?? 2000;
    this.retryAfterMs = options.retryAfterMs ?? 30_000;
    this.rawWarn = options.warn ?? ((message) => console.warn(message));
    this.pending =
      options.pendingDir === undefined
        ? null
        : new DirectoryDatabase(options.pendingDir, { warn: (m) => this.warn(m) });
    if (options.client !== undefined && options.client !== "ioredis" && options.client !== "redis")
      throw new TypeError(`RedisDatabase: client must be "ioredis" or "redis", got ${String(options.client)}`);
    this.linkKey = `${options.client ?? ""}\0${url}`;
    this.client = options.client;
    this.link = this.openLink();
  }

  /** This URL's link in this process, started if there is none (or the last one was closed); null without a client package. */
  private openLink(): RedisLink | null {
    let link = processLinks().get(this.linkKey) ?? null;
    if (link === null) {
      const client = resolveClient(this.client);
      if (client === undefined) {
        if (!this.warnedNoClient)
          this.warn(
            `Shrinkscope: database ${this.shown()}: no Redis client is installed (npm install --save-dev ${this.client ?? "ioredis, or redis"}); running without the shared database`,
          );
        this.warnedNoClient = true;
        return null;
      }
      processLinks().set(this.linkKey, (link = new RedisLink(this.url, client)));
    }
    link.watch(this.indexKey());
    return link;
  }

  /** The set of the hash keys that hold examples: read now and then, so most fetches need no round trip. */
  private indexKey(): string {
    return `${this.prefix}index`;
  }

  /** The URL without its password, for messages. */
  private shown(): string {
    return redactUrl(this.url);
  }

  private hashKey(key: string): string {
    return `${this.prefix}examples:${key}`;
  }

  private warn(message: string): void {
    try {
      this.rawWarn(message);
    } catch {
      // nowhere left to report it
    }
  }

  /** The link if Redis is to be tried now, else null (not installed, or down and not yet due for a retry). */
  private usable(): RedisLink | null {
    // A link closed (close() on another RedisDatabase of this URL) is replaced: writes it had in flight count as
    // unconfirmed.
    if (this.link?.closed === true) {
      this.unconfirmed += this.inFlight.filter((w) => w.choices !== null).length;
      this.inFlight.length = 0;
      this.link = this.openLink();
    }
    const link = this.link;
    return link === null || wallNow() < link.downUntil ? null : link;
  }

  /** Redis failed `what`: the link goes quiet for retryAfterMs, with one warning. */
  private down(link: RedisLink, what: string, why: string): void {
    const first = wallNow() >= link.downUntil;
    link.downUntil = wallNow() + this.retryAfterMs;
    link.problem = why;
    if (first)
      this.warn(
        `Shrinkscope: database ${this.shown()}: ${what} failed (${why}); using the local database only, trying Redis again in ${Math.round(this.retryAfterMs / 1000)} s`,
      );
  }

  fetch(key: string): StoredChoice[][] {
    const journaled = this.pending?.fetch(key) ?? [];
    const link = this.usable();
    if (link === null) return journaled;
    this.settle(link);
    // Nothing saved under this key, by the index: no need to ask (see INDEX_REFRESH_MS).
    if (journaled.length === 0 && link.surelyAbsent(this.indexKey(), this.hashKey(key))) return [];
    // Saves Redis never confirmed are sent again first; the fetch after them sees them (one connection, in order).
    for (const choices of journaled) this.send(link, key, choices);
    const id = link.send("fetch", [this.hashKey(key), this.indexKey()]);
    if (!link.waitFor([id], this.timeoutMs)) {
      link.forget(id);
      this.down(link, "fetch", `no answer within ${this.timeoutMs} ms`);
      return journaled;
    }
    const r = link.take(id) as Reply;
    if (!r.ok) {
      if (/WRONGTYPE/.test(r.error ?? ""))
        this.warn(
          `Shrinkscope: database ${this.shown()}: ${this.hashKey(key)} holds something other than Shrinkscope's hash; ignoring it (${r.error})`,
        );
      else this.down(link, "fetch", r.error ?? "unknown error");
      return journaled;
    }
    return this.entries(link, key, r.value, journaled);
  }

  /** The sequences of a fetched hash, after the journaled ones; stale entries removed, foreign ones skipped. */
  private entries(link: RedisLink, key: string, value: unknown, journaled: StoredChoice[][]): StoredChoice[][] {
    const out = [...journaled];
    const have = new Set<string>(journaled.map((c) => encodeChoices(c)));
    const found: { choices: StoredChoice[]; savedAt: number; field: string }[] = [];
    const stale: string[] = [];
    let foreign = 0;
    const now = wallNow();
    for (const [field, raw] of Object.entries((value ?? {}) as Record<string, unknown>)) {
      let choices: StoredChoice[];
      try {
        choices = decodeChoices(field);
      } catch (error) {
        if (++foreign === 1)
          this.warn(
            `Shrinkscope: database ${this.shown()}: skipping a field of ${this.hashKey(key)} that is not a saved example (${errorMessage(error)})`,
          );
        continue;
      }
      // (Only our own entries can be stale: a field that is not one is left alone, whatever its value.)
      const savedAt = Number(raw);
      if (Number.isFinite(savedAt) && now - savedAt > this.expireAfterMs) {
        stale.push(field);
        continue;
      }
      if (have.has(field)) continue;
      have.add(field);
      found.push({ choices, savedAt: Number.isFinite(savedAt) ? savedAt : 0, field });
      if (Number.isFinite(savedAt)) this.returnedAt.set(choices, savedAt);
    }
    // Oldest first (a hash has no order of its own), ties by field: every machine replays them in one order.
    found.sort((a, b) => a.savedAt - b.savedAt || (a.field < b.field ? -1 : a.field > b.field ? 1 : 0));
    for (const f of found) out.push(f.choices);
    if (foreign > 1)
      this.warn(
        `Shrinkscope: database ${this.shown()}: skipped ${foreign - 1} more such fields of ${this.hashKey(key)}`,
      );
    if (stale.length > 0)
      this.inFlight.push({ id: link.send("delete", [this.hashKey(key), stale]), key, choices: null });
    return out;
  }

  savedAt(choices: readonly StoredChoice[]): number | undefined {
    return this.returnedAt.get(choices);
  }

  save(key: string, choices: readonly StoredChoice[]): void {
    let field: string;
    try {
      field = encodeChoices(choices);
    } catch (error) {
      this.warn(`Shrinkscope: database ${this.shown()}: could not save example: ${errorMessage(error)}`);
      return;
    }
    // Journaled first: if Redis never confirms it, the next run still has it.
    this.pending?.save(key, choices);
    const link = this.usable();
    if (link !== null) this.send(link, key, choices, field);
    else this.unconfirmed++;
  }

  private send(link: RedisLink, key: string, choices: readonly StoredChoice[], field = encodeChoices(choices)): void {
    if (this.inFlight.length >= MAX_IN_FLIGHT) this.flush();
    this.inFlight.push({
      id: link.send("save", [this.hashKey(key), field, wallNow(), Math.round(this.expireAfterMs), this.indexKey()]),
      key,
      choices,
    });
    link.noteSaved(this.hashKey(key));
  }

  delete(key: string, choices: readonly StoredChoice[]): void {
    let field: string;
    try {
      field = encodeChoices(choices);
    } catch {
      return; // never saved
    }
    this.pending?.delete(key, choices);
    const link = this.usable();
    if (link === null) return;
    this.inFlight.push({ id: link.send("delete", [this.hashKey(key), [field]]), key, choices: null });
    this.inFlight.push({ id: link.send("delete", [this.notesKey(key), [field]]), key, choices: null });
  }

  /** How a saved failure reads, for editors elsewhere (`<prefix>notes:<key>`, same field, same expiry). */
  note(key: string, choices: readonly StoredChoice[], note: FailureNote): void {
    const link = this.usable();
    if (link === null) return;
    let field: string;
    try {
      field = encodeChoices(choices);
    } catch {
      return;
    }
    const text = JSON.stringify({
      repro: clip(String(note.repro), MAX_NOTE),
      error: clip(String(note.error), MAX_NOTE),
    });
    this.inFlight.push({
      id: link.send("note", [this.notesKey(key), field, text, Math.round(this.expireAfterMs)]),
      key,
      choices: null,
    });
  }

  private notesKey(key: string): string {
    return `${this.prefix}notes:${key}`;
  }

  /**
   * Take the replies that have come for writes in flight: confirmed saves leave the journal; a save that
   * failed counts as unconfirmed (flush says so). Redis refusing a write to a key that is not our hash is a
   * warning; anything else means Redis is away.
   */
  private settle(link: RedisLink): void {
    let failed = "";
    for (let i = 0; i < this.inFlight.length;) {
      const w = this.inFlight[i];
      const r = link.take(w.id);
      if (r === undefined) {
        i++;
        continue;
      }
      this.inFlight.splice(i, 1);
      if (r.ok) {
        if (w.choices !== null) this.pending?.delete(w.key, w.choices);
        continue;
      }
      if (w.choices !== null) this.unconfirmed++;
      const error = r.error ?? "unknown error";
      if (/WRONGTYPE/.test(error))
        this.warn(
          `Shrinkscope: database ${this.shown()}: ${this.hashKey(w.key)} holds something other than Shrinkscope's hash; cannot write to it (${error})`,
        );
      else failed = error;
    }
    if (failed !== "") this.down(link, "a write", failed);
  }

  flush(): void {
    if (this.link?.closed === true) this.usable(); // (replaced, its writes counted as unconfirmed)
    const link = this.link;
    if (link === null) {
      this.unconfirmed = 0; // no client package: said once, when this database was made
      return;
    }
    if (this.inFlight.length > 0 && wallNow() >= link.downUntil)
      link.waitFor(
        this.inFlight.map((w) => w.id),
        this.timeoutMs,
      );
    this.settle(link);
    const saves = this.inFlight.filter((w) => w.choices !== null).length + this.unconfirmed;
    this.unconfirmed = 0;
    if (this.inFlight.length > 0 && wallNow() >= link.downUntil)
      this.down(link, "confirming writes", `no answer within ${this.timeoutMs} ms`);
    if (saves > 0) {
      const kept =
        this.pending === null
          ? "it is not kept anywhere else by this database"
          : `kept in ${this.pending.dir} and sent again on the next run`;
      this.warn(
        `Shrinkscope: database ${this.shown()}: ${saves === 1 ? "a failing example was" : `${saves} failing examples were`} not confirmed by Redis (${link.problem || "its connection was closed"}); ${kept}`,
      );
    }
    for (const w of this.inFlight) link.forget(w.id);
    this.inFlight.length = 0;
  }

  /** Flush, then end this URL's connection in this process (the next RedisDatabase on it opens a new one). */
  async close(): Promise<void> {
    this.flush();
    const link = this.link;
    if (link !== null && processLinks().get(this.linkKey) === link) {
      processLinks().delete(this.linkKey);
      await link.close();
    }
  }
}
