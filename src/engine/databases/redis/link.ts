/**
 * A process's link to one Redis URL: the worker thread (worker.ts) and the shared memory the engine waits on for
 * its replies, bounded by a timeout. Shared by every RedisDatabase on that URL, and kept on globalThis so that a
 * test runner loading the engine afresh per file still opens one connection.
 */
import { receiveMessageOnPort, MessageChannel, Worker, type MessagePort } from "node:worker_threads";
import type { RedisClientPackage } from "./client.ts";
import { workerSource } from "./worker.ts";
import { errorMessage } from "../thrownValues.ts";

/** What a first wait allows the worker to start and load its client package, over `timeoutMs`. */
export const STARTUP_MS = 10_000;

/** Replies (and their ids) from the worker, as it posts them. */
export interface Reply {
  id: number;
  ok: boolean;
  value?: unknown;
  error?: string;
}

/** One worker and connection per URL per process, shared by every RedisDatabase on that URL. */
export class RedisLink {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));
  private nextId = 1;
  private readonly replies = new Map<number, Reply>();
  /** Ids whose replies are not wanted (timed out, or fire-and-forget). */
  private readonly forgotten = new Set<number>();
  /** Calls fail at once until then (wallNow ms), after Redis was unreachable or too slow. */
  downUntil = 0;
  /** Why it is down, for the warning. */
  problem = "";

  constructor(url: string, client: RedisClientPackage) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(workerSource(), {
      eval: true,
      // The worker's program is CommonJS source: a parent's --input-type=module (node --input-type=module -e)
      // would make it an ES module with no require, and the worker would die before saying it started.
      execArgv: workerExecArgv(process.execArgv),
      workerData: { port: port2, flag: this.flag, url, client },
      transferList: [port2],
    });
    // The worker must not keep a test process alive; flush is what waits for its writes.
    this.worker.unref();
    this.worker.on("error", (error) => {
      this.problem = `its worker thread stopped: ${errorMessage(error)}`;
      this.downUntil = Infinity;
    });
  }

  send(op: string, args: unknown[]): number {
    const id = this.nextId++;
    this.port.postMessage({ id, op, args });
    return id;
  }

  /** Whether the worker has loaded the client package: before that, a wait also allows STARTUP_MS. */
  private started = false;

  /** How long to wait for an answer that allows `timeoutMs` to Redis: more while the worker is still starting. */
  /** When (performance.now()) the worker was seen ready. */
  private readyAt = 0;

  /** Each watched index's members as the worker last read them (absent until it has). */
  private readonly indexes = new Map<string, Set<string>>();
  private readonly watching = new Set<string>();

  private drain(): void {
    for (let m = receiveMessageOnPort(this.port); m !== undefined; m = receiveMessageOnPort(this.port)) {
      const r = m.message as Reply | { index: string; keys: string[] } | { ready: boolean; error?: string };
      if ("ready" in r) {
        this.started = true;
        this.readyAt = performance.now();
      } else if ("index" in r) this.indexes.set(r.index, new Set(r.keys));
      else if (!this.forgotten.delete(r.id)) this.replies.set(r.id, r);
    }
  }

  /** Ask the worker to keep `index` (a set of hash keys) read; idempotent. */
  watch(index: string): void {
    if (this.watching.has(index)) return;
    this.watching.add(index);
    this.forget(this.send("watch", [index]));
  }

  /** Whether `index` is known not to hold `hash` (false while it has not been read yet). */
  surelyAbsent(index: string, hash: string): boolean {
    this.drain();
    const known = this.indexes.get(index);
    return known !== undefined && !known.has(hash) && !this.savedHere.has(hash);
  }

  /**
   * Hashes this process saved into: present from then on, whatever a read of the index says — a read made
   * before the save reached Redis can arrive after it.
   */
  private readonly savedHere = new Set<string>();

  noteSaved(hash: string): void {
    this.savedHere.add(hash);
  }

  /** The reply to `id` if it has come (taken), else undefined. */
  take(id: number): Reply | undefined {
    this.drain();
    const r = this.replies.get(id);
    if (r !== undefined) this.replies.delete(id);
    return r;
  }

  /** Wait until every id in `ids` has a reply or `timeoutMs` passes; true if all came. */
  waitFor(ids: Iterable<number>, timeoutMs: number): boolean {
    const wanted = [...ids];
    const t0 = performance.now();
    for (;;) {
      this.drain();
      if (wanted.every((id) => this.replies.has(id))) return true;
      // timeoutMs for Redis, from when the worker had loaded its client (STARTUP_MS at most for that).
      const deadline = this.started ? Math.max(t0, this.readyAt) + timeoutMs : t0 + STARTUP_MS + timeoutMs;
      const left = deadline - performance.now();
      if (left <= 0) return false;
      // The worker posts before it sets the flag: whatever set it is in the port when the flag is cleared.
      Atomics.wait(this.flag, 0, 0, left);
      Atomics.store(this.flag, 0, 0);
    }
  }

  /** Drop the reply to `id`, now or whenever it comes. */
  forget(id: number): void {
    this.replies.delete(id);
    this.forgotten.add(id);
  }

  closed = false;

  close(): Promise<number> {
    this.closed = true;
    this.port.close();
    return this.worker.terminate();
  }
}

/**
 * The links of this process, kept on globalThis: a test runner that loads the engine afresh for each test file
 * (jest's module registry) still shares one worker and connection per URL.
 */
export function processLinks(): Map<string, RedisLink> {
  return ((globalThis as Record<symbol, unknown>)[Symbol.for("shrinkscope.redisLinks")] ??= new Map()) as Map<
    string,
    RedisLink
  >;
}

/** The parent's Node options for the worker, less --input-type (in either spelling). */
export function workerExecArgv(execArgv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const a = execArgv[i]!;
    if (a === "--input-type") i++;
    else if (!a.startsWith("--input-type=")) out.push(a);
  }
  return out;
}
