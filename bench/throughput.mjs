// Throughput benchmark, plus the event tap's cost (docs/benchmarks.md, "Throughput").
//
// How it is measured:
//   - Two trivial properties: a list of integers, and a record { n: integer, s: string, bs: boolean[] }.
//     The body only touches its argument (a check that never fails) and counts its calls.
//   - Contenders, all in this one process: a bare loop that builds similar values with Math.random (the
//     practical limit), fast-check (fc.assert(fc.property(...), { numRuns, seed })), Shrinkscope
//     (check(property(...), { maxExamples, database: null, deadline: null, seed })), and Shrinkscope with an
//     event tap on (onEvent: () => {}), which builds every test-case / tree event the runner would stream.
//   - Every contender gets an untimed warm-up per property, then `reps` timed repetitions. A repetition is
//     whole runs of N examples (each run a fresh fc.assert / check call, so a fresh DataTree; seeds differ
//     between runs) repeated until at least --min-ms has passed, so that even the bare loop is timed over a
//     long enough window. Garbage is collected before each repetition. Within a repetition the contenders
//     run one after another in an order that rotates between repetitions, so that drift (GC, thermal,
//     other processes) is spread evenly.
//   - Rate = body calls / wall time of the whole run (engine setup, generation, DataTree recording
//     included). Body calls are counted rather than trusting N: Shrinkscope does not call the body for a
//     case the DataTree has already run (a duplicate), and counts only valid cases toward maxExamples.
//   - The table shows the median rate per contender and ratios against the peer measured in the same run:
//     shrinkscope / fast-check (>= 1 meets the bar), bare / shrinkscope (headroom), and the event tap's cost
//     (rate off / rate on). Machines are noisy: this prints numbers, it asserts nothing.
//
// Usage: node bench/throughput.mjs [--quick] [--reps N] [--n N] [--min-ms MS] [--only a,b] [--property list,record]
//   --quick: 2 reps of >= 100 ms (default 5 reps of >= 250 ms); --n: examples per run (default 20000).
//   --only takes contender names: bare, fast-check, shrinkscope, events (e.g. --only shrinkscope to profile:
//   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/throughput.mjs --only shrinkscope, then
//   node bench/profile-summary.mjs /tmp/prof/CPU.*.cpuprofile to map hotspots back to src/engine).
import { property, check, st } from "shrinkscope";
import fc from "fast-check";
import v8 from "node:v8";
import vm from "node:vm";

// ---------------------------------------------------------------------------------------------- options

function parseArgs(argv) {
  const opts = { reps: 5, n: 20_000, minMs: 250, only: null, properties: null, quick: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === "--quick") opts.quick = true;
    else if (a === "--reps") opts.reps = positiveInt(a, value());
    else if (a === "--n") opts.n = positiveInt(a, value());
    else if (a === "--min-ms") opts.minMs = positiveInt(a, value());
    else if (a === "--only") opts.only = value().split(",").map((s) => s.trim()).filter(Boolean);
    else if (a === "--property") opts.properties = value().split(",").map((s) => s.trim()).filter(Boolean);
    else if (a === "--help" || a === "-h") {
      console.log("node bench/throughput.mjs [--quick] [--reps N] [--n N] [--min-ms MS] [--only bare,fast-check,shrinkscope,events] [--property list,record]");
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  if (opts.quick) {
    if (!argv.includes("--reps")) opts.reps = 2;
    if (!argv.includes("--min-ms")) opts.minMs = 100;
  }
  return opts;
}

function positiveInt(name, raw) {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return n;
}

// ---------------------------------------------------------------------------------------------- bodies

let calls = 0;
const listBody = (xs) => {
  calls++;
  if (xs.length > 1e9) throw 0;
};
const recordBody = (r) => {
  calls++;
  if (r.bs.length + r.s.length > 1e9 || r.n === 0.5) throw 0;
};

// ---------------------------------------------------------------------------------------------- bare loop

const randInt = () => (Math.random() * 4294967296 - 2147483648) | 0;
const randLength = () => (Math.random() * 11) | 0; // 0..10

function bareList() {
  const len = randLength();
  const xs = new Array(len);
  for (let i = 0; i < len; i++) xs[i] = randInt();
  return xs;
}

function bareString() {
  const len = randLength();
  let s = "";
  for (let i = 0; i < len; i++) s += String.fromCharCode(32 + ((Math.random() * 95) | 0));
  return s;
}

function bareRecord() {
  const len = randLength();
  const bs = new Array(len);
  for (let i = 0; i < len; i++) bs[i] = Math.random() < 0.5;
  return { n: randInt(), s: bareString(), bs };
}

// ---------------------------------------------------------------------------------------------- contenders

const PROPERTIES = {
  list: {
    body: listBody,
    bare: bareList,
    fc: () => fc.array(fc.integer()),
    st: () => st.lists(st.integers()),
  },
  record: {
    body: recordBody,
    bare: bareRecord,
    fc: () => fc.record({ n: fc.integer(), s: fc.string(), bs: fc.array(fc.boolean()) }),
    st: () => st.records({ n: st.integers(), s: st.text(), bs: st.lists(st.booleans()) }),
  },
};

const CONTENDERS = {
  bare: (p) => (n) => {
    const make = p.bare;
    const body = p.body;
    for (let i = 0; i < n; i++) body(make());
  },
  "fast-check": (p) => {
    const arb = p.fc();
    return (n, seed) => fc.assert(fc.property(arb, p.body), { numRuns: n, seed });
  },
  shrinkscope: (p) => {
    const prop = property(p.st(), p.body);
    return (n, seed) => check(prop, { maxExamples: n, database: null, deadline: null, seed });
  },
  events: (p) => {
    const prop = property(p.st(), p.body);
    const tap = () => {};
    return (n, seed) => check(prop, { maxExamples: n, database: null, deadline: null, seed, onEvent: tap });
  },
};

// Collect garbage before each timed repetition, so that one contender's garbage is not billed to the next.
v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc");

/**
 * One timed repetition: whole runs of n examples, repeated (with successive seeds) until at least minMs has
 * passed, so that fast contenders are timed over a long enough window. Rate = body calls / wall time.
 */
function measure(run, n, seed, minMs) {
  gc();
  calls = 0;
  let runs = 0;
  const t0 = performance.now();
  let ms;
  do {
    run(n, seed + runs++);
    ms = performance.now() - t0;
  } while (ms < minMs);
  return { rate: (calls * 1000) / ms, calls, runs, ms };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// ---------------------------------------------------------------------------------------------- main

const opts = parseArgs(process.argv.slice(2));
const names = opts.only ?? Object.keys(CONTENDERS);
for (const name of names) if (!(name in CONTENDERS)) throw new Error(`unknown contender ${name} (known: ${Object.keys(CONTENDERS).join(", ")})`);
const propNames = opts.properties ?? Object.keys(PROPERTIES);
for (const name of propNames) if (!(name in PROPERTIES)) throw new Error(`unknown property ${name} (known: ${Object.keys(PROPERTIES).join(", ")})`);

console.log(
  `throughput: ${opts.reps} timed reps per contender and property, each >= ${opts.minMs} ms of runs of ${opts.n} examples (node ${process.version}; ${names.join(", ")})`,
);

const results = {};
for (const propName of propNames) {
  const p = PROPERTIES[propName];
  const runs = Object.fromEntries(names.map((name) => [name, CONTENDERS[name](p)]));
  const rates = Object.fromEntries(names.map((name) => [name, []]));
  const shortfalls = [];
  // Warm-up: every contender once, untimed (JIT, inline caches, lazy module init).
  for (const name of names) measure(runs[name], opts.n, 12345, opts.minMs / 2);
  for (let rep = 0; rep < opts.reps; rep++) {
    const seed = 1000 + rep;
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + rep) % names.length]; // rotate the order between reps
      const m = measure(runs[name], opts.n, seed * 1000, opts.minMs);
      rates[name].push(m.rate);
      if (m.calls !== opts.n * m.runs) shortfalls.push(`${name} rep ${rep}: ${m.calls} body calls in ${m.runs} runs of ${opts.n}`);
    }
  }
  results[propName] = Object.fromEntries(names.map((name) => [name, median(rates[name])]));
  if (shortfalls.length > 0) console.log(`note (${propName}): ${shortfalls.join("; ")}`);
  if (opts.reps > 1) {
    const spread = names.map((name) => `${name} ${fmtRate(Math.min(...rates[name]))}..${fmtRate(Math.max(...rates[name]))}`).join(", ");
    console.log(`spread (${propName}, min..max /s): ${spread}`);
  }
}

function fmtRate(r) {
  if (r === undefined) return "-";
  if (r >= 1e6) return `${(r / 1e6).toFixed(2)} M`;
  if (r >= 1e3) return `${(r / 1e3).toFixed(0)} k`;
  return r.toFixed(0);
}

function fmtRatio(a, b) {
  return a === undefined || b === undefined ? "-" : `${(a / b).toFixed(2)}x`;
}

const header = ["property", "bare loop/s", "fast-check/s", "shrinkscope/s", "ratio vs fast-check", "bare/shrinkscope", "with events/s", "events cost"];
const rows = propNames.map((propName) => {
  const r = results[propName];
  return [
    propName,
    fmtRate(r.bare),
    fmtRate(r["fast-check"]),
    fmtRate(r.shrinkscope),
    fmtRatio(r.shrinkscope, r["fast-check"]),
    fmtRatio(r.bare, r.shrinkscope),
    fmtRate(r.events),
    fmtRatio(r.shrinkscope, r.events),
  ];
});
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("   ");
console.log();
console.log(line(header));
for (const row of rows) console.log(line(row));
console.log();
console.log("ratio vs fast-check = shrinkscope/fast-check (the bar: >= 1.00x); bare/shrinkscope = headroom to the bare loop;");
console.log("events cost = shrinkscope rate without / with an onEvent tap (1.00x = free).");
