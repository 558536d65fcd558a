// State-machine benchmark (docs/benchmarks.md, "State machines"): the ledger and LRU fixtures of bench/machines/,
// Shrinkscope's machine() against fast-check's fc.commands + fc.modelRun on the same systems and models, and
// optionally Hypothesis's RuleBasedStateMachine (bench/machines/hypothesis_machines.py).
//
// For each fixture, over seeds 1..N (default 20), maxExamples / numRuns 100, stepCount 50, database and deadline
// off:
//   found          — seeds on which the bug was found at all;
//   seed-minimal   — seeds whose final counterexample is exactly the fixture's normal form (Shrinkscope: the
//                    PropertyFailure's repro; fast-check: the counterexample's command list, each command
//                    printed like put("0",0));
//   shrink runs    — machine runs while shrinking, mean over the seeds that found the bug. Shrinkscope:
//                    failure.statistics.shrinkCalls; fast-check: model/system setups after the first failing
//                    run; Hypothesis: test cases of its shrink phase;
//   runs after 1st failure — every construction of the machine (Shrinkscope, Hypothesis) or fc.modelRun setup
//                    (fast-check) after the one whose run first failed, counted by the fixtures themselves
//                    (bench/machines/counts.mjs), mean and max. For fast-check it is the shrink runs; Shrinkscope
//                    and Hypothesis replay a few cases after shrinking (see the verification line);
//   steps/s        — executed rule calls (commands whose run() ran, for fast-check) per second of wall time, on
//                    the fixture WITHOUT the bug (so the whole budget runs: --examples, default 200 examples per
//                    run). Each measurement runs in a fresh `node` child process (JIT state matters): the child
//                    does --runs runs (default 10, seeds 1..10) and reports JSON; "cold" is its first run, "warm"
//                    the median of the others; the figure is the median over --procs processes (default 3) per
//                    contender, the processes of the contenders interleaved;
//   steps/run      — the mean rule calls per run in those runs (how long the sequences are).
// Shrinkscope's verification: a second run per seed with an onEvent tap that only watches the phase events
// checks that shrinkCalls is the number of machines constructed during the shrink phase, and how many more
// were constructed after it (the final phase's replays of the first failure and of rejected candidates, and
// the replay that presents the steps).
// fast-check generates up to stepCount commands per run (fc.commands maxCommands 50, size "max"); with its
// default size it would stop at 10 commands (--fc-size small).
//
// Usage: node bench/stateful.mjs [--seeds N] [--only ledger,lru] [--no-fastcheck] [--no-hypothesis] [--no-speed]
//                               [--examples N] [--runs N] [--procs N] [--fc-size small|max] [--json out.json]
// (internal: --child shrinkscope|fast-check:FIXTURE, one steps-per-second measurement, JSON on stdout)
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { PropertyFailure } from "../dist/engine.mjs";
import { fixture as ledger } from "./machines/ledger.mjs";
import { fixture as lru } from "./machines/lru.mjs";
import { eachFlag, positiveInt } from "./lib/args.mjs";
import { measureInFreshProcesses, median } from "./lib/fresh-processes.mjs";
import { commandLine, num, rate, ratio, table } from "./lib/markdown.mjs";

const FIXTURES = [ledger, lru];
const MAX_EXAMPLES = 100;
const STEP_COUNT = 50;
const SCRIPT = fileURLToPath(import.meta.url);
const HYPOTHESIS_SCRIPT = fileURLToPath(new URL("./machines/hypothesis_machines.py", import.meta.url));

// A seed from the environment would override every seed here.
delete process.env.SHRINKSCOPE_SEED;

// ---------------------------------------------------------------------------------------------- options

function parseArgs(argv) {
  const opts = {
    seeds: 20,
    only: null,
    fastcheck: true,
    hypothesis: true,
    speed: true,
    examples: 200,
    runs: 10,
    procs: 3,
    fcSize: "max",
    json: null,
    child: null,
  };
  eachFlag(argv, (a, value) => {
    if (a === "--seeds") opts.seeds = positiveInt(a, value());
    else if (a === "--only")
      opts.only = value()
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
    else if (a === "--no-fastcheck") opts.fastcheck = false;
    else if (a === "--no-hypothesis") opts.hypothesis = false;
    else if (a === "--no-speed") opts.speed = false;
    else if (a === "--examples") opts.examples = positiveInt(a, value());
    else if (a === "--runs") opts.runs = positiveInt(a, value());
    else if (a === "--procs") opts.procs = positiveInt(a, value());
    else if (a === "--fc-size") opts.fcSize = value();
    else if (a === "--json") opts.json = value();
    else if (a === "--child") opts.child = value();
    else if (a === "--help" || a === "-h") {
      console.log(
        "node bench/stateful.mjs [--seeds N] [--only ledger,lru] [--no-fastcheck] [--no-hypothesis] [--no-speed] [--examples N] [--runs N] [--procs N] [--fc-size small|max] [--json out.json]",
      );
      process.exit(0);
    } else throw new Error(`unknown argument ${a} (try --help)`);
  });
  const known = FIXTURES.map((f) => f.name);
  const unknown = (opts.only ?? []).filter((n) => !known.includes(n));
  if (unknown.length) throw new Error(`unknown fixture(s) ${unknown.join(", ")}; known: ${known.join(", ")}`);
  if (!["small", "max", "xsmall", "medium", "large", "xlarge"].includes(opts.fcSize))
    throw new Error(`--fc-size must be a fast-check size (small, max, …), got ${opts.fcSize}`);
  return opts;
}

const fixtureNamed = (name) => FIXTURES.find((f) => f.name === name);

// ---------------------------------------------------------------------------------------------- shrinking runs

const shrinkscopeSettings = (seed, extra = {}) => ({
  seed,
  database: null,
  deadline: null,
  maxExamples: MAX_EXAMPLES,
  stepCount: STEP_COUNT,
  ...extra,
});

function runShrinkscope(fx, seed) {
  const c = fx.counts;
  c.reset();
  const t0 = performance.now();
  let failure;
  try {
    fx.shrinkscope(shrinkscopeSettings(seed))();
    return { seed, found: false, timeMs: performance.now() - t0 };
  } catch (e) {
    if (!(e instanceof PropertyFailure))
      return { seed, found: false, error: String(e?.stack ?? e), timeMs: performance.now() - t0 };
    failure = e;
  }
  const timeMs = performance.now() - t0;
  return {
    seed,
    found: true,
    timeMs,
    final: failure.repro,
    normal: failure.repro === fx.normalForm,
    shrinkCalls: failure.statistics.shrinkCalls,
    runsAfter: c.firstFailureAt === null ? null : c.constructions - c.firstFailureAt,
    flaky: failure.flaky,
    error:
      failure.cause instanceof assert.AssertionError
        ? undefined
        : `not the invariant's assertion: ${String(failure.cause)}`,
  };
}

/** The same run again, with a tap that notes the machine constructions at each phase event. */
function verifyShrinkscope(fx, seed) {
  const c = fx.counts;
  c.reset();
  const at = {};
  const onEvent = (e) => {
    if (e.type === "phase") at[e.phase] = c.constructions;
  };
  try {
    fx.shrinkscope(shrinkscopeSettings(seed, { onEvent }))();
    return null;
  } catch (e) {
    if (!(e instanceof PropertyFailure) || at.shrink === undefined || c.firstFailureAt === null) return null;
    // The explain phase (on by default) runs after shrinking and before the final phase.
    const endOfShrink = at.explain ?? at.final ?? c.constructions;
    return {
      shrinkCalls: e.statistics.shrinkCalls,
      shrinkPhaseRuns: endOfShrink - at.shrink,
      afterShrinking: c.constructions - endOfShrink,
      runsAfter: c.constructions - c.firstFailureAt,
      repro: e.repro,
    };
  }
}

function runFastCheck(fx, seed, fcSize) {
  const c = fx.counts;
  c.reset();
  const t0 = performance.now();
  let r;
  try {
    r = fc.check(fx.fastcheck({ stepCount: STEP_COUNT, size: fcSize }), { seed, numRuns: MAX_EXAMPLES });
  } catch (e) {
    return { seed, found: false, error: String(e?.stack ?? e), timeMs: performance.now() - t0 };
  }
  const timeMs = performance.now() - t0;
  if (!r.failed || !r.counterexample) return { seed, found: false, timeMs };
  // The command list prints the commands that ran, then a /*replayPath=…*/ comment.
  const final = String(r.counterexample[0])
    .replace(/\s*\/\*replayPath=.*?\*\/\s*$/, "")
    .trim();
  const runsAfter = c.firstFailureAt === null ? null : c.constructions - c.firstFailureAt;
  return {
    seed,
    found: true,
    timeMs,
    final,
    normal: final === fx.fcNormalForm,
    shrinkCalls: runsAfter,
    runsAfter,
    error:
      r.errorInstance instanceof assert.AssertionError
        ? undefined
        : `not the invariant's assertion: ${String(r.errorInstance ?? r.error)}`,
  };
}

function runHypothesis(opts, names) {
  const probe = spawnSync("python3", ["-c", "import hypothesis; print(hypothesis.__version__)"], { encoding: "utf8" });
  if (probe.error || probe.status !== 0) {
    const why = probe.error
      ? `python3 not found (${probe.error.code})`
      : `hypothesis is not importable (${(probe.stderr || "").trim().split("\n").pop()})`;
    return { skipped: `Hypothesis skipped: ${why}; pip install hypothesis to add it.` };
  }
  const r = spawnSync("python3", [HYPOTHESIS_SCRIPT, "--seeds", String(opts.seeds), "--only", names.join(",")], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, PYTHONHASHSEED: "0" },
  });
  if (r.status !== 0)
    return {
      skipped: `Hypothesis run failed: ${(r.stderr || String(r.error)).trim().split("\n").slice(-3).join(" / ")}`,
    };
  const out = JSON.parse(r.stdout.trim().split("\n").pop());
  const fixtures = {};
  for (const [name, runs] of Object.entries(out.fixtures)) {
    fixtures[name] = runs.map((x) => ({
      seed: x.seed,
      found: x.found,
      normal: x.normal,
      final: x.steps ? x.steps.join("\n") : undefined,
      shrinkCalls: x.shrink_runs,
      runsAfter: x.runs_after,
      error: x.error ?? undefined,
    }));
  }
  return { version: out.hypothesis, python: out.python, settings: out.settings, fixtures };
}

// ---------------------------------------------------------------------------------------------- steps per second

/** In a child process: `runs` runs of the fixture without the bug, each timed alone. */
async function child(spec, opts) {
  const [lib, name] = spec.split(":");
  const fx = fixtureNamed(name);
  if (!fx || !["shrinkscope", "fast-check"].includes(lib))
    throw new Error(`--child takes shrinkscope|fast-check:FIXTURE, got ${spec}`);
  const c = fx.counts;
  const runs = [];
  for (let i = 1; i <= opts.runs; i++) {
    c.reset();
    const t0 = performance.now();
    if (lib === "shrinkscope")
      fx.shrinkscope(shrinkscopeSettings(i, { maxExamples: opts.examples }), { fixed: true })();
    else
      fc.assert(fx.fastcheck({ fixed: true, stepCount: STEP_COUNT, size: opts.fcSize }), {
        seed: i,
        numRuns: opts.examples,
      });
    const ms = performance.now() - t0;
    runs.push({ ms, ruleCalls: c.ruleCalls, machines: c.constructions });
  }
  process.stdout.write(JSON.stringify({ lib, fixture: name, runs }) + "\n");
}

function measureSpeed(opts, names, libs) {
  const jobs = names.flatMap((n) => libs.map((l) => `${l}:${n}`));
  const measured = measureInFreshProcesses({
    script: SCRIPT,
    jobs,
    procs: opts.procs,
    args: (job) => [
      "--child",
      job,
      "--examples",
      String(opts.examples),
      "--runs",
      String(opts.runs),
      "--fc-size",
      opts.fcSize,
    ],
    rate: (x) => x.ruleCalls / (x.ms / 1000),
  });
  const stepsPerRun = (out) =>
    out.runs.reduce((a, x) => a + x.ruleCalls, 0) / out.runs.reduce((a, x) => a + x.machines, 0);
  return Object.fromEntries(
    Object.entries(measured).map(([job, m]) => [
      job,
      {
        cold: m.cold,
        warm: m.warm,
        stepsPerRun: median(m.outputs.map(stepsPerRun)),
        coldAll: m.coldAll,
        warmAll: m.warmAll,
      },
    ]),
  );
}

// ---------------------------------------------------------------------------------------------- summary and table

function summarize(runs) {
  const found = runs.filter((r) => r.found);
  const calls = found.map((r) => r.shrinkCalls).filter((x) => typeof x === "number");
  const after = found.map((r) => r.runsAfter).filter((x) => typeof x === "number");
  const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
  return {
    seeds: runs.length,
    found: found.length,
    normal: found.filter((r) => r.normal).length,
    meanShrink: mean(calls),
    meanAfter: mean(after),
    maxAfter: after.length ? Math.max(...after) : NaN,
    errors: runs.filter((r) => r.error).length,
    flaky: runs.filter((r) => r.flaky).length,
    timeS: runs.reduce((a, r) => a + (r.timeMs ?? 0), 0) / 1000,
  };
}

// ---------------------------------------------------------------------------------------------- main

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.child) return child(opts.child, opts);

  const names = opts.only ?? FIXTURES.map((f) => f.name);
  const libs = ["shrinkscope", ...(opts.fastcheck ? ["fast-check"] : [])];
  const fcVersion = fc.__version;
  const command = commandLine("bench:stateful", "bench/stateful.mjs");
  const cpu = os.cpus();
  console.log(
    `State machines: ${names.join(", ")}; seeds 1..${opts.seeds}; maxExamples/numRuns ${MAX_EXAMPLES}; stepCount ${STEP_COUNT}; database and deadline off`,
  );
  console.log(
    `node ${process.version}, fast-check ${fcVersion} (fc.commands maxCommands ${STEP_COUNT}, size "${opts.fcSize}"), ${cpu.length} × ${cpu[0]?.model?.trim() ?? "cpu"}`,
  );

  const results = {};
  const verify = {};
  for (const name of names) {
    const fx = fixtureNamed(name);
    results[name] = { shrinkscope: [], "fast-check": [] };
    verify[name] = [];
    for (let seed = 1; seed <= opts.seeds; seed++) {
      const s = runShrinkscope(fx, seed);
      results[name].shrinkscope.push(s);
      if (s.found) {
        const v = verifyShrinkscope(fx, seed);
        verify[name].push({ seed, untapped: s, tapped: v });
      }
      if (opts.fastcheck) results[name]["fast-check"].push(runFastCheck(fx, seed, opts.fcSize));
    }
  }

  let hyp = null;
  if (opts.hypothesis) {
    process.stdout.write("Hypothesis: running bench/machines/hypothesis_machines.py … ");
    const t0 = performance.now();
    hyp = runHypothesis(opts, names);
    console.log(hyp.skipped ? "skipped" : `${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }

  let speed = null;
  if (opts.speed) {
    process.stdout.write(
      `steps/s: ${opts.procs} fresh processes per contender, ${opts.runs} runs of ${opts.examples} examples each, without the bug … `,
    );
    const t0 = performance.now();
    speed = measureSpeed(opts, names, libs);
    console.log(`${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }

  // The table.
  const header = [
    "fixture",
    "library",
    "found",
    "seed-minimal",
    "mean shrink runs",
    "runs after 1st failure (mean / max)",
    "steps/s cold",
    "steps/s warm",
    "steps/run",
  ];
  const rows = [];
  const sums = {};
  for (const name of names) {
    const libRows = [
      ["Shrinkscope", "shrinkscope"],
      ...(opts.fastcheck ? [[`fast-check ${fcVersion}`, "fast-check"]] : []),
    ];
    for (const [label, lib] of libRows) {
      const s = summarize(results[name][lib]);
      (sums[name] ??= {})[lib] = s;
      const sp = speed?.[`${lib}:${name}`];
      const marks = [s.errors ? `errors(${s.errors})` : "", s.flaky ? `flaky(${s.flaky})` : ""]
        .filter(Boolean)
        .join(" ");
      rows.push([
        name,
        label + (marks ? ` ${marks}` : ""),
        `${s.found}/${s.seeds}`,
        `${s.normal}/${s.seeds}`,
        num(s.meanShrink),
        `${num(s.meanAfter)} / ${Number.isFinite(s.maxAfter) ? s.maxAfter : "—"}`,
        rate(sp?.cold),
        rate(sp?.warm),
        num(sp?.stepsPerRun),
      ]);
    }
    if (hyp && !hyp.skipped && hyp.fixtures[name]) {
      const s = summarize(hyp.fixtures[name]);
      (sums[name] ??= {}).hypothesis = s;
      rows.push([
        name,
        `Hypothesis ${hyp.version}${s.errors ? ` errors(${s.errors})` : ""}`,
        `${s.found}/${s.seeds}`,
        `${s.normal}/${s.seeds}`,
        num(s.meanShrink),
        `${num(s.meanAfter)} / ${Number.isFinite(s.maxAfter) ? s.maxAfter : "—"}`,
        "—",
        "—",
        "—",
      ]);
    }
  }
  console.log();
  console.log(table(header, rows));

  if (opts.fastcheck) {
    console.log();
    console.log(
      "Against fast-check (Shrinkscope / fast-check; shrink runs: lower is better, steps/s: higher is better):",
    );
    console.log();
    const rrows = names.map((name) => {
      const a = sums[name].shrinkscope;
      const b = sums[name]["fast-check"];
      const sa = speed?.[`shrinkscope:${name}`];
      const sb = speed?.[`fast-check:${name}`];
      return [
        name,
        `${a.normal} vs ${b.normal}`,
        ratio(a.meanShrink, b.meanShrink),
        ratio(a.meanAfter, b.meanAfter),
        ratio(sa?.cold, sb?.cold),
        ratio(sa?.warm, sb?.warm),
      ];
    });
    console.log(
      table(
        [
          "fixture",
          "seed-minimal (of " + opts.seeds + ")",
          "mean shrink runs",
          "runs after 1st failure",
          "steps/s cold",
          "steps/s warm",
        ],
        rrows,
      ),
    );
  }

  // Shrinkscope's shrinkCalls against the machines it constructed.
  console.log();
  for (const name of names) {
    const vs = verify[name];
    const ok = vs.filter((v) => v.tapped && v.tapped.shrinkPhaseRuns === v.tapped.shrinkCalls);
    const same = vs.filter(
      (v) =>
        v.tapped &&
        v.tapped.shrinkCalls === v.untapped.shrinkCalls &&
        v.tapped.runsAfter === v.untapped.runsAfter &&
        v.tapped.repro === v.untapped.final,
    );
    const extra = [...new Set(vs.filter((v) => v.tapped).map((v) => v.tapped.afterShrinking))].sort((a, b) => a - b);
    const diffs = [...new Set(vs.map((v) => v.untapped.runsAfter - v.untapped.shrinkCalls))].sort((a, b) => a - b);
    console.log(
      `check ${name}: shrinkCalls = machines constructed in the shrink phase on ${ok.length}/${vs.length} seeds; ` +
        `after the shrink phase ${extra.join(", ") || "—"} more (the explain phase, the final-phase replays and the presentation replay); ` +
        `runs after the 1st failure − shrinkCalls: ${diffs.join(", ") || "—"}; ` +
        `the tapped run matched the untapped one on ${same.length}/${vs.length} seeds`,
    );
  }

  // Final counterexamples that are not the normal form, by library.
  for (const name of names) {
    const fx = fixtureNamed(name);
    const groups = [
      ["Shrinkscope", results[name].shrinkscope, fx.normalForm],
      ...(opts.fastcheck ? [["fast-check", results[name]["fast-check"], fx.fcNormalForm]] : []),
      ...(hyp && !hyp.skipped && hyp.fixtures[name] ? [["Hypothesis", hyp.fixtures[name], null]] : []),
    ];
    const invariantCall = /^state\.\w+\(\);?$/; // Hypothesis prints every invariant check; only rule calls are kept
    for (const [label, runs] of groups) {
      const misses = runs.filter((r) => !r.found || !r.normal || r.error);
      if (misses.length === 0) continue;
      const byFinal = new Map();
      for (const r of misses) {
        const k = !r.found
          ? r.error
            ? `error: ${r.error.split("\n")[0]}`
            : "(not found)"
          : (r.error ? `[${r.error.split("\n")[0]}] ` : "") +
            r.final
              .split("\n")
              .filter(
                (l) =>
                  !/^(const state = new |state = |state\.teardown\(|Explanation)/.test(l.trim()) &&
                  !(label === "Hypothesis" && invariantCall.test(l.trim())),
              )
              .map((l) => l.trim())
              .join(" ");
        byFinal.set(k, [...(byFinal.get(k) ?? []), r.seed]);
      }
      console.log();
      console.log(`${name}, ${label}: ${misses.length} seed(s) not on the normal form:`);
      for (const [k, seeds] of byFinal) console.log(`  seeds ${seeds.join(",")}: ${k}`);
    }
  }
  if (hyp?.skipped) console.log(`\n${hyp.skipped}`);
  else if (hyp)
    console.log(
      `\nHypothesis ${hyp.version} on Python ${hyp.python}: ${hyp.settings}; seeds via @seed(n); "mean shrink runs" are its shrink-phase test cases.`,
    );
  if (speed && opts.procs > 1) {
    console.log();
    console.log("steps/s spread over the processes (cold | warm):");
    for (const [job, s] of Object.entries(speed))
      console.log(`  ${job}: ${s.coldAll.map(rate).join(", ")} | ${s.warmAll.map(rate).join(", ")}`);
  }
  console.log();
  console.log(`command: ${command}`);

  if (opts.json) writeFileSync(opts.json, JSON.stringify({ opts, results, verify, hypothesis: hyp, speed }, null, 2));
}

await main();
