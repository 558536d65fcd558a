// The example database's cost (docs/benchmarks.md, "Databases"): what each database does to a suite of passing
// properties, and how long replaying 10,000 saved examples takes.
//
// How it is measured:
//   - A real redis-server (Debian's, as the tests use: tools/debian-packages.sh) is started on a free loopback port
//     with no persistence, and stopped at the end.
//   - Contenders: no database (database: null; paired with itself, it shows the ratio's noise), InMemoryDatabase, DirectoryDatabase (a temporary folder),
//     RedisDatabase, and the `redis://` setting as a developer gets it (the local folder and Redis, both read and
//     written).
//   - Passing runs: suites of 50 runs of a passing property (st.lists(st.integers()), 100 examples each, each run
//     under its own key: fetch at the start, flush at the end, as in a test file of 50 properties), with the
//     database and without it alternating in one process (the same library and JIT: pairing is what makes a 5%
//     difference readable where single rates move ±30%), --pairs pairs in each of --procs fresh processes
//     (default 8 and 3). Shown: the median ratio with / without and
//     its range; the database's own work per run, isolated (one-example runs of a boolean property, with and
//     without it, alternating in blocks of 1000) and its share of a 100-example run (the bar: ≤ 5%); and the
//     first use's extra time (for Redis: starting the client's worker and connecting).
//   - Replay: 10,000 distinct saved examples under one key (the bug has since been fixed), then one run: fetch,
//     replay of every saved example, and the deletion of each (it passes now) — what the first run after a fix
//     pays. The fetch alone is timed as well.
//
// Usage: node bench/database.mjs [--procs N] [--quick]   (--quick: 1 process, 4 pairs)
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eachFlag, positiveInt } from "./lib/args.mjs";
import { median } from "./lib/fresh-processes.mjs";
import { num, rate, table } from "./lib/markdown.mjs";
import { startRedis } from "../tools/redis/server.mjs";

const SCRIPT = fileURLToPath(import.meta.url);
const RUNS_PER_SUITE = 50;
const EXAMPLES = 100;
const REPLAYED = 10_000;
const BAR = 0.95;
const CONTENDERS = ["none", "memory", "directory", "redis", "redis-setting"];

// ---------------------------------------------------------------------------------------------- child

async function database(kind, url, dir) {
  const { InMemoryDatabase, DirectoryDatabase, RedisDatabase } = await import("shrinkscope");
  switch (kind) {
    case "none":
      return null;
    case "memory":
      return new InMemoryDatabase();
    case "directory":
      return new DirectoryDatabase(dir);
    case "redis":
      return new RedisDatabase(url, { prefix: `bench${process.pid}:` });
    case "redis-setting":
      return url;
  }
  throw new Error(`unknown contender ${kind}`);
}

/**
 * Suites with and without the database, alternating in one process (the same library, so one JIT: pairing is
 * what makes a 5% difference readable on a machine whose single rates move ±30%). Returns each pair's ratio
 * (with / without) and the first use's cost: the first run's extra time over a run without a database
 * (for Redis: starting the client's worker thread and connecting).
 */
async function pairedChild(kind, url, pairs) {
  const { property, check, st } = await import("shrinkscope");
  const dir = mkdtempSync(path.join(tmpdir(), "shrinkscope-bench-db-"));
  process.chdir(dir); // the redis:// setting keeps its local folder under the working folder
  let calls = 0;
  const prop = property(st.lists(st.integers()), (xs) => {
    calls++;
    if (xs.length > 1e9) throw 0;
  });
  const timeRun = (db, key, seed) => {
    const t0 = performance.now();
    check(prop, { maxExamples: EXAMPLES, deadline: null, seed, database: db, key });
    return performance.now() - t0;
  };
  timeRun(null, "first", 1); // (the engine's own first run, before either is timed)
  const plainFirst = timeRun(null, "first plain", 2);
  const db = await database(kind, url, path.join(dir, "examples"));
  const firstUse = timeRun(db, "first use", 2) - plainFirst;
  const suite = (database, s) => {
    calls = 0;
    const t0 = performance.now();
    for (let r = 0; r < RUNS_PER_SUITE; r++)
      check(prop, { maxExamples: EXAMPLES, deadline: null, seed: s * 1000 + r, database, key: `suite ${s} run ${r}` });
    return (calls * 1000) / (performance.now() - t0);
  };
  const ratios = [];
  const rates = [];
  for (let w = 0; w < 2; w++) (suite(null, 900 + w), suite(db, 910 + w)); // warm-up: the JIT settles, and the first suites are not timed
  for (let p = 0; p < pairs; p++) {
    // The order alternates, so that drift within a pair favours neither.
    let without;
    let withDb;
    if (p % 2 === 0) {
      without = suite(null, 2 * p);
      withDb = suite(db, 2 * p + 1);
    } else {
      withDb = suite(db, 2 * p);
      without = suite(null, 2 * p + 1);
    }
    ratios.push(withDb / without);
    rates.push(withDb);
  }
  // The database's own work per run (fetch, flush, the settings that make it), isolated: runs of one example of
  // a boolean property, with and without it, alternating in blocks; the difference per run, and its share of a
  // run of the list property above (100 examples).
  const trivial = property(st.booleans(), () => {});
  const block = (database, b) => {
    const t0 = performance.now();
    for (let r = 0; r < 1000; r++)
      check(trivial, { maxExamples: 1, deadline: null, seed: r, database, key: `trivial ${b} ${r}` });
    return (performance.now() - t0) / 1000;
  };
  const perRunUs = [];
  for (let b = 0; b < 2 * pairs; b++) {
    const [without, withDb] = b % 2 === 0 ? [block(null, b), block(db, b)] : [block(db, b), block(null, b)].reverse();
    if (b >= 2) perRunUs.push((withDb - without) * 1000);
  }
  const runMs = (EXAMPLES * 1000) / median(rates);
  await db?.close?.();
  rmSync(dir, { recursive: true, force: true });
  return { ratios, rates, firstUse, perRunUs, share: median(perRunUs) / 1000 / runMs };
}

async function replayChild(kind, url) {
  const { property, check, st } = await import("shrinkscope");
  const dir = mkdtempSync(path.join(tmpdir(), "shrinkscope-bench-db-"));
  process.chdir(dir);
  const db = await database(kind, url, path.join(dir, "examples"));
  // The saved sequences an integer property records: one integer choice each (1001, 1002, …), all passing now.
  const key = "replay";
  // (For the setting, a RedisDatabase with the setting's default prefix writes them.)
  const { RedisDatabase } = await import("shrinkscope");
  const writer = typeof db === "string" ? new RedisDatabase(url) : db;
  for (let i = 0; i < REPLAYED; i++) writer.save(key, [1001 + i]);
  writer.flush?.();
  if (typeof db === "string") {
    // The setting's local folder gets them too, as a developer's machine that saved them would have.
    const { DirectoryDatabase } = await import("shrinkscope");
    const local = new DirectoryDatabase(path.join(dir, ".shrinkscope", "examples"));
    for (let i = 0; i < REPLAYED; i++) local.save(key, [1001 + i]);
  }
  let calls = 0;
  const prop = property(st.integers(), (x) => {
    calls++;
    if (x < 0 && x > 0) throw 0;
  });
  const t1 = performance.now();
  const fetched = typeof db === "string" ? REPLAYED : db.fetch(key).length;
  const fetchMs = typeof db === "string" ? NaN : performance.now() - t1;
  const t0 = performance.now();
  check(prop, { maxExamples: 1, deadline: null, seed: 1, database: db, key });
  const replayMs = performance.now() - t0;
  const left = (typeof db === "string" ? writer : db).fetch(key).length;
  await writer?.close?.();
  rmSync(dir, { recursive: true, force: true });
  return { fetched, fetchMs, replayMs, calls, left };
}

// ---------------------------------------------------------------------------------------------- parent

function runChild(args) {
  const r = spawnSync(process.execPath, [SCRIPT, "--child", ...args], {
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`child ${args.join(" ")} failed: ${r.stderr || r.error}`);
  return JSON.parse(r.stdout.trim().split("\n").pop());
}

async function main(argv) {
  if (argv[0] === "--child") {
    const [, what, kind, url, pairs] = argv;
    // A warning means the database did not do its job (Redis unreachable, a save lost): the figures would lie.
    const warnings = [];
    console.warn = (m) => warnings.push(String(m));
    const out = what === "paired" ? await pairedChild(kind, url, Number(pairs)) : await replayChild(kind, url);
    if (warnings.length > 0) throw new Error(`${kind}: the database warned:\n${warnings.join("\n")}`);
    process.stdout.write(`${JSON.stringify(out)}\n`);
    return;
  }
  let procs = 3;
  let pairs = 8;
  eachFlag(argv, (flag, value) => {
    if (flag === "--procs") procs = positiveInt(flag, value());
    else if (flag === "--quick") ((procs = 1), (pairs = 4));
    else throw new Error(`unknown flag ${flag} (known: --procs N, --quick)`);
  });
  const redis = await startRedis();
  try {
    // ("none" against none: the same suites twice, the ratio's noise on this machine, read beside the others.)
    const kinds = CONTENDERS;
    const paired = Object.fromEntries(
      kinds.map((c) => [c, { ratios: [], rates: [], firstUse: [], perRunUs: [], share: [] }]),
    );
    for (let p = 0; p < procs; p++) {
      for (const [i] of kinds.entries()) {
        const c = kinds[(i + p) % kinds.length];
        const out = runChild(["paired", c, redis.url, String(pairs)]);
        paired[c].ratios.push(...out.ratios);
        paired[c].rates.push(...out.rates);
        paired[c].firstUse.push(out.firstUse);
        paired[c].perRunUs.push(...out.perRunUs);
        paired[c].share.push(out.share);
      }
    }
    const replay = Object.fromEntries(
      kinds.filter((c) => c !== "none").map((c) => [c, runChild(["replay", c, redis.url])]),
    );
    console.log(
      `database cost (node ${process.version}): suites of ${RUNS_PER_SUITE} runs × ${EXAMPLES} examples of a passing list property, with and without the database alternating in one process; ${pairs} pairs in each of ${procs} fresh processes\n`,
    );
    const label = (c) =>
      c === "redis-setting" ? "redis:// setting (folder + Redis)" : c === "none" ? "none (against none: the noise)" : c;
    console.log(
      table(
        [
          "database",
          "examples/s with it",
          "with / without (median, range)",
          "work per run",
          "share of a run (bar ≤ 5%)",
          "first use",
          "replay 10k saved (fetch)",
          "left after",
        ],
        kinds.map((c) => {
          const r = replay[c];
          const m = median(paired[c].ratios);
          return [
            label(c),
            rate(median(paired[c].rates)),
            `${num(m, 3)} (${num(Math.min(...paired[c].ratios), 2)}–${num(Math.max(...paired[c].ratios), 2)})`,
            `${num(median(paired[c].perRunUs), 0)} µs`,
            `${num(100 * median(paired[c].share), 1)}%${median(paired[c].share) <= 1 - BAR ? " ✓" : " ✗"}`,
            `+${num(median(paired[c].firstUse), 0)} ms`,
            r === undefined
              ? "—"
              : `${num(r.replayMs / 1000, 2)} s${Number.isFinite(r.fetchMs) ? ` (${num(r.fetchMs, 0)} ms)` : ""}, ${r.calls} calls`,
            r === undefined ? "—" : String(r.left),
          ];
        }),
      ),
    );
    console.log(
      `\nwork per run: a one-example run with the database over one without (fetch, flush, making the database from the setting), median over blocks of 1000 alternating; share: that over the time of one run above. first use: the first run with the database, over one without (Redis: its client's worker thread started and connected). replay: ${REPLAYED} saved examples that pass now, replayed and deleted by one run (fetch alone in brackets); "left after" = entries still saved (0: every deletion reached the database).`,
    );
  } finally {
    redis.stop();
  }
}

await main(process.argv.slice(2));
