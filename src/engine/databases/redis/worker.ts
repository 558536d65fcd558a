/**
 * The worker thread that holds a Redis connection (one per URL per process): the engine's database calls are
 * synchronous, the Redis clients are not, so the client runs here and the engine waits on it with Atomics.wait
 * (link.ts). It keeps the index of the properties with saved examples, so most fetches need no round trip.
 */
import type { MessagePort } from "node:worker_threads";
import { openRedisClient, type RedisClientPackage, type RedisCommands } from "./client.ts";

/**
 * How often the worker re-reads the index of the properties that have saved examples. A fetch for a key the
 * index does not hold answers at once, without a round trip — most fetches (a passing property with nothing
 * saved) — so a failure another machine saved within this long may be replayed only by the next run here.
 */
const INDEX_REFRESH_MS = 2000;

/**
 * The worker's source: workerMain called with what it needs — its `require` (a bundler would rewrite a plain
 * `require` call inside it), openRedisClient and the refresh interval — as arguments, so that a minifier's or a
 * bundler's renaming inside either function cannot break the names between them. __name: a transpiler that keeps
 * function names (tsx) wraps them in calls to its own __name; here it is the identity.
 */
export function workerSource(): string {
  return `"use strict"; const __name = (f) => f; (${workerMain.toString()})(require, ${openRedisClient.toString()}, ${INDEX_REFRESH_MS});`;
}

/** The worker thread's program, shipped as source text (so that no file has to be found beside a bundle). */
function workerMain(load: (id: string) => any, openClient: typeof openRedisClient, refreshMs: number): void {
  const { workerData } = load("node:worker_threads");
  const {
    port,
    flag,
    url,
    client: which,
  } = workerData as { port: MessagePort; flag: Int32Array; url: string; client: RedisClientPackage };
  const reply = (r: unknown): void => {
    port.postMessage(r);
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
  };
  let everConnected = false;
  // The client package loads first (a tenth of a second to a few on a busy machine), and says so: until then a
  // wait is not Redis being slow (RedisLink.ready).
  try {
    load(which.path);
    reply({ ready: true });
  } catch (error) {
    reply({ ready: false, error: String((error as Error)?.message ?? error) });
  }
  const open = (): Promise<RedisCommands> => openClient(load, which, url, () => everConnected);
  let connecting: Promise<RedisCommands> | null = null;
  const connect = (): Promise<RedisCommands> => {
    if (connecting !== null) return connecting;
    const attempt = open().then(
      (c) => {
        everConnected = true;
        return c;
      },
      (error: unknown) => {
        connecting = null;
        throw error;
      },
    );
    connecting = attempt;
    return attempt;
  };
  // The index sets being watched (one per prefix): their members are posted to the main thread now and then.
  const watched = new Set<string>();
  const postIndex = async (index: string): Promise<void> => {
    try {
      port.postMessage({ index, keys: await (await connect()).sMembers(index) });
    } catch {
      // Redis away: the main thread keeps its last copy, and its fetches ask Redis (and find it away) themselves
    }
  };
  setInterval(() => {
    for (const index of watched) void postIndex(index);
  }, refreshMs).unref();
  const ops: Record<string, (...args: any[]) => Promise<unknown>> = {
    fetch: async (hash: string, index: string) => {
      const c = await connect();
      const fields = await c.hGetAll(hash);
      // An index entry whose hash expired or was emptied: dropped, so fetches of its key stop asking.
      if (Object.keys(fields).length === 0) void c.dropIfGone(index, hash).catch(() => {});
      return fields;
    },
    save: async (hash: string, field: string, savedAt: number, ttlMs: number, index: string) =>
      (await connect()).save(hash, field, savedAt, ttlMs, index),
    note: async (hash: string, field: string, text: string, ttlMs: number) =>
      (await connect()).note(hash, field, text, ttlMs),
    delete: async (hash: string, fields: string[]) => (await connect()).hDel(hash, fields),
    watch: async (index: string) => {
      watched.add(index);
      await postIndex(index);
    },
  };
  port.on("message", (m: { id: number; op: string; args: unknown[] }) => {
    ops[m.op](...m.args).then(
      (value) => reply({ id: m.id, ok: true, value }),
      (error: unknown) => reply({ id: m.id, ok: false, error: String((error as Error)?.message ?? error) }),
    );
  });
}
