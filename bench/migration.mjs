// A fast-check suite brought over by changing its import: fast-check's own examples folder, run as written, once on
// fast-check and once with `from "fast-check"` switched to `from "shrinkscope/fc"`, each under the real vitest.
//
// What is measured, per test and per seed:
// - whether its fc.assert calls executed: the test passed, or failed with a property's report (not with a missing
//   function or a type error the adapter caused);
// - whether both libraries agree: a test that passes on fast-check passes here, and one that fails fails;
// - for a failure, the printed size of the counterexample: fast-check's `Counterexample: …` line against the
//   engine's "Minimal failing arguments" lines (whitespace collapsed), each library on the same seeds.
//
// The suite is vendored in bench/migration/fast-check-examples/ (fast-check's examples/, MIT, its LICENSE beside
// it), and runs with what its package.json names (React, @testing-library, happy-dom, lodash: devDependencies here).
// The only change to its files is the import. Each library's seed is set in a setup file of the harness
// (`fc.configureGlobal({ seed })`, over the examples' own settings).
//
// Usage: node bench/migration.mjs [--seeds 3] [--json out.json]
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { eachFlag, positiveInt } from "./lib/args.mjs";
import { commandLine, table } from "./lib/markdown.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SUITE = path.join(ROOT, "bench", "migration", "fast-check-examples");
const LIBRARIES = ["fast-check", "shrinkscope"];
const TIMEOUT_MS = 120_000;

function parseArgs(argv) {
  const opts = { seeds: 3, json: null };
  eachFlag(argv, (flag, value) => {
    if (flag === "--seeds") opts.seeds = positiveInt(flag, value());
    else if (flag === "--json") opts.json = value();
    else throw new Error(`unknown flag ${flag} (known: --seeds N, --json FILE)`);
  });
  return opts;
}

/** Every file of the suite, relative to it. */
function suiteFiles() {
  return fs
    .readdirSync(SUITE, { recursive: true })
    .map(String)
    .filter((f) => fs.statSync(path.join(SUITE, f)).isFile());
}

/** A copy of the suite for `library` and `seed`, in a folder of its own under tmp/ (which links this package). */
function project(library, seed) {
  const dir = path.join(ROOT, "tmp", `migration-${library}-${seed}`);
  fs.rmSync(dir, { recursive: true, force: true });
  for (const f of suiteFiles()) {
    let text = fs.readFileSync(path.join(SUITE, f), "utf8");
    if (library === "shrinkscope" && /\.[cm]?[jt]sx?$/.test(f))
      text = text.replace(/(from\s+)(['"])fast-check\2/g, "$1$2shrinkscope/fc$2");
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.writeFileSync(path.join(dir, f), text);
  }
  const fcModule = library === "shrinkscope" ? "shrinkscope/fc" : "fast-check";
  fs.writeFileSync(
    path.join(dir, "seed.setup.ts"),
    `import fc from ${JSON.stringify(fcModule)};\nfc.configureGlobal({ ...fc.readConfigureGlobal(), seed: ${seed} });\n`,
  );
  fs.writeFileSync(
    path.join(dir, "vitest.config.mjs"),
    `export default {\n  test: {\n    include: ["**/*.spec.?(c|m)[jt]s?(x)"],\n    setupFiles: ["vitest.setup.ts", "seed.setup.ts"],\n` +
      `    testTimeout: ${TIMEOUT_MS},\n    env: { TEST_TIMEOUT: "${TIMEOUT_MS}" },\n  },\n  esbuild: { jsx: "transform" },\n};\n`,
  );
  fs.mkdirSync(path.join(dir, "node_modules"));
  fs.symlinkSync(ROOT, path.join(dir, "node_modules", "shrinkscope"), "junction");
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ private: true, type: "module" }));
  return dir;
}

/** Runs the copy under vitest; each test's full name, status and failure message. */
function run(library, seed) {
  const dir = project(library, seed);
  const out = path.join(dir, "report.json");
  const env = { ...process.env, NO_COLOR: "1" };
  for (const k of ["CI", "SHRINKSCOPE_SEED", "SHRINKSCOPE_PROFILE", "NODE_TEST_CONTEXT"]) delete env[k];
  const r = spawnSync(
    process.execPath,
    [
      path.join(ROOT, "node_modules", "vitest", "vitest.mjs"),
      "run",
      "--root",
      dir,
      "--config",
      path.join(dir, "vitest.config.mjs"),
      "--reporter=json",
      `--outputFile=${out}`,
    ],
    { cwd: dir, env, encoding: "utf8", timeout: 30 * 60_000 },
  );
  if (!fs.existsSync(out)) throw new Error(`${library}: vitest wrote no report\n${r.stdout}\n${r.stderr}`);
  const report = JSON.parse(fs.readFileSync(out, "utf8"));
  const tests = [];
  for (const file of report.testResults) {
    const rel = path.relative(dir, file.name);
    for (const a of file.assertionResults)
      tests.push({
        file: rel,
        name: a.fullName,
        title: a.title,
        status: a.status,
        message: (a.failureMessages ?? []).join("\n"),
      });
    if (file.assertionResults.length === 0 && file.status === "failed")
      tests.push({
        file: rel,
        name: `${rel} (did not load)`,
        title: "",
        status: "failed",
        message: file.message ?? "",
      });
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return tests;
}

/** How many fc.assert calls a test's own text holds (the text from its title to the next test's). */
function assertsOf(file, title) {
  const text = fs.readFileSync(path.join(SUITE, file), "utf8");
  const at = text.indexOf(`'${title}'`) >= 0 ? text.indexOf(`'${title}'`) : text.indexOf(`"${title}"`);
  if (at < 0) return 0;
  const rest = text.slice(at + title.length + 2);
  const next = rest.search(/\n\s*(it|test)(\.\w+)*\(/);
  return (next < 0 ? rest : rest.slice(0, next)).match(/fc\.assert\(/g)?.length ?? 0;
}

/** The counterexample a failure printed, whitespace collapsed; undefined when the failure is not a property's. */
function counterexample(library, message) {
  if (library === "fast-check") {
    const m = /Counterexample: (.*)\n/.exec(message);
    return m?.[1].replace(/\s+/g, " ").trim();
  }
  const m = /Minimal failing arguments \(TypeScript\):\n((?: {2,}.*\n?)+)/.exec(message);
  if (m === null) return undefined;
  const lines = m[1].split("\n").filter((l) => /^ {2}\S/.test(l) && !/^ {2}(draw \d|note:)/.test(l));
  return lines
    .map((l) => l.replace(/ \/\/ or any other generated value$/, "").trim())
    .join(" ")
    .replace(/\s+/g, " ");
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
  const results = {};
  for (const seed of seeds)
    for (const library of LIBRARIES) {
      process.stderr.write(`${library}, seed ${seed}…\n`);
      results[`${library}:${seed}`] = run(library, seed);
    }
  // Per test: asserts, and each library's outcomes over the seeds.
  const byTest = new Map();
  for (const [key, tests] of Object.entries(results)) {
    const [library, seed] = key.split(":");
    for (const t of tests) {
      const entry = byTest.get(t.name) ?? {
        file: t.file,
        title: t.title,
        asserts: assertsOf(t.file, t.title),
        runs: [],
      };
      entry.runs.push({ library, seed: Number(seed), ...t });
      byTest.set(t.name, entry);
    }
  }
  let asserts = 0;
  let executed = 0;
  let agree = 0;
  let compared = 0;
  const rows = [];
  const sizes = [];
  for (const [name, t] of byTest) {
    const ours = t.runs.filter((r) => r.library === "shrinkscope");
    const theirs = t.runs.filter((r) => r.library === "fast-check");
    const ran = (r) => r.status === "passed" || (r.status === "failed" && propertyFailure(r.library, r.message));
    if (ours.length > 0 && ours[0].status !== "skipped" && ours[0].status !== "pending") {
      asserts += t.asserts;
      if (ours.every(ran)) executed += t.asserts;
    }
    const outcome = (runs) =>
      runs.map((r) => (r.status === "passed" ? "pass" : r.status === "failed" ? "fail" : r.status));
    const a = outcome(theirs).join(" ");
    const b = outcome(ours).join(" ");
    if (theirs.length > 0 && ours.length > 0) {
      compared++;
      const same =
        theirs.every((r) => r.status === theirs[0].status) && ours.every((r) => r.status === theirs[0].status);
      if (same) agree++;
      rows.push([`${t.file} › ${t.title}`, String(t.asserts), a, b, same ? "yes" : "**no**"]);
    }
    for (const seed of seeds) {
      const f = theirs.find((r) => r.seed === seed && r.status === "failed");
      const s = ours.find((r) => r.seed === seed && r.status === "failed");
      if (f === undefined || s === undefined) continue;
      const fcText = counterexample("fast-check", f.message);
      const ourText = counterexample("shrinkscope", s.message);
      if (fcText !== undefined && ourText !== undefined) sizes.push([`${t.title} (seed ${seed})`, fcText, ourText]);
    }
    void name;
  }
  const fcVersion = JSON.parse(
    fs.readFileSync(path.join(ROOT, "node_modules", "fast-check", "package.json"), "utf8"),
  ).version;
  console.log(
    `# fast-check's examples, switched to shrinkscope/fc (fast-check ${fcVersion}; seeds ${seeds.join(", ")})\n`,
  );
  console.log(`${commandLine("bench:migration", "bench/migration.mjs")}\n`);
  console.log(table(["test", "fc.assert calls", `fast-check ${fcVersion}`, "shrinkscope/fc", "same outcome"], rows));
  console.log(
    `\nfc.assert calls executed: ${executed}/${asserts} (${((100 * executed) / Math.max(asserts, 1)).toFixed(1)}%); ` +
      `tests with the same outcome on every seed: ${agree}/${compared}`,
  );
  if (sizes.length > 0) {
    console.log("\nCounterexamples of the failing tests (printed characters, whitespace collapsed):\n");
    console.log(
      table(
        ["test", "fast-check", "chars", "Shrinkscope", "chars"],
        sizes.map(([name, a, b]) => [name, `\`${a}\``, String(a.length), `\`${b}\``, String(b.length)]),
      ),
    );
    const smaller = sizes.filter(([, a, b]) => b.length <= a.length).length;
    console.log(`\nShrinkscope's no larger: ${smaller}/${sizes.length}`);
  }
  if (opts.json !== null) fs.writeFileSync(opts.json, JSON.stringify({ results, rows, sizes }, null, 2));
}

main();
