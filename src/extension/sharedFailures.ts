/**
 * Failures saved in the shared database (a RedisDatabase, docs/databases.md) for one test file, as the editor
 * shows them when the file is opened: "Failed elsewhere — minimal example …". Pure of `vscode`, so it is tested
 * in Node against a real redis-server.
 *
 * What it reads is what the engine writes (src/engine/databases/redis/): the index set names the hashes that hold
 * examples; a hash `<prefix>examples:<key>` holds each saved sequence with when it was saved, and
 * `<prefix>notes:<key>` how its failure reads (printed example, error). A key starts with the test file's path
 * relative to the working folder and, when the test runner named the test, holds its full name
 * (src/engine/property/key.ts: `<file>::property::<test name>::<shape>#<n>`), which is how a saved failure is matched to
 * a test found in the source (discovery.ts).
 *
 * The host is asynchronous, so unlike the engine it talks to Redis directly (the same client adapter,
 * openRedisClient), with a bounded wait: an unreachable server gives no diagnostics and one line of output.
 */
import { createRequire } from "node:module";
import { decodeChoices, openRedisClient, redactUrl, resolveClient } from "../engine/internals.ts";

export interface SharedFailure {
  /** The database key. */
  readonly key: string;
  /** The test's full name as its runner gave it, or undefined for a property run without one. */
  readonly testName: string | undefined;
  /** When it was last saved (ms since the epoch), if known. */
  readonly savedAt: number | undefined;
  /** The printed minimal example and the error, when the run that saved it noted them. */
  readonly repro: string | undefined;
  readonly error: string | undefined;
}

/** The test name inside a key of `file` (relative, as the engine writes it), or null when the key is not that file's. */
export function testNameOfKey(key: string, file: string): string | undefined | null {
  const head = `${file}::`;
  if (!key.startsWith(head)) return null;
  const m = /^(?:property|find)::(.*)::[0-9a-f]{16}#\d+$/s.exec(key.slice(head.length));
  return m === null ? undefined : m[1];
}

/** Whether a saved failure's test name is this discovered test's (runners join suite and test names with " > " or " "). */
export function matchesTest(testName: string | undefined, testPath: readonly string[]): boolean {
  if (testName === undefined || testPath.length === 0) return false;
  return testName === testPath.join(" > ") || testName === testPath.join(" ");
}

export interface ReadOptions {
  /** Key prefix (RedisDatabase's `prefix`; default "shrinkscope:"). */
  prefix?: string;
  /** Where the client package (ioredis or redis) is resolved from: the workspace folder. */
  project: string;
  /** The longest the read may take (default 3000 ms). */
  timeoutMs?: number;
}

/**
 * The failures saved for `file` (relative to the workspace folder, '/'-separated), newest first per key. Rejects
 * naming the cause when no client package is installed, the server cannot be reached, or it is too slow.
 */
export async function readSharedFailures(url: string, file: string, o: ReadOptions): Promise<SharedFailure[]> {
  const prefix = o.prefix ?? "shrinkscope:";
  const client = resolveClient(undefined, o.project);
  if (client === undefined)
    throw new Error("no Redis client is installed in the workspace (npm install --save-dev ioredis, or redis)");
  const load = createRequire(client.path);
  const timeoutMs = o.timeoutMs ?? 3000;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  const connecting = openRedisClient(load, client, url, () => false);
  try {
    const c = await Promise.race([connecting, timeout]);
    try {
      return await Promise.race([readWith(c, prefix, file), timeout]);
    } finally {
      void c.quit().catch(() => {});
    }
  } finally {
    clearTimeout(timer);
    // A connect that lost the race: closed once it settles.
    void connecting.then(
      (c) => c.quit().catch(() => {}),
      () => {},
    );
  }
}

async function readWith(
  c: Awaited<ReturnType<typeof openRedisClient>>,
  prefix: string,
  file: string,
): Promise<SharedFailure[]> {
  const examples = `${prefix}examples:`;
  const hashes = (await c.sMembers(`${prefix}index`)).filter((h) => h.startsWith(`${examples}${file}::`));
  const out: SharedFailure[] = [];
  for (const hash of hashes) {
    const key = hash.slice(examples.length);
    const testName = testNameOfKey(key, file);
    if (testName === null) continue;
    let fields: Record<string, string>;
    let notes: Record<string, string>;
    try {
      [fields, notes] = await Promise.all([c.hGetAll(hash), c.hGetAll(`${prefix}notes:${key}`).catch(() => ({}))]);
    } catch {
      continue; // something other than our hash under the key (WRONGTYPE): not a failure to show
    }
    // The newest saved sequence that is one (a foreign field is skipped, as the engine skips it).
    let best: { field: string; savedAt: number | undefined } | undefined;
    for (const [field, raw] of Object.entries(fields)) {
      try {
        decodeChoices(field);
      } catch {
        continue;
      }
      const savedAt = Number.isFinite(Number(raw)) ? Number(raw) : undefined;
      if (best === undefined || (savedAt ?? 0) > (best.savedAt ?? 0)) best = { field, savedAt };
    }
    if (best === undefined) continue;
    let repro: string | undefined;
    let error: string | undefined;
    try {
      const note = JSON.parse(notes[best.field] ?? "null") as { repro?: unknown; error?: unknown } | null;
      if (typeof note?.repro === "string") repro = note.repro;
      if (typeof note?.error === "string") error = note.error;
    } catch {
      // a note that is not ours: the failure is shown without its example
    }
    out.push({ key, testName, savedAt: best.savedAt, repro, error });
  }
  return out;
}

/** The diagnostic's text for a failure saved elsewhere. */
export function sharedFailureMessage(f: SharedFailure, url: string): string {
  const when =
    f.savedAt === undefined ? "" : ` on ${new Date(f.savedAt).toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const where = redactUrl(url);
  const lines = [`Failed elsewhere (saved${when} in the shared database ${where}).`];
  lines.push(f.repro === undefined ? "Minimal example: not recorded." : `Minimal example: ${f.repro}`);
  if (f.error !== undefined) lines.push(f.error);
  lines.push("Run property replays it first.");
  return lines.join("\n");
}
