// Throughput benchmark, plus the event tap's cost (docs/benchmarks.md, "Throughput").
//
// How it is measured:
//   - Seven properties users write: a list of integers; a record { n: integer, s: string, bs: boolean[] }; a
//     nested record { id: integer, name: string, items: { sku: string, qty: integer in 0..100 }[] }; and
//     (fromRegex) an e-mail-like address of the regular expression EMAIL below — st.fromRegex(EMAIL, { fullMatch:
//     true }) against fc.stringMatching of the same expression anchored; a Date (st.dates() against
//     fc.date({ noInvalidDate: true })), a bigint (st.bigints() against fc.bigInt()) and a Map from strings to
//     integers (st.maps against fc.map). The body only touches its argument (a check that never fails) and counts
//     its calls.
//   - Contenders: a bare loop that builds similar values with Math.random (the practical limit), fast-check
//     (fc.assert(fc.property(...), { numRuns, seed })), Shrinkscope (check(property(...), { maxExamples,
//     database: null, deadline: null, seed })), Shrinkscope with the editor's tap (src/runner/tap.ts, loaded as
//     inside the user's test runner: it batches, sheds and writes the events the panel gets to a file), and
//     Shrinkscope with an empty onEvent (every test case projected into an event, the public tap).
//   - Each measurement is a fresh process running one contender on one property, so that no library shares a
//     JIT with another: cold = one run of 10,000 examples right after the process starts (what a suite of many
//     small properties pays; module loading not counted), warm = the best of 3 runs of 100,000 examples after a
//     100,000-example warm-up. Each is repeated in --procs fresh processes (default 5 cold, 3 warm), the
//     contenders' processes interleaved, and the median kept.
//   - Rate = body calls / wall time of the run (engine setup, generation and DataTree recording included). Body
//     calls are counted rather than trusting N: Shrinkscope does not call the body for a case the DataTree
//     has already run (a duplicate).
//   - The table shows each contender's median rate, Shrinkscope / fast-check (the bar: ≥ 1.5 on list and record,
//     ≥ 1.0 on nested, cold and warm; none on fromRegex; ≥ 1.0 on date, bigint and map), the bare loop / Shrinkscope (headroom), and each tap's cost (rate without /
//     with; the bar, for the editor's tap that feeds the panel: ≤ 1.15). Machines are noisy: this prints
//     numbers, it asserts nothing.
//
// Usage: node bench/throughput.mjs [--quick] [--procs N] [--property list,record,nested,fromRegex,date,bigint,map] [--mode cold,warm]
//   --quick: 3 processes per cold and 1 per warm measurement.
// A/B: node bench/throughput.mjs --against <git ref> [--cpu] [--procs N] [--property …] [--mode …]
//   the engine of the working tree against the engine at <ref>, both bundled the same way into a temporary
//   folder, their processes interleaved; prints each one's median rate and the median (and range) of the ratio
//   of the runs paired in each round — what to read on a noisy machine, where single rates move ±30%. --cpu: rates
//   per second of the child's CPU time instead of wall time (steadier while something else runs on the machine).
//   Profile one contender: node --cpu-prof --cpu-prof-dir=/tmp/prof bench/throughput.mjs --child shrinkscope list warm,
//   then node bench/profile-summary.mjs /tmp/prof/CPU.*.cpuprofile to map hotspots back to src/engine.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const COLD_N = 10_000;
const WARM_N = 100_000;
const WARM_RUNS = 3;

// ---------------------------------------------------------------------------------------------- child

/** fromRegex's addresses: a local part, a host, one or two domain labels. */
const EMAIL_SOURCE = "[a-z0-9._%+-]{1,20}@[a-z0-9-]{1,12}(?:\\.[a-z]{2,6}){1,2}";
const EMAIL = new RegExp(EMAIL_SOURCE);
const EMAIL_ANCHORED = new RegExp(`^(?:${EMAIL_SOURCE})$`);

let calls = 0;
const BODIES = {
  list: (xs) => {
    calls++;
    if (xs.length > 1e9) throw 0;
  },
  record: (r) => {
    calls++;
    if (r.bs.length + r.s.length > 1e9 || r.n === 0.5) throw 0;
  },
  nested: (o) => {
    calls++;
    if (o.items.length + o.name.length > 1e9 || o.id === 0.5) throw 0;
  },
  fromRegex: (s) => {
    calls++;
    if (s.length > 1e9) throw 0;
  },
  date: (d) => {
    calls++;
    if (d.getTime() === 0.5) throw 0;
  },
  bigint: (x) => {
    calls++;
    if (x === 0.5) throw 0;
  },
  map: (m) => {
    calls++;
    if (m.size > 1e9) throw 0;
  },
};

const randInt = () => (Math.random() * 4294967296 - 2147483648) | 0;
const randLength = () => (Math.random() * 11) | 0; // 0..10
function bareString() {
  const len = randLength();
  let s = "";
  for (let i = 0; i < len; i++) s += String.fromCharCode(32 + ((Math.random() * 95) | 0));
  return s;
}
function bareArray(make) {
  const len = randLength();
  const xs = new Array(len);
  for (let i = 0; i < len; i++) xs[i] = make();
  return xs;
}
/** A string of `min`..`max` characters of `chars`. */
function bareFrom(chars, min, max) {
  const len = min + ((Math.random() * (max - min + 1)) | 0);
  let s = "";
  for (let i = 0; i < len; i++) s += chars[(Math.random() * chars.length) | 0];
  return s;
}
const LOWER = "abcdefghijklmnopqrstuvwxyz";
/** An address EMAIL matches: local part, "@", host, then one or two domain labels. */
function bareEmail() {
  let s = `${bareFrom(`${LOWER}${DIGITS}._%+-`, 1, 20)}@${bareFrom(`${LOWER}${DIGITS}-`, 1, 12)}`;
  for (let labels = Math.random() < 0.5 ? 1 : 2; labels > 0; labels--) s += `.${bareFrom(LOWER, 2, 6)}`;
  return s;
}
const DIGITS = "0123456789";

const BARE = {
  list: () => bareArray(randInt),
  record: () => ({ n: randInt(), s: bareString(), bs: bareArray(() => Math.random() < 0.5) }),
  nested: () => ({
    id: randInt(),
    name: bareString(),
    items: bareArray(() => ({ sku: bareString(), qty: (Math.random() * 101) | 0 })),
  }),
  fromRegex: () => bareEmail(),
  date: () => new Date(Math.floor((Math.random() * 2 - 1) * 8.64e15)),
  bigint: () => BigInt(randInt()) * BigInt(randInt()),
  map: () => new Map(bareArray(() => [bareString(), randInt()])),
};

async function contender(lib, shape) {
  const body = BODIES[shape];
  if (lib === "bare") {
    const make = BARE[shape];
    return (n) => {
      for (let i = 0; i < n; i++) body(make());
    };
  }
  if (lib === "fast-check") {
    const { default: fc } = await import("fast-check");
    const arb = {
      list: () => fc.array(fc.integer()),
      record: () => fc.record({ n: fc.integer(), s: fc.string(), bs: fc.array(fc.boolean()) }),
      nested: () =>
        fc.record({
          id: fc.integer(),
          name: fc.string(),
          items: fc.array(fc.record({ sku: fc.string(), qty: fc.integer({ min: 0, max: 100 }) })),
        }),
      fromRegex: () => fc.stringMatching(EMAIL_ANCHORED),
      date: () => fc.date({ noInvalidDate: true }),
      bigint: () => fc.bigInt(),
      map: () => fc.map(fc.string(), fc.integer()),
    }[shape]();
    return (n, seed) => fc.assert(fc.property(arb, body), { numRuns: n, seed });
  }
  if (lib === "shrinkscope-runner-tap") {
    // The extension's own tap, as it runs inside the user's test runner (src/runner/tap.ts, built to dist/tap.cjs):
    // the engine loads it from SHRINKSCOPE_TAP_MODULE, and it batches, sheds and writes the events to a file in
    // SHRINKSCOPE_TAP for the editor to read.
    const { mkdtempSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const path = await import("node:path");
    process.env.SHRINKSCOPE_TAP_MODULE = fileURLToPath(new URL("../dist/tap.cjs", import.meta.url));
    process.env.SHRINKSCOPE_TAP = mkdtempSync(path.join(tmpdir(), "shrinkscope-bench-tap-"));
  }
  // ("engine=<file>": an engine bundle of the --against comparison.)
  const { property, check, st } = await import(
    lib.startsWith("engine=") ? pathToFileURL(lib.slice("engine=".length)).href : "shrinkscope"
  );
  const strategy = {
    list: () => st.lists(st.integers()),
    record: () => st.records({ n: st.integers(), s: st.text(), bs: st.lists(st.booleans()) }),
    nested: () =>
      st.records({
        id: st.integers(),
        name: st.text(),
        items: st.lists(st.records({ sku: st.text(), qty: st.integers({ min: 0, max: 100 }) })),
      }),
    fromRegex: () => st.fromRegex(EMAIL, { fullMatch: true }),
    date: () => st.dates(),
    bigint: () => st.bigints(),
    map: () => st.maps(st.text(), st.integers()),
  }[shape]();
  const prop = property(strategy, body);
  const tap = lib === "shrinkscope-tap" ? () => {} : undefined;
  return (n, seed) =>
    check(prop, { maxExamples: n, database: null, deadline: null, seed, ...(tap ? { onEvent: tap } : {}) });
}

/**
 * One timed run: body calls per second — of wall time, or with `cpu` of the process's CPU time (user and system),
 * which another process on the machine disturbs less.
 */
function timed(run, n, seed, cpu) {
  calls = 0;
  const t0 = performance.now();
  const c0 = cpu ? process.cpuUsage() : undefined;
  run(n, seed);
  if (c0 !== undefined) {
    const used = process.cpuUsage(c0);
    return (calls * 1e6) / (used.user + used.system);
  }
  return (calls * 1000) / (performance.now() - t0);
}

async function child(lib, shape, mode, clock) {
  const cpu = clock === "cpu";
  const run = await contender(lib, shape);
  let rate;
  if (mode === "cold") rate = timed(run, COLD_N, 1, cpu);
  else {
    timed(run, WARM_N, 2, cpu);
    rate = 0;
    for (let k = 0; k < WARM_RUNS; k++) rate = Math.max(rate, timed(run, WARM_N, 3 + k, cpu));
  }
  process.stdout.write(`${JSON.stringify({ rate, tapDir: process.env.SHRINKSCOPE_TAP })}\n`);
}

// ---------------------------------------------------------------------------------------------- parent

const LIBS = ["bare", "fast-check", "shrinkscope", "shrinkscope-runner-tap", "shrinkscope-tap"];
const SHAPES = ["list", "record", "nested", "fromRegex", "date", "bigint", "map"];
const MODES = ["cold", "warm"];
const BARS = { list: 1.5, record: 1.5, nested: 1.0, date: 1.0, bigint: 1.0, map: 1.0 };
const TAP_BAR = 1.15;

function option(argv, name) {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

function listOption(argv, name, known) {
  const v = option(argv, name);
  if (v === undefined) return known;
  const picked = v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const p of picked) if (!known.includes(p)) throw new Error(`${name}: unknown ${p} (known: ${known.join(", ")})`);
  return picked;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

function fmtRate(r) {
  if (r === undefined) return "-";
  if (r >= 1e6) return `${(r / 1e6).toFixed(2)} M`;
  if (r >= 1e3) return `${(r / 1e3).toFixed(0)} k`;
  return r.toFixed(0);
}

function measureInChild(lib, shape, mode, clock = "wall") {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", lib, shape, mode, clock], {
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`${lib} ${shape} ${mode} failed (exit ${r.status}):\n${r.stderr}`);
  const { rate, tapDir } = JSON.parse(r.stdout.trim().split("\n").at(-1));
  if (tapDir !== undefined) rmSync(tapDir, { recursive: true, force: true });
  return rate;
}

function parent(argv) {
  const quick = argv.includes("--quick");
  const procsArg = option(argv, "--procs");
  const shapes = listOption(argv, "--property", SHAPES);
  const modes = listOption(argv, "--mode", MODES);
  const procs = (mode) =>
    procsArg !== undefined ? Number(procsArg) : quick ? (mode === "cold" ? 3 : 1) : mode === "cold" ? 5 : 3;
  console.log(
    `throughput (node ${process.version}): each contender in fresh processes; cold = one run of ${COLD_N} examples after start, warm = best of ${WARM_RUNS} runs of ${WARM_N} after a ${WARM_N}-example warm-up; median over ${modes.map((m) => `${procs(m)} processes ${m}`).join(", ")}`,
  );
  const rows = [];
  for (const shape of shapes) {
    for (const mode of modes) {
      const rates = Object.fromEntries(LIBS.map((l) => [l, []]));
      for (let p = 0; p < procs(mode); p++) {
        // Interleaved, the order rotating, so that drift on a shared machine is spread over the contenders.
        for (let k = 0; k < LIBS.length; k++) {
          const lib = LIBS[(k + p) % LIBS.length];
          rates[lib].push(measureInChild(lib, shape, mode));
        }
      }
      const m = Object.fromEntries(LIBS.map((l) => [l, median(rates[l])]));
      const ratio = m.shrinkscope / m["fast-check"];
      const tap = m.shrinkscope / m["shrinkscope-runner-tap"];
      const onEvent = m.shrinkscope / m["shrinkscope-tap"];
      rows.push([
        shape,
        mode,
        fmtRate(m.bare),
        fmtRate(m["fast-check"]),
        fmtRate(m.shrinkscope),
        `${ratio.toFixed(2)}x${BARS[shape] === undefined || ratio >= BARS[shape] ? "" : ` (bar ${BARS[shape]})`}`,
        `${(m.bare / m.shrinkscope).toFixed(1)}x`,
        fmtRate(m["shrinkscope-runner-tap"]),
        `${tap.toFixed(2)}x${tap <= TAP_BAR ? "" : ` (bar ${TAP_BAR})`}`,
        fmtRate(m["shrinkscope-tap"]),
        `${onEvent.toFixed(2)}x`,
      ]);
      const spread = LIBS.map((l) => `${l} ${fmtRate(Math.min(...rates[l]))}..${fmtRate(Math.max(...rates[l]))}`).join(
        ", ",
      );
      console.log(`  ${shape} ${mode}: ${spread}`);
    }
  }
  const header = [
    "property",
    "mode",
    "bare loop/s",
    "fast-check/s",
    "shrinkscope/s",
    "vs fast-check",
    "bare/shrinkscope",
    "editor's tap/s",
    "tap cost",
    "onEvent/s",
    "onEvent cost",
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("   ");
  console.log();
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  console.log();
  console.log(
    `vs fast-check = Shrinkscope / fast-check (bars: list and record >= 1.5x, nested >= 1.0x, none on fromRegex, date, bigint and map >= 1.0x); tap cost = Shrinkscope without / with the editor's tap (bar <= ${TAP_BAR}x); onEvent cost = without / with an empty onEvent, which gets every test case as an event.`,
  );
}

/** How an engine is bundled for a comparison: whole, its PRNG inside, resolved from this checkout's packages. */
function bundleOptions(root) {
  return {
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "warning",
    nodePaths: [path.join(root, "node_modules")],
  };
}

/** The engine at `ref` and the working tree's, each bundled whole (its PRNG inside) into `dir`. */
async function bundleEngines(ref, dir) {
  const { build } = await import("esbuild");
  const root = fileURLToPath(new URL("..", import.meta.url));
  try {
    execFileSync("git", ["-C", root, "rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { stdio: "ignore" });
  } catch {
    throw new Error(`--against: ${ref} is not a commit of this repository`);
  }
  const at = path.join(dir, "ref");
  mkdirSync(at);
  execFileSync("sh", ["-c", `git -C "$0" archive --format=tar "$1" src | tar -x -C "$2"`, root, ref, at]);
  const options = bundleOptions(root);
  const files = { ours: path.join(dir, "ours.mjs"), ref: path.join(dir, "ref.mjs") };
  await build({ ...options, entryPoints: [path.join(root, "src/engine/index.ts")], outfile: files.ours });
  await build({ ...options, entryPoints: [path.join(at, "src/engine/index.ts")], outfile: files.ref });
  return files;
}

async function against(argv, ref) {
  const dir = mkdtempSync(path.join(tmpdir(), "shrinkscope-bench-ab-"));
  try {
    const files = await bundleEngines(ref, dir);
    const procs = Number(option(argv, "--procs") ?? 8);
    const shapes = listOption(argv, "--property", SHAPES);
    const modes = listOption(argv, "--mode", MODES);
    const clock = argv.includes("--cpu") ? "cpu" : "wall";
    console.log(
      `throughput A/B (node ${process.version}): the working tree's engine against ${ref}'s, ${procs} rounds of one fresh process each, the order alternating; rates per second of ${clock === "cpu" ? "CPU time" : "wall time"}`,
    );
    for (const shape of shapes) {
      for (const mode of modes) {
        const ours = [];
        const theirs = [];
        const ratios = [];
        for (let p = 0; p < procs; p++) {
          const pair = p % 2 === 0 ? ["ours", "ref"] : ["ref", "ours"];
          const r = Object.fromEntries(pair.map((k) => [k, measureInChild(`engine=${files[k]}`, shape, mode, clock)]));
          ours.push(r.ours);
          theirs.push(r.ref);
          ratios.push(r.ours / r.ref);
        }
        const range = `${Math.min(...ratios).toFixed(2)}..${Math.max(...ratios).toFixed(2)}`;
        console.log(
          `  ${shape} ${mode}: working tree ${fmtRate(median(ours))}/s, ${ref} ${fmtRate(median(theirs))}/s, ratio ${median(ratios).toFixed(2)}x (rounds ${range})`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const argv = process.argv.slice(2);
if (argv[0] === "--child") await child(argv[1], argv[2], argv[3], argv[4]);
else if (option(argv, "--against") !== undefined) {
  await against(argv, option(argv, "--against")).catch((e) => {
    console.error(e.message);
    process.exit(2);
  });
} else parent(argv);
