// A CI-shaped suite (docs/benchmarks.md, "A suite in CI"): what a team's CI feels, Shrinkscope against fast-check.
//
// What is measured: one fresh `node` process that imports the library and runs N passing properties × 100
// examples, cycling through eight shapes with small real bodies — integers (addition commutes), lists (sorting is
// idempotent), strings (reversing twice), records (a JSON round trip), pairs (a label starts with its number),
// booleans (De Morgan), unions (a value keeps its type through a switch), nested lists (flattening keeps the
// count). Shrinkscope runs each as `check(property(...))` with what CI gets without asking (CI=true: the `ci`
// profile, derandomised, no local database; 100 examples), fast-check as `fc.assert(fc.property(...),
// { numRuns: 100 })`. The wall time of the whole process is timed from outside, so the import, the setup of
// each property and every case count; the child also reports the time its properties took after the import.
//
// Each library runs in its own processes, alternating, `--rounds` times per N (default 5); the figure is the
// median. The ratio is fast-check's time over Shrinkscope's: above 1.0, Shrinkscope is the faster.
//
// With --empty-bodies every body does nothing (and holds): what is left is each library's own cost — setup,
// generation, the loop — without the bodies, whose cost grows with the size of what each library generates.
//
// With --warm the child runs the suite WARM_ROUNDS times over and reports the time of the last round's properties:
// each library once the JIT has compiled its code. The process figure still includes every round; read the
// "properties only" column. Against the plain run, it says how much of the gap is the cold start.
//
// With --shapes (e.g. --shapes lists,unions) the suite cycles through those shapes only: one shape's cost alone.
//
// With --curve the children also time each property, and a second table shows the time per property by how many
// the process had run before it (properties 1–8, 9–16, … doubling): how long each library's code takes to warm up,
// which is what a process of a few hundred properties spends most of its time on.
//
// Usage: node bench/suite.mjs [--n 200,2000] [--rounds 5] [--empty-bodies] [--warm] [--shapes lists,unions] [--curve] [--json out.json]
// (internal: --child shrinkscope|fast-check --n N [--empty-bodies] [--warm] [--shapes …] [--curve]: runs the suite, prints
// {"propertiesMs": …, "curve": [ms of each property of the first round, with --curve]})
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { eachFlag, positiveInt } from "./lib/args.mjs";
import { median } from "./lib/fresh-processes.mjs";
import { commandLine, num, table } from "./lib/markdown.mjs";

const SCRIPT = fileURLToPath(import.meta.url);
const LIBRARIES = ["shrinkscope", "fast-check"];
const EXAMPLES = 100;
/** Rounds of the suite a --warm child runs; the last one is reported. */
const WARM_ROUNDS = 4;
const SHAPES = ["integers", "lists", "strings", "records", "pairs", "booleans", "unions", "nested"];

// ---------------------------------------------------------------------------------------------- the suite

/** The eight shapes: each a body (true when it holds) and each library's strategies for its arguments. */
function shapes(st, fc) {
  const ascending = (xs) => [...xs].sort((a, b) => a - b);
  return [
    {
      name: "integers",
      holds: (a, b) => a + b === b + a,
      shrinkscope: () => [st.integers(), st.integers()],
      fastcheck: () => [fc.integer(), fc.integer()],
    },
    {
      name: "lists",
      holds: (xs) => JSON.stringify(ascending(ascending(xs))) === JSON.stringify(ascending(xs)),
      shrinkscope: () => [st.lists(st.integers())],
      fastcheck: () => [fc.array(fc.integer())],
    },
    {
      name: "strings",
      holds: (s) => [...[...s].reverse()].reverse().join("") === s,
      shrinkscope: () => [st.text()],
      fastcheck: () => [fc.string()],
    },
    {
      name: "records",
      holds: (r) => {
        const back = JSON.parse(JSON.stringify(r));
        return back.id === r.id && back.name === r.name && back.active === r.active;
      },
      shrinkscope: () => [st.records({ id: st.integers(), name: st.text(), active: st.booleans() })],
      fastcheck: () => [fc.record({ id: fc.integer(), name: fc.string(), active: fc.boolean() })],
    },
    {
      name: "pairs",
      holds: ([n, s]) => `${n}:${s}`.startsWith(String(n)),
      shrinkscope: () => [st.tuples(st.integers(), st.text())],
      fastcheck: () => [fc.tuple(fc.integer(), fc.string())],
    },
    {
      name: "booleans",
      holds: (a, b) => (a && b) === !(!a || !b),
      shrinkscope: () => [st.booleans(), st.booleans()],
      fastcheck: () => [fc.boolean(), fc.boolean()],
    },
    {
      name: "unions",
      holds: (v) => {
        switch (typeof v) {
          case "number":
            return Number.isInteger(v);
          case "string":
            return v.length >= 0;
          default:
            return v === true || v === false;
        }
      },
      shrinkscope: () => [st.oneOf(st.integers(), st.text(), st.booleans())],
      fastcheck: () => [fc.oneof(fc.integer(), fc.string(), fc.boolean())],
    },
    {
      name: "nested",
      holds: (xss) => xss.flat().length === xss.reduce((n, xs) => n + xs.length, 0),
      shrinkscope: () => [st.lists(st.lists(st.integers()))],
      fastcheck: () => [fc.array(fc.array(fc.integer()))],
    },
  ];
}

async function child(library, n, emptyBodies, warm, only, curve) {
  let run;
  if (library === "shrinkscope") {
    const { check, property, st } = await import("shrinkscope");
    const all = shapes(st, null).filter((s) => only === null || only.includes(s.name));
    run = (i) => {
      const shape = all[i % all.length];
      check(
        property(
          ...shape.shrinkscope(),
          emptyBodies
            ? () => {}
            : (...args) => {
                if (!shape.holds(...args)) throw new Error("does not hold");
              },
        ),
        { maxExamples: EXAMPLES },
      );
    };
  } else {
    const { default: fc } = await import("fast-check");
    const all = shapes(null, fc).filter((s) => only === null || only.includes(s.name));
    run = (i) => {
      const shape = all[i % all.length];
      fc.assert(fc.property(...shape.fastcheck(), emptyBodies ? () => true : (...args) => shape.holds(...args)), {
        numRuns: EXAMPLES,
      });
    };
  }
  let propertiesMs = 0;
  // Each property of the first round timed on its own (with --curve): the process's warm-up, property by property.
  const times = curve ? [] : undefined;
  for (let round = 0; round < (warm ? WARM_ROUNDS : 1); round++) {
    const t0 = performance.now();
    if (times !== undefined && round === 0)
      for (let i = 0; i < n; i++) {
        const t = performance.now();
        run(i);
        times.push(performance.now() - t);
      }
    else for (let i = 0; i < n; i++) run(i);
    propertiesMs = performance.now() - t0;
  }
  console.log(JSON.stringify({ propertiesMs, ...(times !== undefined ? { curve: times } : {}) }));
}

/**
 * The --curve table: ms per property over the properties 1–8, 9–16, 17–32, … of a process (doubling, up to the
 * largest N), each library's median over its processes, and fast-check's time over Shrinkscope's.
 */
function printCurve(ns, results, fcVersion) {
  const n = Math.max(...ns);
  const buckets = [];
  for (let from = 0, to = 8; from < n; from = to, to *= 2) buckets.push([from, Math.min(to, n)]);
  const perProperty = (lib, [from, to]) =>
    median(results[n][lib].map((r) => r.curve.slice(from, to).reduce((a, b) => a + b, 0) / (to - from)));
  const rows = buckets.map((b) => {
    const s = perProperty("shrinkscope", b);
    const f = perProperty("fast-check", b);
    return [`${b[0] + 1}–${b[1]}`, `${s.toFixed(2)} ms`, `${f.toFixed(2)} ms`, `${(f / s).toFixed(2)}×`];
  });
  console.log(`\nTime per property by its place in the process (N = ${n}; medians over the processes):\n`);
  console.log(table(["properties", "Shrinkscope", `fast-check ${fcVersion}`, "speed against fast-check"], rows));
}

// ---------------------------------------------------------------------------------------------- main

function parseArgs(argv) {
  const opts = {
    n: [200, 2000],
    rounds: 5,
    json: null,
    child: null,
    emptyBodies: false,
    warm: false,
    shapes: null,
    curve: false,
  };
  eachFlag(argv, (a, value) => {
    if (a === "--n")
      opts.n = value()
        .split(",")
        .map((s) => positiveInt(a, s.trim()));
    else if (a === "--rounds") opts.rounds = positiveInt(a, value());
    else if (a === "--json") opts.json = value();
    else if (a === "--child") opts.child = value();
    else if (a === "--empty-bodies") opts.emptyBodies = true;
    else if (a === "--warm") opts.warm = true;
    else if (a === "--curve") opts.curve = true;
    else if (a === "--shapes") {
      opts.shapes = value()
        .split(",")
        .map((x) => x.trim());
      const unknown = opts.shapes.filter((x) => !SHAPES.includes(x));
      if (unknown.length > 0) throw new Error(`--shapes: unknown ${unknown.join(", ")} (shapes: ${SHAPES.join(", ")})`);
    } else if (a === "--help" || a === "-h") {
      console.log(
        "node bench/suite.mjs [--n 200,2000] [--rounds 5] [--empty-bodies] [--warm] [--shapes lists,unions] [--curve] [--json out.json]",
      );
      process.exit(0);
    } else throw new Error(`unknown argument ${a} (try --help)`);
  });
  if (opts.child !== null && !LIBRARIES.includes(opts.child))
    throw new Error(`--child must be one of ${LIBRARIES.join(", ")}`);
  return opts;
}

/** One fresh process of `library` running the suite of `n`: its wall time and the time its properties took. */
function measure(library, n, emptyBodies, warm, only, curve) {
  // What CI gets: the ci profile (derandomised, no local database folder) for Shrinkscope.
  const env = { ...process.env, CI: "true" };
  for (const name of Object.keys(env)) if (name.startsWith("SHRINKSCOPE_")) delete env[name];
  const t0 = performance.now();
  const args = [
    SCRIPT,
    "--child",
    library,
    "--n",
    String(n),
    ...(emptyBodies ? ["--empty-bodies"] : []),
    ...(warm ? ["--warm"] : []),
    ...(only !== null ? ["--shapes", only.join(",")] : []),
    ...(curve ? ["--curve"] : []),
  ];
  const r = spawnSync(process.execPath, args, { encoding: "utf8", env });
  const wallMs = performance.now() - t0;
  if (r.status !== 0) throw new Error(`child ${library} (n = ${n}) failed: ${r.stderr || r.error}`);
  return { wallMs, ...JSON.parse(r.stdout.trim().split("\n").pop()) };
}

const opts = parseArgs(process.argv.slice(2));
if (opts.child !== null) {
  await child(opts.child, opts.n[0], opts.emptyBodies, opts.warm, opts.shapes, opts.curve);
} else {
  const results = {};
  for (const n of opts.n) {
    results[n] = Object.fromEntries(LIBRARIES.map((lib) => [lib, []]));
    for (let round = 0; round < opts.rounds; round++) {
      // Alternate which library goes first, so drift on the machine falls on both.
      const order = round % 2 === 0 ? LIBRARIES : [...LIBRARIES].reverse();
      for (const lib of order)
        results[n][lib].push(measure(lib, n, opts.emptyBodies, opts.warm, opts.shapes, opts.curve));
    }
  }
  const fcVersion = (await import("fast-check/package.json", { with: { type: "json" } })).default.version;
  console.log(
    `a CI-shaped suite: N passing properties × ${EXAMPLES} examples over ${opts.shapes === null ? "eight shapes" : `only ${opts.shapes.join(", ")}`}${opts.emptyBodies ? ", every body empty" : ""}${opts.warm ? `, run ${WARM_ROUNDS} times in each process (properties only: the last round)` : ""}, one fresh process each, import included; median of ${opts.rounds} (node ${process.version})`,
  );
  console.log(`command: ${commandLine("bench:suite", "bench/suite.mjs")}\n`);
  const rows = opts.n.map((n) => {
    const wall = (lib) => median(results[n][lib].map((r) => r.wallMs));
    const props = (lib) => median(results[n][lib].map((r) => r.propertiesMs));
    return [
      String(n),
      `${num(wall("shrinkscope"))} ms (${num(props("shrinkscope"))})`,
      `${num(wall("fast-check"))} ms (${num(props("fast-check"))})`,
      `**${(wall("fast-check") / wall("shrinkscope")).toFixed(2)}×**`,
      `${(props("fast-check") / props("shrinkscope")).toFixed(2)}×`,
    ];
  });
  console.log(
    table(
      [
        "N",
        "Shrinkscope: process (properties)",
        `fast-check ${fcVersion}: process (properties)`,
        "speed against fast-check, process",
        "properties only",
      ],
      rows,
    ),
  );
  if (opts.curve) printCurve(opts.n, results, fcVersion);
  if (opts.json) writeFileSync(opts.json, JSON.stringify({ rounds: opts.rounds, results }, null, 2));
}
