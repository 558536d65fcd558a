// Shrinking-challenge benchmark (docs/benchmarks.md, "Shrinking challenges").
//
// For each challenge (bench/challenges/definitions.mjs) run seeds 0..N-1 with the database off and report,
// for Shrinkscope and fast-check side by side:
//   ideal     — seeds whose final counterexample is the ideal minimum (out of the seeds where a failure was found)
//   found     — seeds where a failure was found within maxExamples = 1000 (fast-check: numRuns = 1000)
//   distinct  — how many distinct final counterexamples over the seeds
//   mean/max calls — property calls after the first failure ("shrink calls"), over the seeds that found one.
//                Shrinkscope: failure.statistics.shrinkCalls (the engine's own count of test cases run while
//                shrinking, including ones a filter or assume rejected). fast-check: the wrapped predicate
//                counts its invocations; shrink calls = total − the count at the first failing invocation
//                (cases a .filter rejects never reach the predicate, so they are not counted).
//   time(s)   — wall time of all the seeds' runs together (generation + shrinking).
// fast-check is stopped after --fc-cap-ms (default 5000) per seed (interruptAfterTimeLimit with
// markInterruptAsFailure: false; the counterexample reached so far is kept); rows where that happened are
// marked "capped(k)" with k the number of capped seeds. Shrinkscope runs with its defaults
// (maxShrinkCalls 5000, maxShrinkTimeMs 60000); seeds where it stopped early on that budget are marked "budget(k)".
//
// After the table: our mean shrink calls against two Hypothesis columns — the published reference figures
// (definitions.mjs) and the installed Hypothesis measured live in the same run over the same seeds and bounds
// (challenges/hypothesis_calls.py; "n/a" with the reason when python3 or hypothesis is missing, or with
// --no-hypothesis) — whether we are at or below the better of the two, whether max ≤ 3 × mean, and every
// Shrinkscope seed that did not reach the ideal (seed, final result, calls) for debugging.
//
// Usage: node bench/shrinking-challenge.mjs [--seeds N] [--only name1,name2] [--no-fastcheck] [--no-hypothesis]
//                                          [--json out.json] [--fc-cap-ms MS]
import { check, property, st, assume, PropertyFailure, Unsatisfiable } from "shrinkscope";
import fc from "fast-check";
import { writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { challenges } from "./challenges/definitions.mjs";

const MAX_EXAMPLES = 1000;

// ---------------------------------------------------------------------------------------------- options

function parseArgs(argv) {
  const opts = { seeds: 20, only: null, fastcheck: true, hypothesis: true, json: null, fcCapMs: 5000 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === "--seeds") opts.seeds = positiveInt(a, value());
    else if (a === "--only")
      opts.only = value()
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
    else if (a === "--no-fastcheck") opts.fastcheck = false;
    else if (a === "--no-hypothesis") opts.hypothesis = false;
    else if (a === "--json") opts.json = value();
    else if (a === "--fc-cap-ms") opts.fcCapMs = positiveInt(a, value());
    else if (a === "--help" || a === "-h") {
      console.log(
        "node bench/shrinking-challenge.mjs [--seeds N] [--only name1,name2] [--no-fastcheck] [--no-hypothesis] [--json out.json] [--fc-cap-ms MS]",
      );
      console.log(`challenges: ${challenges.map((c) => c.name).join(", ")}`);
      process.exit(0);
    } else throw new Error(`unknown argument ${a} (try --help)`);
  }
  if (opts.only) {
    const known = new Set(challenges.map((c) => c.name));
    const unknown = opts.only.filter((n) => !known.has(n));
    if (unknown.length) throw new Error(`unknown challenge(s) ${unknown.join(", ")}; known: ${[...known].join(", ")}`);
  }
  return opts;
}

function positiveInt(flag, v) {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} must be a positive integer, got ${v}`);
  return n;
}

// ---------------------------------------------------------------------------------------------- helpers

/** Print a value compactly (arrays/tuples as JSON; -0 kept visible). */
function show(v) {
  return JSON.stringify(v, (_k, x) => (Object.is(x, -0) ? "-0" : x));
}

class PropertyFalsified extends Error {
  constructor() {
    super("property falsified");
    this.name = "PropertyFalsified";
  }
}

// A single throw site, so every failure of a challenge has the same origin (the shrinker only keeps
// candidates that fail the same way).
function falsified() {
  throw new PropertyFalsified();
}

// ---------------------------------------------------------------------------------------------- runners

function runShrinkscope(ch, seed) {
  const strategies = ch.shrinkscope(st);
  let bodyCalls = 0;
  let bodyCallsAtFirstFailure = null;
  const body = (...args) => {
    bodyCalls++;
    if (ch.precondition && !ch.precondition(...args)) assume(false);
    if (ch.fails(...args)) {
      if (bodyCallsAtFirstFailure === null) bodyCallsAtFirstFailure = bodyCalls;
      falsified();
    }
  };
  const t0 = performance.now();
  try {
    check(property(...strategies, body), { seed, database: null, deadline: null, maxExamples: MAX_EXAMPLES });
    return { seed, found: false, timeMs: performance.now() - t0, bodyCalls };
  } catch (e) {
    const timeMs = performance.now() - t0;
    if (e instanceof PropertyFailure) {
      const s = e.statistics;
      const stopped = /Shrinking stopped early: ([^\n]*?)\.?\n/.exec(e.message);
      return {
        seed,
        found: true,
        args: e.args,
        ideal: ch.isIdeal(e.args),
        shrinkCalls: s.shrinkCalls,
        casesBeforeFailure: s.examples - s.shrinkCases,
        shrinks: s.shrinks,
        // Body invocations after the first failing one (filter-rejected cases never reach the body).
        bodyShrinkCalls: bodyCallsAtFirstFailure === null ? null : bodyCalls - bodyCallsAtFirstFailure,
        flaky: e.flaky,
        shrinkStopped: stopped ? stopped[1] : null,
        statistics: s,
        timeMs,
      };
    }
    if (e instanceof Unsatisfiable) return { seed, found: false, unsatisfiable: String(e.message), timeMs, bodyCalls };
    return { seed, found: false, error: String(e?.stack ?? e), timeMs, bodyCalls };
  }
}

function runFastCheck(ch, seed, capMs) {
  const arbs = ch.fastcheck(fc);
  let calls = 0;
  let callsAtFirstFailure = null;
  const predicate = (...args) => {
    calls++;
    if (ch.precondition) fc.pre(ch.precondition(...args));
    const failed = ch.fails(...args);
    if (failed && callsAtFirstFailure === null) callsAtFirstFailure = calls;
    return !failed;
  };
  const t0 = performance.now();
  let r;
  try {
    r = fc.check(fc.property(...arbs, predicate), {
      seed,
      numRuns: MAX_EXAMPLES,
      interruptAfterTimeLimit: capMs,
      markInterruptAsFailure: false,
    });
  } catch (e) {
    return { seed, found: false, error: String(e?.stack ?? e), timeMs: performance.now() - t0 };
  }
  const timeMs = performance.now() - t0;
  if (!r.failed || r.counterexample === null || r.counterexample === undefined) {
    return { seed, found: false, capped: r.interrupted, timeMs, numRuns: r.numRuns, numSkips: r.numSkips };
  }
  const args = [...r.counterexample];
  return {
    seed,
    found: true,
    args,
    ideal: ch.isIdeal(args),
    shrinkCalls: calls - callsAtFirstFailure,
    casesBeforeFailure: callsAtFirstFailure,
    shrinks: r.numShrinks,
    capped: r.interrupted,
    timeMs,
  };
}

/**
 * Modern Hypothesis's mean shrink calls per challenge, measured by challenges/hypothesis_calls.py over the same
 * seeds: { version, results: { name: { mean, ideal, found } } }, or { unavailable: reason }.
 */
function runHypothesis(names, seeds) {
  const script = fileURLToPath(new URL("./challenges/hypothesis_calls.py", import.meta.url));
  const r = spawnSync("python3", [script, "--seeds", String(seeds), "--only", names.join(",")], {
    encoding: "utf8",
    maxBuffer: 1 << 24,
  });
  if (r.error) return { unavailable: `python3 not runnable (${r.error.code ?? r.error.message})` };
  if (r.status !== 0) {
    const last = (r.stderr || "").trim().split("\n").pop() ?? "";
    return {
      unavailable: /No module named .hypothesis/.test(r.stderr)
        ? "hypothesis is not installed for python3"
        : `hypothesis_calls.py failed: ${last}`,
    };
  }
  return JSON.parse(r.stdout);
}

// ---------------------------------------------------------------------------------------------- summary

function summarize(runs) {
  const found = runs.filter((r) => r.found);
  const calls = found.map((r) => r.shrinkCalls);
  const mean = calls.length ? calls.reduce((a, b) => a + b, 0) / calls.length : NaN;
  return {
    seeds: runs.length,
    found: found.length,
    ideal: found.filter((r) => r.ideal).length,
    distinct: new Set(found.map((r) => show(r.args))).size,
    meanCalls: mean,
    maxCalls: calls.length ? Math.max(...calls) : NaN,
    timeS: runs.reduce((a, r) => a + r.timeMs, 0) / 1000,
    capped: runs.filter((r) => r.capped).length,
    budget: runs.filter((r) => r.shrinkStopped).length,
    errors: runs.filter((r) => r.error || r.unsatisfiable).length,
    flaky: runs.filter((r) => r.flaky).length,
  };
}

const NAME_W = 18;
const COLS = [
  ["ideal", 6],
  ["found", 6],
  ["distinct", 8],
  ["mean calls", 10],
  ["max calls", 9],
  ["time(s)", 7],
];

function fmtNum(x, digits = 1) {
  return Number.isFinite(x) ? x.toFixed(digits) : "-";
}

function cells(s) {
  const values = [
    `${s.ideal}/${s.found}`,
    `${s.found}/${s.seeds}`,
    String(s.distinct),
    fmtNum(s.meanCalls),
    Number.isFinite(s.maxCalls) ? String(s.maxCalls) : "-",
    fmtNum(s.timeS, 2),
  ];
  let out = values.map((v, i) => v.padStart(COLS[i][1])).join("  ");
  const marks = [];
  if (s.capped) marks.push(`capped(${s.capped})`);
  if (s.budget) marks.push(`budget(${s.budget})`);
  if (s.errors) marks.push(`errors(${s.errors})`);
  if (s.flaky) marks.push(`flaky(${s.flaky})`);
  return { text: out, marks: marks.join(" ") };
}

function header(withFc) {
  const cols = COLS.map(([n, w]) => n.padStart(w)).join("  ");
  let h = `${"challenge".padEnd(NAME_W)} | shrinkscope: ${cols}`;
  if (withFc) h += ` ${"".padEnd(MARK_W)} | fast-check: ${cols}`;
  return h;
}

const MARK_W = 12;

function row(name, ss, fcs) {
  const a = cells(ss);
  let line = `${name.padEnd(NAME_W)} | ${"".padEnd("shrinkscope: ".length)}${a.text}`;
  if (fcs) {
    line += ` ${a.marks.padEnd(MARK_W)} | ${"".padEnd("fast-check: ".length)}${cells(fcs).text}`;
    const m = cells(fcs).marks;
    if (m) line += `  ${m}`;
  } else if (a.marks) line += `  ${a.marks}`;
  return line;
}

// ---------------------------------------------------------------------------------------------- main

function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (process.env.SHRINKSCOPE_SEED !== undefined) {
    console.error(`note: ignoring SHRINKSCOPE_SEED=${process.env.SHRINKSCOPE_SEED} (it would override every seed)`);
    delete process.env.SHRINKSCOPE_SEED;
  }
  const selected = challenges.filter((c) => !opts.only || opts.only.includes(c.name));
  const seeds = Array.from({ length: opts.seeds }, (_, i) => i);
  const tStart = performance.now();

  console.log(
    `Shrinking challenge: ${seeds.length} seeds (0..${seeds.length - 1}), database off, maxExamples/numRuns ${MAX_EXAMPLES}` +
      (opts.fastcheck ? `, fast-check capped at ${opts.fcCapMs} ms per seed` : ", fast-check skipped"),
  );
  console.log(
    `ideal = seeds reaching the ideal minimum / seeds that found a failure; calls = property calls after the first failure`,
  );
  console.log("");
  console.log(header(opts.fastcheck));
  console.log("-".repeat(header(opts.fastcheck).length));

  const results = [];
  for (const ch of selected) {
    const ssRuns = seeds.map((seed) => runShrinkscope(ch, seed));
    const fcRuns = opts.fastcheck ? seeds.map((seed) => runFastCheck(ch, seed, opts.fcCapMs)) : null;
    const ssSum = summarize(ssRuns);
    const fcSum = fcRuns ? summarize(fcRuns) : null;
    console.log(row(ch.name, ssSum, fcSum));
    results.push({
      name: ch.name,
      ideal: ch.ideal,
      hypothesis: ch.hypothesis,
      shrinkscope: { summary: ssSum, runs: ssRuns },
      fastcheck: fcRuns ? { summary: fcSum, runs: fcRuns } : null,
    });
  }

  // Against both Hypothesis columns: the published reference and the installed version, live.
  const live = opts.hypothesis
    ? runHypothesis(
        results.map((r) => r.name),
        seeds.length,
      )
    : { unavailable: "skipped (--no-hypothesis)" };
  const liveName = live.unavailable ? "Hypothesis live" : `Hypothesis ${live.version}`;
  console.log("");
  console.log(
    `Shrinkscope mean shrink calls vs Hypothesis: published reference, and ${live.unavailable ? `live: n/a, ${live.unavailable}` : `${liveName} measured now over the same seeds (ideal/found in brackets)`}; max ≤ 3 × mean:`,
  );
  console.log(
    `  ${"challenge".padEnd(NAME_W)} ${"ours".padStart(7)}  ${"published".padStart(9)}  ${liveName.padStart(24)}  ${"vs best".padStart(8)}`,
  );
  let atOrBelow = 0;
  let tight = 0;
  for (const r of results) {
    const s = r.shrinkscope.summary;
    const h = live.results?.[r.name];
    const liveMean = h && h.mean !== null ? h.mean : NaN;
    r.hypothesisLive = h ?? null;
    const best = Number.isFinite(liveMean) ? Math.min(r.hypothesis, liveMean) : r.hypothesis;
    const ok = Number.isFinite(s.meanCalls) && s.meanCalls <= best;
    const spread = Number.isFinite(s.maxCalls) && s.maxCalls <= 3 * s.meanCalls;
    if (ok) atOrBelow++;
    if (spread) tight++;
    const liveCell = h ? `${fmtNum(liveMean)} (${h.ideal}/${h.found})` : "n/a";
    const ratio = Number.isFinite(s.meanCalls) ? `${(s.meanCalls / best).toFixed(2)}×` : "-";
    console.log(
      `  ${r.name.padEnd(NAME_W)} ${fmtNum(s.meanCalls).padStart(7)}  ${String(r.hypothesis).padStart(9)}  ${liveCell.padStart(24)}  ${ratio.padStart(8)} ${ok ? "at/below" : "ABOVE   "}` +
        `   max ${String(Number.isFinite(s.maxCalls) ? s.maxCalls : "-").padStart(5)} ${spread ? "≤" : ">"} 3×mean ${fmtNum(3 * s.meanCalls).padStart(7)} ${spread ? "ok" : "WIDE"}`,
    );
  }
  console.log(
    `Summary: at or below the better Hypothesis column on ${atOrBelow}/${results.length} challenges; max ≤ 3×mean on ${tight}/${results.length}.`,
  );

  // Shrinkscope seeds that did not reach the ideal (or found nothing / errored).
  const misses = [];
  for (const r of results) {
    for (const run of r.shrinkscope.runs) {
      if (run.found && run.ideal) continue;
      let what;
      if (run.found) {
        what = `${show(run.args)} (calls ${run.shrinkCalls}${run.shrinkStopped ? `; stopped early: ${run.shrinkStopped}` : ""}${run.flaky ? "; flaky" : ""})`;
      } else if (run.unsatisfiable) what = `unsatisfiable: ${run.unsatisfiable}`;
      else if (run.error) what = `error: ${run.error.split("\n")[0]}`;
      else what = `no failure found in ${MAX_EXAMPLES} examples`;
      misses.push(`  shrinkscope ${r.name} seed ${run.seed}: ${what}`);
    }
  }
  console.log("");
  if (misses.length) {
    console.log(`Shrinkscope seeds that did not reach the ideal (${misses.length}):`);
    for (const m of misses) console.log(m);
  } else console.log("Every Shrinkscope seed reached the ideal minimum.");

  const totalS = (performance.now() - tStart) / 1000;
  console.log("");
  console.log(`Total wall time: ${totalS.toFixed(1)} s`);

  if (opts.json) {
    writeFileSync(
      opts.json,
      JSON.stringify(
        {
          seeds: seeds.length,
          maxExamples: MAX_EXAMPLES,
          fcCapMs: opts.fastcheck ? opts.fcCapMs : null,
          hypothesisLive: live.version ?? live.unavailable,
          totalS,
          node: process.version,
          results,
        },
        (_k, x) => (Object.is(x, -0) ? "-0" : x),
        2,
      ),
    );
    console.log(`Raw results written to ${opts.json}`);
  }
}

main();
