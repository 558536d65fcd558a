// Schedule-exploration benchmark (docs/benchmarks.md, "Schedules"): Shrinkscope's simulated scheduler
// (explore, simTest) against fast-check's fc.scheduler() on the replicated reserve-then-write log
// (bench/schedules/replicate.mjs), and PCT against random choice on ordering bugs (bench/schedules/orderings.mjs).
// All four parts come from one run:
//
// 1. runs/s — workload runs per second of wall time on the guarded (mutex) replicate, so every run passes and
//    goes to the end: Shrinkscope explore(w, { seeds, shrink: false }), fast-check fc.assert over
//    fc.asyncProperty(fc.scheduler(), …). Two sizes: 2 writers × 2 payloads and 4 × 3, delay 1. Each contender in
//    fresh `node` processes (bench/lib/fresh-processes.mjs): --runs timed batches of --batch runs each; cold =
//    the first batch, warm = the median of the others; the median over --procs processes.
// 2. found and minimal over seeds 1..--seeds — Shrinkscope check(property(strategies…, simTest({ seeds: 8 },
//    replicate)), { seed: n, database: null }); fast-check fc.check(fc.asyncProperty(arbitraries…,
//    fc.scheduler(), …), { seed: n }) (fc.assert's runner, without the throw). "minimal" is the final workload
//    being exactly writers = 2, payloads ["a"], delay 0. Property runs are calls of the property body (for
//    Shrinkscope each explores up to 8 seeds: the simulated runs are counted apart).
// 3. PCT against random — 100 seeds of the depth-2 ordering bug, each explored alone (shrink off): the share that
//    fails; then one exploration of seeds 0..99 as `seeds: 100` runs them (where PCT's change points spread over
//    the runs seen so far), and the first seed that fails. Also on 100 scattered seeds (a multiplicative hash of
//    0..99), which tells a weak strategy from weakly mixed small seeds.
// 4. What fast-check lacks, measured — the trace hash of the same reports computed in two fresh processes (and
//    this one); and the deviations from FIFO in the reported schedules: the replicated log from part 2, the one-overtake
//    bug (20 explorations of 40 seeds; fast-check: 20 seeds), and the depth-2 bug (its failing seeds from part 3,
//    shrunk), against the fewest possible.
//
// Usage: node bench/schedules.mjs [--seeds N] [--runs N] [--batch N] [--procs N] [--no-fastcheck] [--no-speed]
//                                 [--json out.json]
// (internal: --child shrinkscope|fast-check:small|big, one rate measurement; --child hash, part 4's hashes)
import { isDeepStrictEqual } from "node:util";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { check, explore, property, PropertyFailure, ScheduleFailure, simTest } from "../dist/engine.mjs";
import {
  arbitraries,
  counts,
  fastCheckNonFifo,
  MINIMAL,
  replicate,
  replicateFc,
  strategies,
} from "./schedules/replicate.mjs";
import { depthTwo, fewestDeviationsSchedule, overtake, overtakeFc, STEPS, TASKS } from "./schedules/orderings.mjs";
import { eachFlag, positiveInt } from "./lib/args.mjs";
import { measureInFreshProcesses } from "./lib/fresh-processes.mjs";
import { commandLine, num, rate, ratio, table } from "./lib/markdown.mjs";

const SCRIPT = fileURLToPath(import.meta.url);
const SIZES = { small: [2, ["a", "b"], 1], big: [4, ["a", "b", "c"], 1] };
const PCT_SEEDS = 100;
const PCT_DEPTH = 2;
const SHRUNK_DEPTH_TWO = 4; // failing depth-2 seeds shrunk for part 4 (a few seconds each)
const OVERTAKE_EXPLORATIONS = 20;
const OVERTAKE_SEEDS = 40;

// A seed from the environment would override every seed here.
delete process.env.SHRINKSCOPE_SEED;

function parseArgs(argv) {
  const opts = { seeds: 20, runs: 10, batch: 200, procs: 3, fastcheck: true, speed: true, json: null, child: null };
  eachFlag(argv, (a, value) => {
    if (a === "--seeds") opts.seeds = positiveInt(a, value());
    else if (a === "--runs") opts.runs = positiveInt(a, value());
    else if (a === "--batch") opts.batch = positiveInt(a, value());
    else if (a === "--procs") opts.procs = positiveInt(a, value());
    else if (a === "--no-fastcheck") opts.fastcheck = false;
    else if (a === "--no-speed") opts.speed = false;
    else if (a === "--json") opts.json = value();
    else if (a === "--child") opts.child = value();
    else if (a === "--help" || a === "-h") {
      console.log(
        "node bench/schedules.mjs [--seeds N] [--runs N] [--batch N] [--procs N] [--no-fastcheck] [--no-speed] [--json out.json]",
      );
      process.exit(0);
    } else throw new Error(`unknown argument ${a} (try --help)`);
  });
  return opts;
}

const deviations = (schedule) => schedule.filter((d) => d !== 0).length;
const seedRange = (from, n) => Array.from({ length: n }, (_, i) => from + i);
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const show = (args) => args.map((a) => JSON.stringify(a)).join(", ");

// ---------------------------------------------------------------------------------------------- 1. runs per second

/** In a child process: `runs` timed batches of `batch` runs of the guarded workload, each checked to pass. */
async function speedChild(spec, opts) {
  const [lib, size] = spec.split(":");
  const [writers, payloads, delay] = SIZES[size] ?? [];
  if (writers === undefined || !["shrinkscope", "fast-check"].includes(lib))
    throw new Error(`--child takes shrinkscope|fast-check:small|big, got ${spec}`);
  const runs = [];
  for (let i = 1; i <= opts.runs; i++) {
    counts.reset();
    const t0 = performance.now();
    if (lib === "shrinkscope") {
      const r = await explore(() => replicate(writers, payloads, delay, true), {
        seeds: seedRange((i - 1) * opts.batch, opts.batch),
        shrink: false,
      });
      if (r !== null) throw new Error(`the guarded workload failed:\n${r.render()}`);
    } else {
      await fc.assert(
        fc.asyncProperty(fc.scheduler(), (s) => replicateFc(s, writers, payloads, delay, true)),
        { seed: i, numRuns: opts.batch },
      );
    }
    runs.push({ ms: performance.now() - t0, workloads: counts.workloads });
  }
  process.stdout.write(JSON.stringify({ lib, size, runs }) + "\n");
}

function measureSpeed(opts) {
  const libs = ["shrinkscope", ...(opts.fastcheck ? ["fast-check"] : [])];
  const jobs = Object.keys(SIZES).flatMap((size) => libs.map((lib) => `${lib}:${size}`));
  return measureInFreshProcesses({
    script: SCRIPT,
    jobs,
    procs: opts.procs,
    args: (job) => ["--child", job, "--runs", String(opts.runs), "--batch", String(opts.batch)],
    rate: (x) => x.workloads / (x.ms / 1000),
  });
}

// ---------------------------------------------------------------------------------------------- 2. found and minimal

async function shrinkscopeSeed(seed) {
  counts.reset();
  // simTest calls the workload once per simulated run with the property's own argument values, so a payloads
  // array not seen in the previous call is a new call of the property body.
  let propertyRuns = 0;
  let last;
  const body = simTest({ seeds: 8 }, (writers, payloads, delay) => {
    if (payloads !== last) {
      propertyRuns++;
      last = payloads;
    }
    return replicate(writers, payloads, delay);
  });
  const t0 = performance.now();
  try {
    await check(property(...strategies(), body), { seed, database: null });
    return { seed, found: false, ms: performance.now() - t0 };
  } catch (e) {
    const ms = performance.now() - t0;
    if (!(e instanceof PropertyFailure)) return { seed, found: false, ms, error: String(e?.stack ?? e) };
    const report = e.cause instanceof ScheduleFailure ? e.cause.report : undefined;
    return {
      seed,
      found: true,
      ms,
      final: e.args,
      minimal: isDeepStrictEqual(e.args, MINIMAL),
      propertyRuns,
      workloads: counts.workloads,
      nonFifo: report ? deviations(report.schedule) : null,
      nonFifoBefore: report ? deviations(report.seedSchedule) : null,
      error: report ? undefined : `not a ScheduleFailure: ${String(e.cause)}`,
    };
  }
}

async function fastCheckSeed(seed) {
  counts.reset();
  let propertyRuns = 0;
  let failing; // the scheduler of the last failing run: the counterexample's
  const t0 = performance.now();
  const r = await fc.check(
    fc.asyncProperty(...arbitraries(), fc.scheduler(), async (writers, payloads, delay, s) => {
      propertyRuns++;
      try {
        await replicateFc(s, writers, payloads, delay);
      } catch (e) {
        failing = s;
        throw e;
      }
    }),
    { seed },
  );
  const ms = performance.now() - t0;
  if (!r.failed || !r.counterexample) return { seed, found: false, ms };
  const final = r.counterexample.slice(0, 3);
  return {
    seed,
    found: true,
    ms,
    final,
    minimal: isDeepStrictEqual(final, MINIMAL),
    propertyRuns,
    workloads: counts.workloads,
    nonFifo: failing ? fastCheckNonFifo(failing) : null,
  };
}

// ---------------------------------------------------------------------------------------------- 3. PCT against random

const scattered = (i) => Math.imul(i + 1, 0x9e3779b1) >>> 0; // Fibonacci hashing: 100 seeds far apart

// depth is PCT's own option: explore() rejects it for the random strategy.
const strategyOptions = (strategy) => (strategy === "pct" ? { strategy, depth: PCT_DEPTH } : { strategy });

async function orderingShare(strategy, seeds) {
  const failing = [];
  for (const seed of seeds)
    if ((await explore(depthTwo, { seeds: [seed], ...strategyOptions(strategy), shrink: false })) !== null)
      failing.push(seed);
  return failing;
}

async function partThree() {
  const rows = {};
  for (const strategy of ["random", "pct"]) {
    const t0 = performance.now();
    const small = await orderingShare(strategy, seedRange(0, PCT_SEEDS));
    const whole = await explore(depthTwo, { seeds: PCT_SEEDS, ...strategyOptions(strategy), shrink: false });
    const spread = await orderingShare(strategy, seedRange(0, PCT_SEEDS).map(scattered));
    rows[strategy] = { small, firstInWhole: whole?.seed ?? null, spread, ms: performance.now() - t0 };
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------- 4. hash and FIFO distance

const HASHED = [
  ['replicate(2, ["a"], 0), seeds: 8', () => explore(() => replicate(2, ["a"], 0), { seeds: 8 })],
  ['replicate(4, ["a","b","c"], 1), seeds: 8', () => explore(() => replicate(4, ["a", "b", "c"], 1), { seeds: 8 })],
  [`overtake, seeds: ${OVERTAKE_SEEDS}`, () => explore(overtake, { seeds: OVERTAKE_SEEDS })],
];

async function hashes() {
  const out = [];
  for (const [name, run] of HASHED) {
    const r = await run();
    out.push({
      name,
      seed: r?.seed ?? null,
      traceHash: r?.traceHash ?? null,
      schedule: r ? r.schedule.join(",") : null,
    });
  }
  return out;
}

function hashesInChildren() {
  return [1, 2].map((n) => {
    const r = spawnSync(process.execPath, [SCRIPT, "--child", "hash"], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`hash child ${n} failed: ${r.stderr || r.error}`);
    return JSON.parse(r.stdout.trim().split("\n").pop());
  });
}

async function overtakeDistances(withFastCheck) {
  const shrinkscope = [];
  for (let k = 0; k < OVERTAKE_EXPLORATIONS; k++) {
    const r = await explore(overtake, { seeds: seedRange(k * OVERTAKE_SEEDS, OVERTAKE_SEEDS) });
    shrinkscope.push(
      r
        ? { found: true, nonFifo: deviations(r.schedule), nonFifoBefore: deviations(r.seedSchedule) }
        : { found: false },
    );
  }
  const fastcheck = [];
  if (withFastCheck) {
    for (let seed = 1; seed <= OVERTAKE_EXPLORATIONS; seed++) {
      let failing;
      const r = await fc.check(
        fc.asyncProperty(fc.scheduler(), async (s) => {
          try {
            await overtakeFc(s);
          } catch (e) {
            failing = s;
            throw e;
          }
        }),
        { seed, numRuns: OVERTAKE_SEEDS },
      );
      fastcheck.push(r.failed && failing ? { found: true, nonFifo: fastCheckNonFifo(failing) } : { found: false });
    }
  }
  return { shrinkscope, fastcheck };
}

async function depthTwoDistances(failingSeeds) {
  const out = [];
  for (const seed of failingSeeds.slice(0, SHRUNK_DEPTH_TWO)) {
    const t0 = performance.now();
    const r = await explore(depthTwo, { seeds: [seed], strategy: "pct", depth: PCT_DEPTH });
    if (r)
      out.push({
        seed,
        found: true,
        nonFifo: deviations(r.schedule),
        nonFifoBefore: deviations(r.seedSchedule),
        decisions: r.schedule.length,
        ms: performance.now() - t0,
      });
  }
  return out;
}

/** "0: 3 · 1: 17" — how many reports ended with each number of deviations. */
function distribution(found) {
  const by = new Map();
  for (const r of found) by.set(r.nonFifo, (by.get(r.nonFifo) ?? 0) + 1);
  return (
    [...by.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([k, n]) => `${k}: ${n}`)
      .join(" · ") || "—"
  );
}

// ---------------------------------------------------------------------------------------------- main

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.child === "hash") return void process.stdout.write(JSON.stringify(await hashes()) + "\n");
  if (opts.child) return speedChild(opts.child, opts);

  const cpu = os.cpus();
  const command = commandLine("bench:schedules", "bench/schedules.mjs");
  console.log(
    `Schedules: the replicated reserve-then-write log and ordering bugs; node ${process.version}, fast-check ${fc.__version}, ${cpu.length} × ${cpu[0]?.model?.trim() ?? "cpu"}`,
  );

  // 1.
  let speed = null;
  if (opts.speed) {
    process.stdout.write(
      `1. runs/s: ${opts.procs} fresh processes per contender, ${opts.runs} batches of ${opts.batch} runs, guarded workload … `,
    );
    const t0 = performance.now();
    speed = measureSpeed(opts);
    console.log(`${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }

  // 2.
  process.stdout.write(`2. found and minimal: seeds 1..${opts.seeds} … `);
  let t0 = performance.now();
  const found = { shrinkscope: [], "fast-check": [] };
  for (let seed = 1; seed <= opts.seeds; seed++) {
    found.shrinkscope.push(await shrinkscopeSeed(seed));
    if (opts.fastcheck) found["fast-check"].push(await fastCheckSeed(seed));
  }
  console.log(`${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // 3.
  process.stdout.write(`3. PCT against random: ${TASKS.length} tasks × ${STEPS} steps, ${PCT_SEEDS} seeds … `);
  t0 = performance.now();
  const ordering = await partThree();
  console.log(`${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // 4.
  process.stdout.write("4. trace hashes in two fresh processes, deviations from FIFO … ");
  t0 = performance.now();
  const here = await hashes();
  const [first, second] = hashesInChildren();
  const overtakes = await overtakeDistances(opts.fastcheck);
  const depthTwoFailing = ordering.pct.small.length > 0 ? ordering.pct.small : ordering.pct.spread;
  const depthTwoShrunk = await depthTwoDistances(depthTwoFailing);
  const fewest = fewestDeviationsSchedule();
  const fewestCheck = await explore(depthTwo, { schedule: fewest });
  const fifoPasses = (await explore(depthTwo, { schedule: [] })) === null;
  console.log(`${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // ---- tables
  if (speed) {
    console.log();
    console.log(
      `**1. Runs per second** (guarded workload, delay 1; each library alone in fresh processes; cold: first batch of ${opts.batch}, warm: median of the other ${opts.runs - 1}; median of ${opts.procs} processes)`,
    );
    console.log();
    const rows = Object.entries(SIZES).flatMap(([size, [w, p]]) => {
      const label = `${w} writers × ${p.length} payloads`;
      const s = speed[`shrinkscope:${size}`];
      const f = speed[`fast-check:${size}`];
      return [
        [
          label,
          "Shrinkscope explore (simulated scheduler)",
          rate(s.cold),
          rate(s.warm),
          f ? ratio(s.cold, f.cold) : "—",
          f ? ratio(s.warm, f.warm) : "—",
        ],
        ...(f ? [["", `fast-check ${fc.__version} fc.scheduler()`, rate(f.cold), rate(f.warm), "", ""]] : []),
      ];
    });
    console.log(
      table(["workload", "library", "runs/s cold", "runs/s warm", "Shrinkscope / fast-check cold", "warm"], rows),
    );
    console.log();
    console.log("spread over the processes (cold | warm):");
    for (const [job, s] of Object.entries(speed))
      console.log(`  ${job}: ${s.coldAll.map(rate).join(", ")} | ${s.warmAll.map(rate).join(", ")}`);
  }

  console.log();
  console.log(
    `**2. Found and minimal** (seeds 1..${opts.seeds}; writers 1..4, 1–3 payloads of 1–3 letters "abc", delay 0/1/10; minimal = ${show(MINIMAL)})`,
  );
  console.log();
  const libs = [
    ["Shrinkscope property + simTest({ seeds: 8 })", found.shrinkscope],
    ...(opts.fastcheck ? [[`fast-check ${fc.__version} asyncProperty + fc.scheduler()`, found["fast-check"]]] : []),
  ];
  console.log(
    table(
      ["library", "found", "minimal", "mean property runs", "max property runs", "mean simulated runs", "time (s)"],
      libs.map(([label, runs]) => {
        const f = runs.filter((r) => r.found);
        const errors = runs.filter((r) => r.error).length;
        return [
          label + (errors ? ` errors(${errors})` : ""),
          `${f.length}/${runs.length}`,
          `${f.filter((r) => r.minimal).length}/${runs.length}`,
          num(mean(f.map((r) => r.propertyRuns))),
          f.length ? String(Math.max(...f.map((r) => r.propertyRuns))) : "—",
          num(mean(f.map((r) => r.workloads))),
          num(runs.reduce((a, r) => a + r.ms, 0) / 1000),
        ];
      }),
    ),
  );
  for (const [label, runs] of libs) {
    const misses = runs.filter((r) => !r.found || !r.minimal);
    if (misses.length === 0) continue;
    const by = new Map();
    for (const r of misses) {
      const k = r.found ? show(r.final) : r.error ? `error: ${r.error.split("\n")[0]}` : "(not found)";
      by.set(k, [...(by.get(k) ?? []), r.seed]);
    }
    console.log();
    console.log(`${label}: ${misses.length} seed(s) not on the minimal workload:`);
    for (const [k, seeds] of by) console.log(`  seeds ${seeds.join(",")}: ${k}`);
  }

  console.log();
  console.log(
    `**3. PCT against random** (the depth-2 ordering bug of bench/schedules/orderings.mjs: ${TASKS.length} tasks × ${STEPS} steps; A${STEPS - 1} after all of B and before C0; FIFO passes: ${fifoPasses ? "yes" : "**NO**"})`,
  );
  console.log();
  console.log(
    table(
      [
        "strategy",
        `seeds 0..${PCT_SEEDS - 1} that fail (each alone)`,
        `first failing seed exploring seeds: ${PCT_SEEDS}`,
        `${PCT_SEEDS} scattered seeds that fail`,
        "time (s)",
      ],
      ["random", "pct"].map((s) => {
        const o = ordering[s];
        return [
          s === "pct" ? `PCT (depth ${PCT_DEPTH})` : "random",
          `${o.small.length}/${PCT_SEEDS}`,
          o.firstInWhole === null ? "none" : String(o.firstInWhole),
          `${o.spread.length}/${PCT_SEEDS}`,
          num(o.ms / 1000),
        ];
      }),
    ),
  );

  console.log();
  console.log("**4. What fast-check lacks**");
  console.log();
  console.log("Trace hash of the first failing seed's report, computed in this process and in two fresh ones:");
  console.log();
  console.log(
    table(
      ["workload", "seed", "this process", "fresh process 1", "fresh process 2", "same hash and schedule"],
      here.map((h, i) => {
        const same = [first[i], second[i]].every(
          (o) => o.traceHash === h.traceHash && o.seed === h.seed && o.schedule === h.schedule,
        );
        return [
          h.name,
          String(h.seed),
          h.traceHash ?? "—",
          first[i].traceHash ?? "—",
          second[i].traceHash ?? "—",
          same ? "yes" : "**NO**",
        ];
      }),
    ),
  );
  console.log();
  console.log(
    "Deviations from FIFO in the reported schedules (decisions that did not run the task ready first; fast-check does not shrink its scheduler, so its counterexample keeps the schedule of the failing run):",
  );
  console.log();
  const fsRows = [];
  const distRow = (workload, label, list, fewestPossible) => {
    const f = list.filter((r) => r.found);
    const before = f.map((r) => r.nonFifoBefore).filter((x) => typeof x === "number");
    fsRows.push([
      workload,
      label,
      `${f.length}/${list.length}`,
      distribution(f),
      before.length ? num(mean(before)) : "—",
      num(mean(f.map((r) => r.nonFifo))),
      fewestPossible,
    ]);
  };
  distRow("replicated log (part 2's minimal workloads)", "Shrinkscope", found.shrinkscope, "0 (FIFO fails)");
  if (opts.fastcheck) distRow("", "fast-check", found["fast-check"], "");
  distRow(
    `overtake (task 4 before task 2; ${OVERTAKE_EXPLORATIONS} explorations of ${OVERTAKE_SEEDS} seeds)`,
    "Shrinkscope",
    overtakes.shrinkscope,
    "1",
  );
  if (opts.fastcheck)
    distRow(
      `(fast-check: seeds 1..${OVERTAKE_EXPLORATIONS}, ${OVERTAKE_SEEDS} runs each)`,
      "fast-check",
      overtakes.fastcheck,
      "",
    );
  distRow(
    `depth-2 ordering (PCT, ${depthTwoShrunk.length} failing seeds of part 3${ordering.pct.small.length > 0 ? "" : ", scattered"})`,
    "Shrinkscope",
    depthTwoShrunk,
    `${deviations(fewest)}${fewestCheck === null ? " (NOT reproduced)" : ""}`,
  );
  console.log(
    table(
      [
        "workload",
        "library",
        "found",
        "reports by deviations (deviations: reports)",
        "mean before shrinking",
        "mean reported",
        "fewest possible",
      ],
      fsRows,
    ),
  );
  const missed = overtakes.shrinkscope.flatMap((r, k) =>
    r.found ? [] : [`${k * OVERTAKE_SEEDS}..${(k + 1) * OVERTAKE_SEEDS - 1}`],
  );
  if (missed.length)
    console.log(`\novertake: explorations that found nothing (Shrinkscope): seeds ${missed.join(", ")}`);
  if (depthTwoShrunk.length)
    console.log(
      `\ndepth-2 shrinks: ${depthTwoShrunk.map((r) => `seed ${r.seed} ${r.nonFifoBefore} → ${r.nonFifo} of ${r.decisions} decisions in ${num(r.ms / 1000)} s`).join("; ")}`,
    );

  console.log();
  console.log(`command: ${command}`);
  if (opts.json)
    writeFileSync(
      opts.json,
      JSON.stringify(
        { opts, speed, found, ordering, hashes: { here, first, second }, overtakes, depthTwoShrunk },
        null,
        2,
      ),
    );
}

await main();
