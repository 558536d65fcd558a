/**
 * The Redis client packages Shrinkscope can use — ioredis and redis (node-redis), whichever the user installed —
 * behind the few commands it needs (RedisCommands), and where to find them. Used by RedisDatabase's worker thread
 * (worker.ts, which ships openRedisClient to it as source text) and by the editor, which reads the shared database
 * without a worker (src/extension/sharedFailures.ts).
 */
import { createRequire } from "node:module";
import * as path from "node:path";

/** Which client package the worker loads, and from where. */
export interface RedisClientPackage {
  name: "ioredis" | "redis";
  path: string;
}

/**
 * The client package: ioredis (preferred: it loads in a third of the time, which a test process's first fetch
 * waits for), else redis (node-redis), resolved from the user's project (`project`: the working folder), else from where
 * Shrinkscope itself is installed (import.meta.url; the CommonJS build defines it from __filename, see esbuild.mjs).
 */
export function resolveClient(
  only?: RedisClientPackage["name"],
  project = process.cwd(),
): RedisClientPackage | undefined {
  for (const name of only === undefined ? (["ioredis", "redis"] as const) : [only]) {
    for (const from of [path.join(project, "package.json"), import.meta.url]) {
      try {
        return { name, path: createRequire(from).resolve(name) };
      } catch {
        // not installed there
      }
    }
  }
  return undefined;
}

/** The few commands Shrinkscope uses, on either client package. */
export interface RedisCommands {
  hGetAll(hash: string): Promise<Record<string, string>>;
  save(hash: string, field: string, savedAt: number, ttlMs: number, index: string): Promise<unknown>;
  note(hash: string, field: string, text: string, ttlMs: number): Promise<unknown>;
  hDel(hash: string, fields: string[]): Promise<unknown>;
  /** Remove `hash` from the index if it no longer exists (atomically: a save in between keeps it). */
  dropIfGone(index: string, hash: string): Promise<unknown>;
  sMembers(index: string): Promise<string[]>;
  quit(): Promise<unknown>;
}

/**
 * Connect to `url` with the client package `which` (loaded by `load`, a `require`); rejects with the cause when the
 * server cannot be reached. `reconnect()`: whether to keep reconnecting after a connection is lost (once one was
 * made) — otherwise the client gives up and the next call connects anew. Self-contained (the worker gets its source
 * text, workerSource), and used as it is by the editor, which reads the shared database without a worker.
 */
export async function openRedisClient(
  load: (id: string) => any,
  which: RedisClientPackage,
  url: string,
  reconnect: () => boolean,
): Promise<RedisCommands> {
  const DROP_IF_GONE =
    "if redis.call('EXISTS', KEYS[2]) == 0 then return redis.call('SREM', KEYS[1], KEYS[2]) end return 0";
  const checked = async (results: Promise<[Error | null, unknown][] | null>): Promise<unknown> => {
    const r = await results;
    for (const [error] of r ?? []) if (error) throw error;
    return r;
  };
  const firstReplyError = async (results: Promise<unknown>): Promise<unknown> => {
    try {
      return await results;
    } catch (error) {
      const replies: unknown = (error as { replies?: unknown })?.replies;
      throw (Array.isArray(replies) ? replies.find((x) => x instanceof Error) : undefined) ?? error;
    }
  };
  // The database the URL names: selected again once connected, and checked — a server with fewer databases
  // answers an error that a client may only log, going on in database 0, where this run must never write.
  const dbIndex = Number(new URL(url).pathname.replace(/^\//, "") || "0");
  const selected = async (select: () => Promise<unknown>, close: () => unknown): Promise<void> => {
    try {
      await select();
    } catch (error) {
      try {
        close();
      } catch {}
      throw new Error(
        `database ${dbIndex} cannot be selected on this server (${String((error as Error)?.message ?? error)}); nothing is written elsewhere`,
      );
    }
  };
  const lib = load(which.path);
  if (which.name === "ioredis") {
    const Redis = lib.default ?? lib;
    const c = new Redis(url, {
      lazyConnect: true,
      // A command while disconnected fails at once instead of queueing behind a reconnect that may never come.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 5000,
      // Never connected: give up, so connect() rejects with the cause (ECONNREFUSED) and the next call retries.
      retryStrategy: (times: number) => (reconnect() ? Math.min(100 * times, 2000) : null),
    });
    // Each command's own rejection reports a problem; the last error is the cause of a failed connect, which
    // ioredis itself reports only as "Connection is closed".
    let cause: unknown;
    c.on("error", (error: unknown) => (cause = error));
    try {
      await c.connect();
    } catch (error) {
      c.disconnect();
      throw cause ?? error;
    }
    await selected(
      () => c.select(dbIndex),
      () => c.disconnect(),
    );
    return {
      hGetAll: (h) => c.hgetall(h),
      // (A command that fails inside MULTI, e.g. WRONGTYPE, comes back in exec's results, not as a rejection.)
      save: (h, f, at, ttl, index) => checked(c.multi().hset(h, f, String(at)).pexpire(h, ttl).sadd(index, h).exec()),
      note: (h, f, text, ttl) => checked(c.multi().hset(h, f, text).pexpire(h, ttl).exec()),
      hDel: (h, fields) => c.hdel(h, ...fields),
      dropIfGone: (index, h) => c.eval(DROP_IF_GONE, 2, index, h),
      sMembers: (index) => c.smembers(index),
      quit: () => c.quit(),
    };
  }
  const c = lib.createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 5000,
      reconnectStrategy: (retries: number, cause: Error) => (reconnect() ? Math.min(100 * (retries + 1), 2000) : cause),
    },
  });
  c.on("error", () => {});
  try {
    await c.connect();
  } catch (error) {
    try {
      c.destroy();
    } catch {}
    throw error;
  }
  await selected(
    () => c.select(dbIndex),
    () => c.destroy(),
  );
  return {
    hGetAll: (h) => c.hGetAll(h),
    // (A command that fails inside MULTI rejects exec with a MultiErrorReply: its own error is the one to report.)
    save: (h, f, at, ttl, index) =>
      firstReplyError(c.multi().hSet(h, f, String(at)).pExpire(h, ttl).sAdd(index, h).exec()),
    note: (h, f, text, ttl) => firstReplyError(c.multi().hSet(h, f, text).pExpire(h, ttl).exec()),
    hDel: (h, fields) => c.hDel(h, fields),
    dropIfGone: (index, h) => c.eval(DROP_IF_GONE, { keys: [index, h] }),
    sMembers: (index) => c.sMembers(index),
    quit: () => c.quit(),
  };
}
