/**
 * The shared database on a real redis-server, as CI shards and developers use it, and under the faults a
 * network database has: down at start, killed mid-run, paused (slow), garbage under our keys, two writers at
 * once, stale entries. Whatever happens the run goes on, its failure is reported, and no saved failure is lost.
 *
 * Runs that stand for separate machines are separate processes (each in its own folder, the way a CI shard
 * checks out the project): `runProps` writes a property file there and runs it.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { after, afterEach, before, describe, it } from "node:test";
import { encodeChoices } from "../../../src/engine/databases/encoding.ts";
import { InvalidArgument } from "../../../src/engine/util/errors.ts";
import { check, property } from "../../../src/engine/property/property.ts";
import { PropertyFailure } from "../../../src/engine/property/errors.ts";
import { RedisDatabase } from "../../../src/engine/databases/redis/database.ts";
import * as st from "../../../src/engine/strategies/index.ts";
import { startRedis, type RedisServer } from "./redis-server.ts";
import { workerExecArgv } from "../../../src/engine/databases/redis/link.ts";
import { tempDir } from "../helpers.ts";

const PROJECT_ROOT = path.resolve(__dirname, "..", "..", "..");
const ENGINE = JSON.stringify(path.join(PROJECT_ROOT, "src", "engine", "index.ts"));
const TSX = pathToFileURL(require.resolve("tsx")).href;

let redis: RedisServer;
const extraServers: RedisServer[] = [];
const opened: RedisDatabase[] = [];
before(async () => {
  redis = await startRedis();
});
afterEach(() => redis.resume());
after(async () => {
  for (const db of opened) await db.close();
  for (const s of [redis, ...extraServers]) await s.stop();
});

/** A port nothing listens on (a server started and stopped). */
async function closedPort(): Promise<number> {
  const s = await startRedis();
  await s.stop();
  return s.port;
}

interface Outcome {
  outcome: "passed" | "failed";
  args?: unknown[];
  /** The body's first argument: 1001 when the saved minimal failure was replayed first. */
  first: unknown;
  calls: number;
  ms: number;
  stderr: string;
}

/**
 * Run a property that fails for x > 1000 (minimal: 1001) in a child process whose working folder is `dir`,
 * with `env` on top of a plain (non-CI) environment; `settings` is pasted into its settings object.
 */
function runProps(dir: string, env: Record<string, string>, settings = "", body = ""): Promise<Outcome> {
  const file = path.join(dir, "props.mts");
  fs.writeFileSync(
    file,
    `import { check, property, st } from ${ENGINE};
let calls = 0; let first: unknown;
const t0 = performance.now();
const out = (o: object) => console.log("OUTCOME" + JSON.stringify({ ...o, first, calls, ms: performance.now() - t0 }));
try {
  check(property(st.integers(), (x) => { calls++; if (first === undefined) first = x; ${body} if (x > 1000) throw new Error("big"); }), { deadline: null, ${settings} });
  out({ outcome: "passed" });
} catch (e: any) { out({ outcome: "failed", args: e.args }); }
`,
  );
  const childEnv: Record<string, string> = { ...(process.env as Record<string, string>), ...env };
  for (const k of ["CI", "NODE_TEST_CONTEXT", "SHRINKSCOPE_SEED", "SHRINKSCOPE_DATABASE_URL"])
    if (!(k in env)) delete childEnv[k];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", TSX, file], {
      cwd: dir,
      env: childEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("close", () => {
      clearTimeout(timer);
      const line = stdout.split("\n").find((l) => l.startsWith("OUTCOME"));
      if (line === undefined) return reject(new Error(`no outcome; stdout: ${stdout}\nstderr: ${stderr}`));
      resolve({ ...(JSON.parse(line.slice("OUTCOME".length)) as Omit<Outcome, "stderr">), stderr });
    });
  });
}

function journaled(dir: string): string[] {
  const root = path.join(dir, ".shrinkscope", "redis-pending");
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".json"));
}

function hashesUnder(server: RedisServer, prefix = "shrinkscope:examples:"): string[] {
  return server.cli("--scan", "--pattern", `${prefix}*`).split("\n").filter(Boolean);
}

describe("a Redis database shared by two processes (two CI shards)", () => {
  it("SHRINKSCOPE_DATABASE_URL in CI: a failure found by one is replayed first by the other, with no code change", async () => {
    redis.cli("FLUSHALL");
    const env = { CI: "true", SHRINKSCOPE_DATABASE_URL: `${redis.url}/0` };
    const a = await runProps(tempDir("redis"), { ...env, SHRINKSCOPE_SEED: "1" });
    assert.equal(a.outcome, "failed", a.stderr);
    assert.deepEqual(a.args, [1001]);
    assert.notEqual(a.first, 1001, "the first run generated its failure");
    assert.equal(a.stderr, "", "no warnings");
    // One hash, keyed by the file (relative to the shard's folder) and the property.
    const hashes = hashesUnder(redis);
    assert.equal(hashes.length, 1);
    assert.match(hashes[0], /^shrinkscope:examples:props\.mts::property::/);
    // Beside it, how the failure reads, for an editor elsewhere: the printed example and the error.
    const notes = redis.cli("HGETALL", hashes[0].replace(":examples:", ":notes:")).split("\n");
    assert.equal(notes.length, 2, notes.join("\n"));
    assert.deepEqual(JSON.parse(notes[1]), { repro: "1001", error: "Error: big" });
    assert.equal(notes[0], redis.cli("HKEYS", hashes[0]), "noted under the saved sequence");
    const b = await runProps(tempDir("redis"), { ...env, SHRINKSCOPE_SEED: "2" });
    assert.equal(b.outcome, "failed", b.stderr);
    assert.equal(b.first, 1001, "the other process replayed the shared failure first");
    assert.ok(b.calls < 50, `and found nothing simpler to shrink to (${b.calls} calls)`);
    assert.deepEqual(b.args, [1001]);
    assert.equal(b.stderr, "");
  });

  it("a property that turns its database off is not given the shared one", async () => {
    redis.cli("FLUSHALL");
    const r = await runProps(
      tempDir("redis"),
      { CI: "true", SHRINKSCOPE_DATABASE_URL: redis.url, SHRINKSCOPE_SEED: "3" },
      "database: null,",
    );
    assert.equal(r.outcome, "failed");
    assert.deepEqual(hashesUnder(redis), []);
  });

  it("on a developer's machine the URL pairs Redis with the local folder (read and written both)", async () => {
    redis.cli("FLUSHALL");
    const dir = tempDir("redis");
    const r = await runProps(dir, { SHRINKSCOPE_SEED: "4" }, `database: ${JSON.stringify(redis.url)},`);
    assert.equal(r.outcome, "failed", r.stderr);
    assert.equal(hashesUnder(redis).length, 1);
    const local = fs.readdirSync(path.join(dir, ".shrinkscope", "examples"), { recursive: true }).map(String);
    assert.equal(local.filter((f) => f.endsWith(".json")).length, 1, "saved in the local folder too");
    assert.deepEqual(journaled(dir), [], "Redis confirmed the save: nothing left in the journal");
  });

  it("SHRINKSCOPE_DATABASE_URL joins a property's own folder: the failure goes to both", async () => {
    redis.cli("FLUSHALL");
    const dir = tempDir("redis");
    const r = await runProps(
      dir,
      { SHRINKSCOPE_DATABASE_URL: redis.url, SHRINKSCOPE_SEED: "9" },
      `database: "my-examples",`,
    );
    assert.equal(r.outcome, "failed", r.stderr);
    assert.equal(hashesUnder(redis).length, 1);
    const mine = fs.readdirSync(path.join(dir, "my-examples"), { recursive: true }).map(String);
    assert.equal(mine.filter((f) => f.endsWith(".json")).length, 1);
  });

  it("two runners saving under one key at the same moment: every save is kept", async () => {
    redis.cli("FLUSHALL");
    const script = (who: string) => `import { RedisDatabase } from ${ENGINE};
const db = new RedisDatabase(${JSON.stringify(redis.url)});
for (let i = 0; i < 50; i++) db.save("same key", ["${who}", i]);
db.save("same key", ["both"]);
db.flush();
await db.close();
console.log("DONE");`;
    const dir = tempDir("redis");
    const runs = ["a", "b"].map((who) => {
      fs.writeFileSync(path.join(dir, `${who}.mts`), script(who));
      return new Promise<string>((resolve) => {
        const child = spawn(process.execPath, ["--import", TSX, `${who}.mts`], {
          cwd: dir,
          stdio: ["ignore", "pipe", "pipe"],
        });
        let out = "";
        child.stdout.on("data", (d) => (out += d));
        child.stderr.on("data", (d) => (out += d));
        child.on("close", () => resolve(out));
      });
    });
    const outs = await Promise.all(runs);
    for (const o of outs) assert.match(o, /DONE/);
    assert.equal(redis.cli("HLEN", "shrinkscope:examples:same key"), "101");
  });
});

describe("the index of saved properties", () => {
  it("a key with nothing saved is answered without asking Redis; another machine's save is seen within the refresh", async () => {
    redis.cli("FLUSHALL");
    const warnings: string[] = [];
    const db = new RedisDatabase(redis.url, { prefix: "i:", timeoutMs: 1000, warn: (m) => warnings.push(m) });
    opened.push(db);
    db.fetch("warm up");
    await new Promise((r) => setTimeout(r, 300)); // the worker's first read of the index arrives
    redis.pause();
    const t0 = performance.now();
    assert.deepEqual(db.fetch("nothing saved"), []);
    const ms = performance.now() - t0;
    redis.resume();
    assert.ok(ms < 500, `answered from the index while Redis was paused (${Math.round(ms)} ms, timeout 1000)`);
    assert.deepEqual(warnings, []);
    // Another machine saves (what its RedisDatabase writes: the field, and the hash named in the index).
    redis.cli("HSET", "i:examples:elsewhere", encodeChoices([7]), String(Date.now()));
    redis.cli("SADD", "i:index", "i:examples:elsewhere");
    await new Promise((r) => setTimeout(r, 2500)); // INDEX_REFRESH_MS is 2000
    assert.deepEqual(db.fetch("elsewhere"), [[7]]);
  });
});

describe("one connection per URL per process", () => {
  it("closing one RedisDatabase of a URL leaves the others working (they open a new connection)", async () => {
    redis.cli("FLUSHALL");
    const warnings: string[] = [];
    const a = new RedisDatabase(redis.url, { prefix: "c:", warn: (m) => warnings.push(m) });
    const b = new RedisDatabase(redis.url, { prefix: "c:", warn: (m) => warnings.push(m) });
    opened.push(b);
    a.save("k", [1]);
    a.flush();
    await a.close();
    b.save("k", [2]);
    b.flush();
    assert.deepEqual(
      b
        .fetch("k")
        .map((c) => c[0])
        .sort(),
      [1, 2],
    );
    assert.deepEqual(warnings, []);
  });
});

describe("Redis faults", () => {
  it("down at start: one warning naming the cause, the run unaffected, the failure kept locally and replayed next run", async () => {
    const port = await closedPort();
    const dir = tempDir("redis");
    const url = `redis://user:hunter2@127.0.0.1:${port}`;
    const a = await runProps(dir, { SHRINKSCOPE_SEED: "5" }, `database: ${JSON.stringify(url)},`);
    assert.equal(a.outcome, "failed");
    assert.deepEqual(a.args, [1001]);
    assert.match(
      a.stderr,
      /database redis:\/\/user:\*\*\*@127\.0\.0\.1:\d+: fetch failed \(.*ECONNREFUSED.*\); using the local database only/,
    );
    assert.doesNotMatch(a.stderr, /hunter2/, "the password is never printed");
    assert.ok(a.ms < 10_000, `the run was not held up waiting for Redis (${Math.round(a.ms)} ms)`);
    const b = await runProps(dir, { SHRINKSCOPE_SEED: "6" }, `database: ${JSON.stringify(url)},`);
    assert.equal(b.first, 1001, "replayed from the local folder");
  });

  it("killed mid-run: the failure is reported, kept in the journal, and reaches Redis on the next run", async () => {
    const server = await startRedis();
    extraServers.push(server);
    const dir = tempDir("redis");
    const env = { CI: "true", SHRINKSCOPE_DATABASE_URL: server.url };
    // The body kills the server when it first sees the failure: the fetch at the start worked, the save fails.
    const kill = `if (x > 1000 && !(globalThis as any).killed) { (globalThis as any).killed = true; process.kill(${server.process.pid}, "SIGKILL"); }`;
    // (One key for both runs: without a test name, a key includes the body's source, which differs here.)
    const a = await runProps(dir, { ...env, SHRINKSCOPE_SEED: "7" }, `key: "killed mid-run",`, kill);
    assert.equal(a.outcome, "failed");
    assert.deepEqual(a.args, [1001], "the failure is still reported");
    assert.match(
      a.stderr,
      /a failing example was not confirmed by Redis .*; kept in .*redis-pending and sent again on the next run/,
    );
    assert.equal(journaled(dir).length, 1);
    assert.ok(a.ms < 15_000, `bounded (${Math.round(a.ms)} ms)`);
    await server.stop();
    const again = await startRedis(server.port);
    extraServers.push(again);
    const b = await runProps(dir, { ...env, SHRINKSCOPE_SEED: "8" }, `key: "killed mid-run",`);
    assert.equal(b.first, 1001, "the journaled failure was replayed first");
    assert.equal(b.stderr, "");
    assert.equal(hashesUnder(again).length, 1, "and is in Redis now");
    assert.deepEqual(journaled(dir), [], "confirmed, so it left the journal");
  });

  it("paused (slow): fetch gives up after timeoutMs with one warning, and later properties do not wait again", async () => {
    const warnings: string[] = [];
    const db = new RedisDatabase(redis.url, { timeoutMs: 500, prefix: "slow:", warn: (m) => warnings.push(m) });
    opened.push(db);
    db.fetch("warm up"); // connected before the pause
    redis.pause();
    const t0 = performance.now();
    const failures: unknown[] = [];
    for (let i = 0; i < 5; i++) {
      try {
        check(
          property(st.integers(), (x) => {
            if (x > 1000) throw new Error("big");
          }),
          { database: db, deadline: null, seed: i, key: `slow ${i}` },
        );
      } catch (e) {
        failures.push(e);
      }
    }
    const ms = performance.now() - t0;
    redis.resume();
    await db.close(); // (the next tests start with a fresh connection, not this one's pause)
    assert.equal(failures.length, 5);
    for (const f of failures) assert.ok(f instanceof PropertyFailure);
    // (The first wait is the first property's fetch or, where the index says nothing is saved under its key, its
    // flush; either way it is the only one.)
    assert.equal(
      warnings.filter((w) =>
        /failed \(no answer within 500 ms\); using the local database only, trying Redis again in 30 s/.test(w),
      ).length,
      1,
      warnings.join("\n"),
    );
    // Each failure says it is not in Redis (this database was made without a journal).
    assert.equal(
      warnings.filter((w) =>
        /a failing example was not confirmed by Redis \(no answer within 500 ms\); it is not kept anywhere else by this database/.test(
          w,
        ),
      ).length,
      5,
    );
    assert.ok(ms < 5 * 500, `five properties paid the timeout once (${Math.round(ms)} ms)`);
  });

  it("garbage under our keys: another type at the key, fields that are not examples — skipped with a warning, never deleted", () => {
    redis.cli("FLUSHALL");
    const warnings: string[] = [];
    const db = new RedisDatabase(redis.url, { prefix: "g:", warn: (m) => warnings.push(m) });
    opened.push(db);
    // (Each named in the index, as the hashes Shrinkscope writes are, so that fetch asks for them.)
    redis.cli("SADD", "g:index", "g:examples:a string", "g:examples:mixed");
    redis.cli("SET", "g:examples:a string", "not a hash");
    assert.deepEqual(db.fetch("a string"), []);
    assert.ok(
      warnings.some((w) => /g:examples:a string holds something other than Shrinkscope's hash/.test(w)),
      warnings.join("\n"),
    );
    assert.equal(redis.cli("GET", "g:examples:a string"), "not a hash");
    redis.cli(
      "HSET",
      "g:examples:mixed",
      "garbage",
      "1",
      '{"format":"other"}',
      "x",
      encodeChoices([1001]),
      "also not a date",
    );
    assert.deepEqual(db.fetch("mixed"), [[1001]]);
    assert.ok(
      warnings.some((w) => /skipping a field of g:examples:mixed that is not a saved example/.test(w)),
      warnings.join("\n"),
    );
    assert.ok(
      warnings.some((w) => /skipped 1 more such fields/.test(w)),
      warnings.join("\n"),
    );
    assert.equal(redis.cli("HLEN", "g:examples:mixed"), "3");
    // And a run on such a key replays the good entry and reports its failure.
    assert.throws(
      () =>
        check(
          property(st.integers(), (x) => {
            if (x > 1000) throw new Error("big");
          }),
          { database: db, deadline: null, key: "mixed" },
        ),
      (e: unknown) => e instanceof PropertyFailure && (e.args as number[])[0] === 1001,
    );
  });

  it("stale entries: a field saved longer ago than expireAfterMs is not replayed and is removed; each save renews the key's expiry", () => {
    redis.cli("FLUSHALL");
    const db = new RedisDatabase(redis.url, { prefix: "e:", expireAfterMs: 60_000 });
    opened.push(db);
    db.save("k", [1]);
    db.flush();
    const ttl = Number(redis.cli("PTTL", "e:examples:k"));
    assert.ok(ttl > 50_000 && ttl <= 60_000, `expiry renewed on save (${ttl} ms)`);
    redis.cli("HSET", "e:examples:k", encodeChoices([2]), String(Date.now() - 120_000));
    assert.equal(redis.cli("SISMEMBER", "e:index", "e:examples:k"), "1", "the save named its hash in the index");
    assert.deepEqual(db.fetch("k"), [[1]]);
    db.flush();
    assert.equal(redis.cli("HLEN", "e:examples:k"), "1", "the stale field was removed");
  });
});

describe("the same faults through node-redis (the redis package)", () => {
  it("down at start names the cause; paused gives up after timeoutMs; a save while away is reported", async () => {
    const port = await closedPort();
    const warnings: string[] = [];
    const gone = new RedisDatabase(`redis://127.0.0.1:${port}`, {
      client: "redis",
      timeoutMs: 500,
      warn: (m) => warnings.push(m),
    });
    opened.push(gone);
    assert.deepEqual(gone.fetch("k"), []);
    assert.ok(
      warnings.some((w) => /fetch failed \(.*ECONNREFUSED.*\)/.test(w)),
      warnings.join("\n"),
    );
    gone.save("k", [1]);
    gone.flush();
    assert.ok(
      warnings.some((w) => /a failing example was not confirmed by Redis/.test(w)),
      warnings.join("\n"),
    );
    const slow = new RedisDatabase(redis.url, {
      client: "redis",
      prefix: "nr:",
      timeoutMs: 500,
      warn: (m) => warnings.push(m),
    });
    slow.fetch("warm up");
    redis.pause();
    const t0 = performance.now();
    slow.save("k", [2]);
    slow.flush();
    const ms = performance.now() - t0;
    redis.resume();
    await slow.close();
    assert.ok(ms < 2000, `bounded (${Math.round(ms)} ms)`);
    assert.ok(
      warnings.some((w) => /confirming writes failed \(no answer within 500 ms\)/.test(w)),
      warnings.join("\n"),
    );
  });
});

describe("a database number the server does not have", () => {
  for (const client of ["ioredis", "redis"] as const) {
    it(`${client}: redis://…/99 on a server of 16 databases warns and never writes into database 0`, async () => {
      const warnings: string[] = [];
      const url = redis.url.replace(/\/\d*$/, "") + "/99";
      const db = new RedisDatabase(url, {
        client,
        prefix: `db99-${client}:`,
        timeoutMs: 1000,
        warn: (m) => warnings.push(m),
      });
      opened.push(db);
      assert.deepEqual(db.fetch("k"), []);
      db.save("k", [1]);
      db.flush();
      assert.ok(
        warnings.some((w) => /database redis:\/\/127\.0\.0\.1:\d+\/99: .*DB index is out of range/.test(w)),
        warnings.join("\n"),
      );
      // Database 0 holds nothing of it.
      const zero = new RedisDatabase(redis.url.replace(/\/\d*$/, "") + "/0", { client, prefix: `db99-${client}:` });
      opened.push(zero);
      assert.deepEqual(zero.fetch("k"), []);
    });
  }
});

describe("found by review, pinned", () => {
  for (const client of ["ioredis", "redis"] as const) {
    it(`${client}: a save Redis refuses (another type at the key) is not taken for confirmed: it stays in the journal, with a warning`, () => {
      redis.cli("FLUSHALL");
      const warnings: string[] = [];
      const pendingDir = tempDir("pending");
      const db = new RedisDatabase(redis.url, {
        client,
        prefix: `w${client}:`,
        pendingDir,
        warn: (m) => warnings.push(m),
      });
      opened.push(db);
      redis.cli("SET", `w${client}:examples:k`, "not a hash");
      db.save("k", [1001]);
      db.flush();
      assert.ok(
        warnings.some((w) => /holds something other than Shrinkscope's hash; cannot write to it \(.*WRONGTYPE/.test(w)),
        warnings.join("\n"),
      );
      assert.ok(
        warnings.some((w) => /a failing example was not confirmed by Redis/.test(w) && w.includes(pendingDir)),
        warnings.join("\n"),
      );
      assert.equal(
        fs
          .readdirSync(pendingDir, { recursive: true })
          .map(String)
          .filter((f) => f.endsWith(".json")).length,
        1,
        "kept in the journal",
      );
      assert.ok(
        !warnings.some((w) => /using the local database only/.test(w)),
        "Redis answered: it is not taken for down",
      );
    });
  }

  it('a property whose database is off (null or "") stays off the shared database in the editor and under SHRINKSCOPE_DATABASE_URL', () => {
    redis.cli("FLUSHALL");
    const hook = Symbol.for("shrinkscope.runner");
    const g = globalThis as Record<symbol, unknown>;
    const folder = tempDir("editor-db");
    const failing = (database: null | "") => () =>
      check(
        property(st.integers(), (x) => {
          if (x > 1000) throw new Error("big");
        }),
        { database, deadline: null, key: `off ${String(database)}` },
      );
    try {
      // The editor's runner layer: its folder, and the shared database.
      g[hook] = { settings: { database: folder, sharedDatabase: redis.url } };
      assert.throws(failing(null), PropertyFailure);
      assert.throws(failing(""), PropertyFailure);
    } finally {
      delete g[hook];
    }
    process.env.SHRINKSCOPE_DATABASE_URL = redis.url;
    try {
      assert.throws(failing(null), PropertyFailure);
      assert.throws(failing(""), PropertyFailure);
    } finally {
      delete process.env.SHRINKSCOPE_DATABASE_URL;
    }
    assert.deepEqual(hashesUnder(redis), []);
  });

  it("the worker starts under node --input-type=module -e (it inherited the flag, had no require, and every run stalled)", () => {
    redis.cli("FLUSHALL");
    const engine = pathToFileURL(path.join(PROJECT_ROOT, "dist", "engine.mjs")).href;
    const script = `import { RedisDatabase } from ${JSON.stringify(engine)};
const warnings = []; const db = new RedisDatabase(${JSON.stringify(redis.url)}, { prefix: "esm-e:", warn: (m) => warnings.push(m) });
db.save("k", [7]); db.flush();
console.log(JSON.stringify({ got: db.fetch("k"), warnings }));
await db.close();`;
    const t0 = performance.now();
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: PROJECT_ROOT,
      encoding: "utf8",
      timeout: 60_000,
    });
    const line = r.stdout.trim().split("\n").pop() ?? "";
    assert.deepEqual(JSON.parse(line), { got: [[7]], warnings: [] }, r.stderr);
    assert.ok(performance.now() - t0 < 8000, `no stall (${Math.round(performance.now() - t0)} ms)`);
    assert.deepEqual(workerExecArgv(["--input-type", "module", "--enable-source-maps", "--input-type=commonjs"]), [
      "--enable-source-maps",
    ]);
  });

  it("the worker still works when the engine is bundled and minified (its helpers are passed in, not named)", async () => {
    redis.cli("FLUSHALL");
    const { build } = await import("esbuild");
    const out = path.join(tempDir("min"), "engine.cjs");
    await build({
      entryPoints: [path.join(PROJECT_ROOT, "src", "engine", "index.ts")],
      bundle: true,
      minify: true,
      platform: "node",
      format: "cjs",
      outfile: out,
      logLevel: "silent",
      define: { "import.meta.url": "__u" },
      banner: { js: `var __u = ${JSON.stringify(pathToFileURL(path.join(PROJECT_ROOT, "package.json")).href)};` },
    });
    const script = `const { RedisDatabase } = require(${JSON.stringify(out)});
const warnings = []; const db = new RedisDatabase(${JSON.stringify(redis.url)}, { prefix: "min:", warn: (m) => warnings.push(m) });
db.save("k", [7]); db.flush();
console.log(JSON.stringify({ got: db.fetch("k"), warnings }));
db.close();`;
    const r = spawnSync(process.execPath, ["-e", script], { cwd: PROJECT_ROOT, encoding: "utf8", timeout: 60_000 });
    const line = r.stdout.trim().split("\n").pop() ?? "";
    assert.deepEqual(JSON.parse(line), { got: [[7]], warnings: [] }, r.stderr);
  });

  it("an index entry whose hash is gone is dropped by the fetch that finds it empty", async () => {
    redis.cli("FLUSHALL");
    const db = new RedisDatabase(redis.url, { prefix: "x:" });
    opened.push(db);
    redis.cli("SADD", "x:index", "x:examples:gone");
    await new Promise((r) => setTimeout(r, 2500)); // the worker's next read of the index names it
    assert.deepEqual(db.fetch("gone"), []);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(redis.cli("SISMEMBER", "x:index", "x:examples:gone"), "0");
  });

  it("passwords are hidden however the URL is written; timeouts must be finite", async () => {
    const { redactUrl } = await import("../../../src/engine/databases/redis/url.ts");
    assert.equal(redactUrl("redis://:p@ss@host:1/0"), "redis://:***@host:1/0");
    assert.equal(redactUrl("redis://user:secret@127.0.0.1:5"), "redis://user:***@127.0.0.1:5");
    assert.equal(redactUrl("redis://127.0.0.1:6379"), "redis://127.0.0.1:6379");
    assert.throws(
      () => new RedisDatabase("redis://x", { timeoutMs: Infinity }),
      /timeoutMs must be a positive, finite number/,
    );
  });
});

describe("bad Redis settings name their cause", () => {
  it("a malformed URL in the setting or in SHRINKSCOPE_DATABASE_URL", () => {
    assert.throws(
      () => property(st.integers(), () => {}, { database: "redis://" }),
      (e: unknown) =>
        e instanceof InvalidArgument && /database: "redis:\/\/" (is not a URL|names no host)/.test(e.message),
    );
    assert.throws(
      () => property(st.integers(), () => {}, { database: "redis://h:1/abc" }),
      /the path must be a database number/,
    );
    const r = spawnSync(
      process.execPath,
      [
        "--import",
        TSX,
        "-e",
        `require(${ENGINE}).check(require(${ENGINE}).property(require(${ENGINE}).st.integers(), () => {}))`,
      ],
      {
        cwd: tempDir("redis"),
        env: { ...process.env, SHRINKSCOPE_DATABASE_URL: "localhost:6379", CI: "true" },
        encoding: "utf8",
      },
    );
    assert.match(
      r.stderr,
      /SHRINKSCOPE_DATABASE_URL must be a redis:\/\/ or rediss:\/\/ URL \(e\.g\. redis:\/\/127\.0\.0\.1:6379\/0\), got "localhost:6379"/,
    );
  });

  it("RedisDatabase's own options", () => {
    assert.throws(() => new RedisDatabase("http://x"), /RedisDatabase: url must start with redis:\/\/ or rediss:\/\//);
    assert.throws(
      () => new RedisDatabase("redis://x", { timeoutMs: 0 }),
      /RedisDatabase: timeoutMs must be a positive, finite number of milliseconds, got 0/,
    );
    assert.throws(() => new RedisDatabase("redis://x", { expireAfterMs: -1 }), /expireAfterMs must be a positive/);
  });
});
