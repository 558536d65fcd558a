// fast-check suites brought over by changing their import: each suite runs under the real vitest (or jest, for a
// jest suite) twice, once as written on fast-check and once with `from "fast-check"` switched to
// `from "shrinkscope/fc"`, on the same seeds.
//
// The suites:
// - bench/migration/seeded-bugs/, this repository's own: properties written as a fast-check user writes them, on
//   helpers with the kinds of bugs application code has, so that every property fails on both libraries and the
//   counterexamples can be compared;
// - public projects' property files (the SUITES list: repository, commit, which files). They are not part of this
//   repository: check each out at its commit and install its dependencies, then point the bench at it with
//   `--suite NAME=DIR` (or put it at tmp/suites/NAME). A suite without a checkout is listed as not run.
//
// A suite runs under this repository's vitest (or jest), whose test environments (happy-dom) are this repository's
// devDependencies; everything else a suite imports resolves from its checkout.
//
// The switch is made where the import resolves (a resolver in the generated vitest config, jest's
// moduleNameMapper), so the files run
// exactly as their authors wrote them: `fast-check` is this repository's fast-check for the first run and
// shrinkscope/fc for the second. Each run's seed is set by a setup file of the harness
// (`fc.configureGlobal({ seed })`, over the suite's own settings).
//
// What is measured, per test and per seed:
// - whether its fc.assert calls executed: the test passed, or failed with a property's report (not with a missing
//   function or a type error the adapter caused);
// - whether both libraries agree: a test that passes on fast-check on every seed passes here on every seed, and one
//   that fails on fast-check fails here on each of those seeds (a bug found on more seeds is counted apart);
// - for a failure on both, the size of the counterexample: fast-check's `Counterexample: …` against the engine's
//   "Minimal failing arguments". Both are JavaScript expressions; each is evaluated and printed again by one
//   printer (fast-check's stringify), so the sizes compare values, not the two reports' spacing or quoting. A
//   counterexample that does not evaluate (a command list) is compared as printed, without whitespace, comments
//   (fast-check's command lists end with a `/*replayPath=…*/` one) or brackets (its argument tuple holds the
//   commands without brackets of their own; the engine prints the list in brackets).
//
// Usage: node bench/migration.mjs [--seeds 3] [--suite NAME=DIR ...] [--only NAME,...] [--json out.json]
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vm from "node:vm";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { eachFlag, positiveInt } from "./lib/args.mjs";
import { commandLine, table } from "./lib/markdown.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const LIBRARIES = ["fast-check", "shrinkscope"];
const TIMEOUT_MS = 120_000;
const FAST_CHECK = fileURLToPath(import.meta.resolve("fast-check"));

/**
 * The suites. `dir` is where a suite of this repository lives; the others name a public repository, the commit
 * measured with its licence, and the folder inside it (`root`) that vitest runs in. `include`, `setupFiles` and the
 * targets of `aliases` are relative to that folder; `jestGlobals` runs a jest suite's `@jest/globals` imports on
 * vitest's; `jest` runs the suite under jest instead, with the project's transform; `bugs` names the tests that fail
 * only here on a real bug, each checked by hand.
 */
const SUITES = [
  { name: "seeded-bugs", dir: path.join(ROOT, "bench", "migration", "seeded-bugs"), include: ["*.spec.ts"] },
  {
    name: "fast-check-examples",
    repository: "dubzzz/fast-check",
    commit: "f4b2f3a2f90a0fb08ccfa07b46bb7f1a5a35caec",
    license: "MIT",
    root: "examples",
    include: ["**/*.spec.?(c|m)[jt]s?(x)"],
    setupFiles: ["vitest.setup.ts"],
    jsx: true,
  },
  {
    name: "pure-rand",
    repository: "dubzzz/pure-rand",
    commit: "be10b22b05c22242eb077388b0eb97882e9bbf87",
    license: "MIT",
    include: ["src/**/*.spec.ts"],
    setupFiles: ["vitest.setup.ts"],
  },
  {
    name: "immutable-js",
    repository: "immutable-js/immutable-js",
    commit: "712177a9ebcd21524095f699c521b86619786226",
    license: "MIT",
    include: ["__tests__/{Conversion,Equality,hash,join,KeyedSeq,List,Map,minmax,Range,slice,splice,Stack,zip}.ts"],
    aliases: { immutable: "dist/immutable.es.js" },
    jestGlobals: true,
    bugs: {
      "Conversion toJS isomorphic value":
        "immutable 5.1.9 loses a `__proto__` key: `fromJS(JSON.parse('{\"__proto__\":null}')).toJS()` is an object " +
        "with no keys and a null prototype. fast-check finds it too, after about 19,000 runs (seed 1); the test runs 30.",
    },
  },
  {
    name: "fp-ts-std",
    repository: "samhh/fp-ts-std",
    commit: "6d767932923e18a8d95035cf2f7383517fd689d4",
    license: "MIT",
    // The test files that import fast-check.
    include: [
      "test/{Alternative,Array,Bifunctor,Date,Debug,Either,Enum,Function,IO,Isomorphism,JSON,Lazy,Monoid,Newtype," +
        "NonEmptyString,Number,Option,Random,ReaderEither,ReaderIO,ReaderTask,ReaderTaskEither,ReadonlyArray," +
        "ReadonlyRecord,Record,String,Task,Tuple,URL,URLPath,URLSearchParams}.test.ts",
    ],
    jest: { transform: { "\\.ts$": ["@swc/jest"] } },
    bugs: {
      "Date getTime wraps prototype method":
        "the property `unMilliseconds(getTime(d)) === d.getTime()` is false for an Invalid Date (NaN !== NaN), which " +
        "`fc.date()` draws by default: fast-check 4.11 in 0.08% of dates (about 8% of 100-case runs), Shrinkscope in " +
        "6%, so it fails every run.",
    },
  },
];

function parseArgs(argv) {
  const opts = { seeds: 3, json: null, dirs: new Map(), only: null };
  eachFlag(argv, (flag, value) => {
    if (flag === "--seeds") opts.seeds = positiveInt(flag, value());
    else if (flag === "--json") opts.json = value();
    else if (flag === "--suite") {
      const v = value();
      const at = v.indexOf("=");
      const name = v.slice(0, at);
      if (at < 1 || !SUITES.some((s) => s.name === name))
        throw new Error(`--suite takes NAME=DIR, NAME one of ${SUITES.map((s) => s.name).join(", ")}; got ${v}`);
      opts.dirs.set(name, path.resolve(v.slice(at + 1)));
    } else if (flag === "--only") {
      opts.only = value().split(",");
      const unknown = opts.only.filter((n) => !SUITES.some((s) => s.name === n));
      if (unknown.length > 0) throw new Error(`--only: no suite named ${unknown.join(", ")}`);
    } else throw new Error(`unknown flag ${flag} (known: --seeds N, --suite NAME=DIR, --only NAMES, --json FILE)`);
  });
  return opts;
}

/** The folder vitest runs the suite in, or undefined when there is no checkout of it. */
function suiteDir(suite, opts) {
  if (suite.dir !== undefined) return suite.dir;
  const checkout = opts.dirs.get(suite.name) ?? path.join(ROOT, "tmp", "suites", suite.name);
  const dir = path.join(checkout, suite.root ?? "");
  return fs.existsSync(dir) ? dir : undefined;
}

/**
 * The switch itself: the file each import names resolves to for `library`, as an ES or CommonJS module. For
 * Shrinkscope, `fast-check` is shrinkscope/fc, which reaches the engine as `shrinkscope`.
 */
function switched(library, format) {
  if (library === "fast-check")
    return {
      "fast-check": format === "esm" ? FAST_CHECK : path.join(path.dirname(FAST_CHECK), "cjs", "fast-check.js"),
    };
  const ext = format === "esm" ? "mjs" : "cjs";
  const fc = path.join(ROOT, "dist", `fc.${ext}`);
  return { "fast-check": fc, "shrinkscope/fc": fc, shrinkscope: path.join(ROOT, "dist", `engine.${ext}`) };
}

/** An empty folder under tmp/ for one run, with the setup file that sets the seed (as an ES or CommonJS module). */
function workFolder(suite, library, seed, format) {
  const work = path.join(ROOT, "tmp", "migration", `${suite.name}-${library}-${seed}`);
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  const seedSetup = path.join(work, `seed.setup.${format === "esm" ? "mjs" : "cjs"}`);
  const load = format === "esm" ? `import fc from "fast-check";` : `const fc = require("fast-check");`;
  fs.writeFileSync(seedSetup, `${load}\nfc.configureGlobal({ ...fc.readConfigureGlobal(), seed: ${seed} });\n`);
  return { work, seedSetup };
}

/** A vitest config for `suite` on `library` and `seed`, in a folder of its own under tmp/. */
function config(suite, dir, library, seed) {
  const { work, seedSetup } = workFolder(suite, library, seed, "esm");
  const imports = switched(library, "esm");
  // What the project's own resolver or runner provides: its package name pointing at its sources, and jest's
  // globals module for a jest suite run by vitest (`jest.fn` is vitest's `vi.fn`).
  for (const [name, target] of Object.entries(suite.aliases ?? {})) imports[name] = path.join(dir, target);
  if (suite.jestGlobals) {
    const shim = path.join(work, "jest-globals.mjs");
    fs.writeFileSync(
      shim,
      `export { describe, it, test, expect, beforeAll, beforeEach, afterAll, afterEach } from "vitest";
` +
        `export { vi as jest } from "vitest";
`,
    );
    imports["@jest/globals"] = shim;
  }
  const test = {
    include: suite.include,
    setupFiles: [...(suite.setupFiles ?? []).map((f) => path.join(dir, f)), seedSetup],
    testTimeout: TIMEOUT_MS,
    env: { TEST_TIMEOUT: String(TIMEOUT_MS) },
  };
  const file = path.join(work, "vitest.config.mjs");
  fs.writeFileSync(
    file,
    `const imports = ${JSON.stringify(imports)};\n` +
      `export default {\n` +
      `  plugins: [{ name: "switch-fast-check", enforce: "pre", resolveId: (source) => imports[source] }],\n` +
      `  test: ${JSON.stringify(test)},\n` +
      (suite.jsx ? `  esbuild: { jsx: "transform" },\n` : "") +
      `};\n`,
  );
  return { work, file };
}

/**
 * A jest config for a jest suite (`jest` in SUITES: the project's transform), on `library` and `seed`. The switch is
 * jest's moduleNameMapper; the seed, a setup file. Its predicates run under jest, as written: under vitest, a
 * predicate `x => expect(…).toEqual(…)` returns vitest's assertion object, which fast-check takes as a failure.
 */
function jestConfig(suite, dir, library, seed) {
  const { work, seedSetup } = workFolder(suite, library, seed, "cjs");
  const escape = (name) => `^${name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}$`;
  const modules = switched(library, "cjs");
  const config = {
    rootDir: dir,
    testMatch: suite.include.map((g) => `<rootDir>/${g}`),
    transform: suite.jest.transform,
    moduleNameMapper: Object.fromEntries(Object.entries(modules).map(([k, v]) => [escape(k), v])),
    setupFiles: [seedSetup],
    testTimeout: TIMEOUT_MS,
  };
  const file = path.join(work, "jest.config.json");
  fs.writeFileSync(file, JSON.stringify(config, null, 2));
  return { work, file };
}

/** Runs the suite under vitest (or jest); each test's file, name, status and failure message. */
function run(suite, dir, library, seed) {
  const viaJest = suite.jest !== undefined;
  const { work, file } = (viaJest ? jestConfig : config)(suite, dir, library, seed);
  const out = path.join(work, "report.json");
  const env = { ...process.env, NO_COLOR: "1" };
  for (const k of ["CI", "SHRINKSCOPE_SEED", "SHRINKSCOPE_PROFILE", "NODE_TEST_CONTEXT"]) delete env[k];
  const args = viaJest
    ? [path.join(ROOT, "node_modules", "jest", "bin", "jest.js"), "--config", file, "--json", `--outputFile=${out}`]
    : [
        path.join(ROOT, "node_modules", "vitest", "vitest.mjs"),
        "run",
        "--root",
        dir,
        "--config",
        file,
        "--reporter=json",
        `--outputFile=${out}`,
      ];
  const r = spawnSync(process.execPath, args, { cwd: dir, env, encoding: "utf8", timeout: 30 * 60_000 });
  if (!fs.existsSync(out))
    throw new Error(`${suite.name} on ${library}: the runner wrote no report\n${r.stdout}\n${r.stderr}`);
  const report = JSON.parse(fs.readFileSync(out, "utf8"));
  const tests = [];
  for (const f of report.testResults) {
    const rel = path.relative(dir, f.name);
    for (const a of f.assertionResults)
      tests.push({
        file: rel,
        title: a.title,
        name: a.fullName,
        status: a.status,
        message: (a.failureMessages ?? []).join("\n"),
      });
    if (f.assertionResults.length === 0 && f.status === "failed")
      tests.push({ file: rel, title: "", name: `${rel} (did not load)`, status: "failed", message: f.message ?? "" });
  }
  fs.rmSync(work, { recursive: true, force: true });
  return tests;
}

/** How many fc.assert calls a test's own text holds (the text from its title to the next test's). */
function assertsOf(dir, file, title) {
  if (!fs.existsSync(path.join(dir, file))) return 0;
  const text = fs.readFileSync(path.join(dir, file), "utf8");
  const at = [`'${title}'`, `"${title}"`, `\`${title}\``].map((q) => text.indexOf(q)).find((i) => i >= 0) ?? -1;
  if (at < 0) return 0;
  const rest = text.slice(at + title.length + 2);
  const next = rest.search(/\n\s*(it|test)(\.\w+)*\(/);
  return (next < 0 ? rest : rest.slice(0, next)).match(/fc\.assert\(/g)?.length ?? 0;
}

/** The counterexample a failure printed, as printed; undefined when the failure is not a property's. */
function counterexample(library, message) {
  if (library === "fast-check") return /Counterexample: (.*)\n/.exec(message)?.[1].trim();
  const m = /Minimal failing arguments \(TypeScript\):\n((?: {2,}.*\n?)+)/.exec(message);
  if (m === null) return undefined;
  const lines = m[1].split("\n").filter((l) => /^ {2}\S/.test(l) && !/^ {2}(draw \d|note:)/.test(l));
  return lines.map((l) => l.replace(/ \/\/ or any other generated value$/, "").trim()).join(" ");
}

/** The counterexample's arguments as values, or undefined when its text is not an expression. */
function evaluate(text) {
  try {
    return vm.runInThisContext(`[${text}]`, { timeout: 1000 });
  } catch {
    return undefined;
  }
}

/** Both counterexamples' sizes by one measure: re-printed by fast-check's stringify, else as printed. */
function sizes(fcText, ourText) {
  // fast-check's command lists end with a replay comment, which is not part of the value.
  fcText = fcText.replace(/\s*\/\*.*?\*\//g, "");
  const theirs = evaluate(fcText.replace(/^\[(.*)\]$/s, "$1"));
  const ours = evaluate(ourText);
  if (theirs !== undefined && ours !== undefined)
    return { measure: "values", fc: fc.stringify(theirs).length, ours: fc.stringify(ours).length };
  // As printed: fast-check's argument tuple holds a command list without brackets of its own, the engine's list
  // has them, so brackets do not count (nor does whitespace).
  const bare = (t) => t.replace(/[\s[\]]+/g, "").length;
  return { measure: "printed", fc: bare(fcText), ours: bare(ourText) };
}

/** Whether a failed test failed as a property does: a report of the library's own. */
function propertyFailure(library, message) {
  return library === "fast-check"
    ? /Property failed after \d+ tests?/.test(message)
    : /Property failed after \d+ test cases?/.test(message) || /Minimal failing arguments/.test(message);
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const seeds = Array.from({ length: opts.seeds }, (_, i) => i + 1);
  const suites = SUITES.filter((s) => opts.only === null || opts.only.includes(s.name));
  const ran = [];
  const notRun = [];
  for (const suite of suites) {
    const dir = suiteDir(suite, opts);
    if (dir === undefined) {
      notRun.push(suite);
      continue;
    }
    const results = [];
    for (const seed of seeds)
      for (const library of LIBRARIES) {
        process.stderr.write(`${suite.name}: ${library}, seed ${seed}…\n`);
        for (const t of run(suite, dir, library, seed)) results.push({ library, seed, ...t });
      }
    ran.push({ suite, dir, results });
  }

  const fcVersion = JSON.parse(
    fs.readFileSync(path.join(ROOT, "node_modules", "fast-check", "package.json"), "utf8"),
  ).version;
  console.log(`# fast-check suites switched to shrinkscope/fc (fast-check ${fcVersion}; seeds ${seeds.join(", ")})\n`);
  console.log(`${commandLine("bench:migration", "bench/migration.mjs")}\n`);
  const summary = [];
  const counterexamples = [];
  // Tests that fail only here because the engine found a real bug in the project (each checked by hand: SUITES).
  const bugs = [];
  for (const { suite, dir, results } of ran) {
    const byTest = new Map();
    for (const r of results) {
      const key = `${r.file} › ${r.name}`;
      const entry = byTest.get(key) ?? {
        file: r.file,
        name: r.name,
        title: r.title,
        asserts: assertsOf(dir, r.file, r.title),
        runs: [],
      };
      entry.runs.push(r);
      byTest.set(key, entry);
    }
    // fc.assert calls per file: all of the file's when every test in it executed on every seed, else those of the
    // tests that did (a test's own calls are counted in its text, from its title to the next test).
    const perFile = new Map();
    // A test is passing when fast-check passes it on every seed (its code has no bug either finds), failing when
    // fast-check fails it on some seed.
    const tally = { passing: 0, keptPassing: 0, bugs: 0, failing: 0, caught: 0, moreSeeds: 0 };
    const rows = [];
    for (const t of byTest.values()) {
      const ours = t.runs.filter((r) => r.library === "shrinkscope");
      const theirs = t.runs.filter((r) => r.library === "fast-check");
      const executes = (r) => r.status === "passed" || (r.status === "failed" && propertyFailure(r.library, r.message));
      const file = perFile.get(t.file) ?? { all: true, executed: 0 };
      if (ours.length > 0 && ours[0].status !== "skipped" && ours[0].status !== "pending") {
        if (ours.every(executes)) file.executed += t.asserts;
        else file.all = false;
      }
      perFile.set(t.file, file);
      const outcome = (runs) =>
        runs.map((r) => (r.status === "passed" ? "pass" : r.status === "failed" ? "fail" : r.status)).join(" ");
      const failed = (runs, seed) => runs.some((r) => r.seed === seed && r.status === "failed");
      const passed = (runs, seed) => runs.some((r) => r.seed === seed && r.status === "passed");
      let verdict;
      if (seeds.every((seed) => passed(theirs, seed))) {
        tally.passing++;
        const kept = seeds.every((seed) => passed(ours, seed));
        const bug = suite.bugs?.[t.name];
        if (kept) tally.keptPassing++;
        else if (bug !== undefined) {
          tally.bugs++;
          bugs.push([`${suite.name} › ${t.title}`, bug]);
        }
        verdict = kept
          ? "passes on both"
          : bug !== undefined
            ? "fails only here: a bug (below)"
            : "**fails only here**";
      } else if (seeds.some((seed) => failed(theirs, seed))) {
        tally.failing++;
        const caught = seeds.every((seed) => !failed(theirs, seed) || failed(ours, seed));
        const more = seeds.some((seed) => !failed(theirs, seed) && failed(ours, seed));
        if (caught) tally.caught++;
        if (more) tally.moreSeeds++;
        verdict = !caught ? "**fast-check only**" : more ? "fails on both, on more seeds here" : "fails on both";
      } else verdict = "not run";
      rows.push([`${t.file} › ${t.title}`, String(t.asserts), outcome(theirs), outcome(ours), verdict]);
      for (const seed of seeds) {
        const f = theirs.find((r) => r.seed === seed && r.status === "failed");
        const s = ours.find((r) => r.seed === seed && r.status === "failed");
        if (f === undefined || s === undefined) continue;
        const fcText = counterexample("fast-check", f.message);
        const ourText = counterexample("shrinkscope", s.message);
        if (fcText !== undefined && ourText !== undefined)
          counterexamples.push({ suite: suite.name, test: t.title, seed, fcText, ourText, ...sizes(fcText, ourText) });
      }
    }
    let asserts = 0;
    let executed = 0;
    for (const [f, { all, executed: some }] of perFile) {
      const total = fs.existsSync(path.join(dir, f))
        ? (fs.readFileSync(path.join(dir, f), "utf8").match(/fc\.assert\(/g)?.length ?? 0)
        : 0;
      asserts += total;
      executed += all ? total : Math.min(some, total);
    }
    const source =
      suite.repository === undefined ? "this repository" : `${suite.repository} @ ${suite.commit.slice(0, 10)}`;
    summary.push([
      suite.name,
      source,
      String(byTest.size),
      `${executed}/${asserts}`,
      `${tally.keptPassing}/${tally.passing}${tally.bugs > 0 ? ` (the other${tally.bugs > 1 ? "s" : ""}: a bug fast-check missed)` : ""}`,
      `${tally.caught}/${tally.failing}`,
      String(tally.moreSeeds),
    ]);
    console.log(`## ${suite.name} (${source}${suite.license === undefined ? "" : `, ${suite.license}`})\n`);
    console.log(table(["test", "fc.assert calls", `fast-check ${fcVersion}`, "shrinkscope/fc", "outcome"], rows));
    console.log("");
  }
  console.log("## Summary\n");
  console.log(
    table(
      [
        "suite",
        "source",
        "tests",
        "fc.assert calls executed",
        "passing on fast-check: pass here",
        "failing on fast-check: fail here on the same seeds",
        "failing here on seeds fast-check missed",
      ],
      summary,
    ),
  );
  const all = summary.reduce(
    (acc, r) => {
      const [e, a] = r[3].split("/").map(Number);
      return [acc[0] + e, acc[1] + a];
    },
    [0, 0],
  );
  console.log(
    `\nfc.assert calls executed: ${all[0]}/${all[1]} (${((100 * all[0]) / Math.max(all[1], 1)).toFixed(1)}%)`,
  );
  for (const s of notRun)
    console.log(
      `\nNot run: ${s.name} — no checkout at tmp/suites/${s.name}. Check out ${s.repository} at ${s.commit}, ` +
        `install its dependencies, and pass --suite ${s.name}=DIR.`,
    );
  if (bugs.length > 0) {
    console.log("\nBugs found only here (fast-check passed these tests on every seed):\n");
    for (const [test, why] of bugs) console.log(`- ${test}: ${why}`);
  }
  if (counterexamples.length > 0) {
    console.log("\n## Counterexamples of the failing tests\n");
    console.log(
      'Characters of each counterexample as fast-check\'s stringify prints it ("printed": as each report printed it, whitespace removed).\n',
    );
    console.log(
      table(
        ["test", "seed", "fast-check", "Shrinkscope", "chars (fast-check / Shrinkscope)"],
        counterexamples.map((c) => [
          `${c.suite} › ${c.test}`,
          String(c.seed),
          `\`${c.fcText.replace(/\|/g, "\\|")}\``,
          `\`${c.ourText.replace(/\|/g, "\\|")}\``,
          `${c.fc} / ${c.ours}${c.measure === "printed" ? " (printed)" : ""}`,
        ]),
      ),
    );
    const noLarger = counterexamples.filter((c) => c.ours <= c.fc).length;
    const smaller = counterexamples.filter((c) => c.ours < c.fc).length;
    console.log(`\nShrinkscope's no larger: ${noLarger}/${counterexamples.length} (smaller: ${smaller})`);
  }
  if (opts.json !== null) fs.writeFileSync(opts.json, JSON.stringify({ ran, counterexamples }, null, 2));
}

main();
