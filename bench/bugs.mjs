// Bug-finding benchmark (docs/benchmarks.md, "Bugs found by generation"): how often plain random generation
// finds a typical bug, Shrinkscope against fast-check.
//
// What is measured: for each bug below, over seeds 0..N-1 (default 20), whether a run of at most 100 examples
// finds it — Shrinkscope `check(property(...), { seed, maxExamples: 100, database: null, deadline: null,
// phases: ["generate"] })` (generation only: no database, no shrinking, no later phase adding examples),
// fast-check `fc.check(fc.property(...), { seed, numRuns: 100, endOnFailure: true })`. Each bug's body is
// written once and shared; only the strategies differ, and they are each library's defaults for the same
// shape: `st.integers()` / `fc.integer()`, `st.lists(s)` / `fc.array(a)`, `st.text()` / `fc.string({ unit:
// "binary" })` (every code point but the surrogates, in both), `st.text({ alphabet: "abc" })` / `fc.string({
// unit: fc.constantFrom("a", "b", "c") })`, bounded ranges with the same bounds. The defaults differ where the
// libraries do: `st.integers()` is a safe integer where `fc.integer()` is 32-bit, and fast-check's default size
// keeps arrays and strings at 10 elements or fewer, while Shrinkscope's lists and strings average 5 and may grow.
// Counted per bug: seeds where the bug was found, and the mean number of examples run up to the first failure
// over those seeds. A total row adds the seeds up over all bugs.
//
// Each library runs in its own `node` process (bench/lib/fresh-processes.mjs), so neither warms up or
// shapes the other; the numbers are counts, not times, and do not depend on the machine.
//
// With --minimal, each bug also runs as a user's test would (shrinking on, the same seeds), and a second table
// shows the minimal example each library printed most often, and on how many seeds.
//
// The schema rows (bench/bugs/schemas.mjs) add a third column: zod-fast-check, which derives fast-check
// arbitraries from the same zod schema built with zod 3 (it supports neither zod 4 nor fast-check 4), run by the
// fast-check 3 it needs. Those three live in bench/zod-fast-check/ with their own lockfile, installed there on
// first use. Its `outputOf` is what a user of it writes; a run where it gives up (it throws when fewer than 1% of
// the values it draws pass the schema) counts as not found, and the table says why.
//
// Usage: node bench/bugs.mjs [--seeds N] [--only name1,name2] [--minimal] [--json out.json]
// (internal: --child shrinkscope|fast-check, every bug on every seed, JSON on stdout)
import { existsSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { check, property, st, PropertyFailure } from "shrinkscope";
import { eachFlag, positiveInt } from "./lib/args.mjs";
import { measureInFreshProcesses } from "./lib/fresh-processes.mjs";
import { regexBugs } from "./bugs/regex.mjs";
import { commandLine, num, table } from "./lib/markdown.mjs";
import { dateBugs } from "./bugs/dates.mjs";
import { bigintBugs } from "./bugs/bigints.mjs";
import { shapeBugs } from "./bugs/shapes.mjs";
import { identifierBugs } from "./bugs/identifiers.mjs";
import { jsonBugs } from "./bugs/json.mjs";
import { functionBugs } from "./bugs/functions.mjs";
import { schemaBugs } from "./bugs/schemas.mjs";

const MAX_EXAMPLES = 100;
const SCRIPT = fileURLToPath(import.meta.url);
const LIBRARIES = ["shrinkscope", "fast-check", "zod-fast-check"];
/** zod-fast-check with its zod 3 and fast-check 3, installed apart (see the top of this file). */
const ZOD_FAST_CHECK = fileURLToPath(new URL("./zod-fast-check/", import.meta.url));

// A seed from the environment would override every seed here.
delete process.env.SHRINKSCOPE_SEED;

// ---------------------------------------------------------------------------------------------- the bugs
// Each `holds(...args)` is the property: true when the code under test behaves. The code under test is
// written the way the bug is usually written.

/** Run-length encoding with one digit per count: a run of 10 or more no longer decodes. */
function rleEncode(s) {
  let out = "";
  for (let i = 0; i < s.length;) {
    let j = i;
    while (j < s.length && s[j] === s[i]) j++;
    out += `${j - i}${s[i]}`;
    i = j;
  }
  return out;
}
function rleDecode(s) {
  let out = "";
  for (let i = 0; i < s.length; i += 2) out += s[i + 1].repeat(Number(s[i]));
  return out;
}

/** Removes repeats, but only adjacent ones (the input was assumed sorted). */
const dedupe = (xs) => xs.filter((x, i) => i === 0 || x !== xs[i - 1]);

/** Merges two sorted lists, and keeps one copy when the heads are equal. */
function merge(a, b) {
  const out = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] < b[j]) out.push(a[i++]);
    else if (a[i] > b[j]) out.push(b[j++]);
    else {
      out.push(a[i]);
      i++;
      j++;
    }
  }
  return out.concat(a.slice(i), b.slice(j));
}
const ascending = (xs) => [...xs].sort((x, y) => x - y);

/** Pages of 10: one page too many when the length is a multiple of 10. */
function paginate(xs) {
  const pages = [];
  for (let p = 0; p < Math.floor(xs.length / 10) + 1; p++) pages.push(xs.slice(p * 10, p * 10 + 10));
  return pages;
}

/** An undo stack of fixed capacity 8 that silently drops what does not fit. */
function undoStack(ops) {
  const slots = new Array(8);
  let top = 0;
  for (const op of ops) if (top < slots.length) slots[top++] = op;
  return slots.slice(0, top);
}

/** Strips spaces only: tabs, newlines and the other white space stay. */
const trimSpaces = (s) => s.replace(/^ +| +$/g, "");

const bugs = [
  {
    name: "boundary-max",
    what: "a lookup table of 1000 entries indexed by an integer in 0..1000",
    holds: (i) => new Array(1000).fill(0).map((_, k) => k * 2)[i] !== undefined,
    shrinkscope: () => [st.integers({ min: 0, max: 1000 })],
    fastcheck: () => [fc.integer({ min: 0, max: 1000 })],
  },
  {
    name: "abs-int32",
    what: "(Math.abs(x) | 0) >= 0 for a 32-bit integer (fails at −2^31 only)",
    holds: (x) => (Math.abs(x) | 0) >= 0,
    shrinkscope: () => [st.integers({ min: -(2 ** 31), max: 2 ** 31 - 1 })],
    fastcheck: () => [fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })],
  },
  {
    name: "float-bucket",
    what: "a histogram of 10 buckets indexed by Math.floor(x * 10), x a float in [0, 1]",
    holds: (x) => Math.floor(x * 10) < 10,
    shrinkscope: () => [st.floats({ min: 0, max: 1 })],
    fastcheck: () => [fc.double({ min: 0, max: 1, noNaN: true })],
  },
  {
    name: "midpoint-overflow",
    what: "binary search's (lo + hi) >> 1 for lo ≤ hi in 0..2^31−1",
    holds: (a, b) => {
      const [lo, hi] = a <= b ? [a, b] : [b, a];
      const mid = (lo + hi) >> 1;
      return lo <= mid && mid <= hi;
    },
    shrinkscope: () => [st.integers({ min: 0, max: 2 ** 31 - 1 }), st.integers({ min: 0, max: 2 ** 31 - 1 })],
    fastcheck: () => [fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 0, max: 2 ** 31 - 1 })],
  },
  {
    name: "rle-runs",
    what: "run-length encoding with one-digit counts, over text of a, b and c (a run longer than 9)",
    holds: (s) => rleDecode(rleEncode(s)) === s,
    shrinkscope: () => [st.text({ alphabet: "abc" })],
    fastcheck: () => [fc.string({ unit: fc.constantFrom("a", "b", "c") })],
  },
  {
    name: "duplicate-ids",
    what: "indexing records by id in a Map loses one of two records with the same id",
    holds: (rows) => new Map(rows.map((r) => [r.id, r])).size === rows.length,
    shrinkscope: () => [st.lists(st.records({ id: st.integers(), name: st.text() }))],
    fastcheck: () => [fc.array(fc.record({ id: fc.integer(), name: fc.string({ unit: "binary" }) }))],
  },
  {
    name: "dedupe-adjacent",
    what: "dedupe that removes only adjacent repeats, over lists of integers (needs [x, y, x])",
    holds: (xs) => {
      const out = dedupe(xs);
      return new Set(out).size === out.length;
    },
    shrinkscope: () => [st.lists(st.integers())],
    fastcheck: () => [fc.array(fc.integer())],
  },
  {
    name: "merge-equal",
    what: "merging two sorted lists keeps one copy of an element both contain",
    holds: (a, b) => merge(ascending(a), ascending(b)).length === a.length + b.length,
    shrinkscope: () => [st.lists(st.integers()), st.lists(st.integers())],
    fastcheck: () => [fc.array(fc.integer()), fc.array(fc.integer())],
  },
  {
    name: "paginate",
    what: "pages of 10 have an empty last page when the length is a multiple of 10 (and > 0)",
    holds: (xs) => paginate(xs).every((page) => page.length > 0) || xs.length === 0,
    shrinkscope: () => [st.lists(st.booleans())],
    fastcheck: () => [fc.array(fc.boolean())],
  },
  {
    name: "stack-capacity",
    what: "an undo stack of capacity 8 drops the 9th operation",
    holds: (ops) => undoStack(ops).length === ops.length,
    shrinkscope: () => [st.lists(st.text())],
    fastcheck: () => [fc.array(fc.string({ unit: "binary" }))],
  },
  {
    name: "unicode-reverse",
    what: "reversing a string by UTF-16 units splits a surrogate pair (an astral character)",
    holds: (s) => s.split("").reverse().join("").isWellFormed(),
    shrinkscope: () => [st.text()],
    fastcheck: () => [fc.string({ unit: "binary" })],
  },
  {
    name: "upper-length",
    what: "toUpperCase keeps the length (not for ß, ŉ, ﬁ and a hundred others)",
    holds: (s) => s.toUpperCase().length === s.length,
    shrinkscope: () => [st.text()],
    fastcheck: () => [fc.string({ unit: "binary" })],
  },
  {
    name: "trim-spaces",
    what: "a trim that strips spaces only, against String.prototype.trim",
    holds: (s) => trimSpaces(s) === s.trim(),
    shrinkscope: () => [st.text()],
    fastcheck: () => [fc.string({ unit: "binary" })],
  },
  ...dateBugs,
  ...bigintBugs,
  ...shapeBugs,
  ...identifierBugs,
  ...jsonBugs,
  ...functionBugs,
  // Strings of a format given by a regular expression (st.fromRegex / fc.stringMatching).
  ...regexBugs,
  // Data a zod schema describes: fromZod, a hand-written fast-check arbitrary, zod-fast-check.
  ...schemaBugs,
];

/** Whether `library` runs `bug` (zod-fast-check only runs the schema rows). */
const runsBug = (library, bug) => library !== "zod-fast-check" || bug.zodFastCheck !== undefined;

/** zod-fast-check, its zod 3 and its fast-check 3, loaded from their own folder (installed there if need be). */
let zodFastCheckModules;
function zodFastCheck() {
  if (zodFastCheckModules !== undefined) return zodFastCheckModules;
  if (!existsSync(`${ZOD_FAST_CHECK}node_modules/zod-fast-check`)) {
    const r = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: ZOD_FAST_CHECK, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`npm ci in bench/zod-fast-check failed:\n${r.stderr}`);
  }
  const require = createRequire(`${ZOD_FAST_CHECK}package.json`);
  zodFastCheckModules = {
    zfc: require("zod-fast-check").ZodFastCheck,
    z3: require("zod").z,
    fc3: require("fast-check"),
  };
  return zodFastCheckModules;
}

/** The property of `bug` as the fast-check flavour `library` writes it: fast-check 4's or zod-fast-check's. */
function fastCheckProperty(library, bug, body) {
  if (library === "fast-check") return { fc, property: fc.property(...bug.fastcheck(), body) };
  const { zfc, z3, fc3 } = zodFastCheck();
  return { fc: fc3, property: fc3.property(...bug.zodFastCheck(zfc(), z3), body) };
}

// ---------------------------------------------------------------------------------------------- one library

/** A seed's outcome: the example at which the bug was found, null when it was not, `{ gaveUp }` when the library gave up. */
const isHit = (at) => typeof at === "number";

/** Runs `bug` on `seed`: whether it was found within MAX_EXAMPLES, and at which example. */
function runOne(library, bug, seed) {
  let calls = 0;
  let failedAt = null;
  const body = (...args) => {
    calls++;
    let ok = false;
    try {
      ok = bug.holds(...args);
    } catch {
      // The code under test threw (rleDecode on a two-digit count): that is the bug too.
    }
    if (!ok) {
      failedAt ??= calls;
      throw new Error(`${bug.name} fails`);
    }
  };
  if (library === "shrinkscope") {
    try {
      check(property(...bug.shrinkscope(), body), {
        seed,
        maxExamples: MAX_EXAMPLES,
        database: null,
        deadline: null,
        phases: ["generate"],
      });
    } catch (e) {
      if (!(e instanceof PropertyFailure)) throw e;
    }
  } else {
    const { fc: lib, property: prop } = fastCheckProperty(library, bug, body);
    let r;
    try {
      r = lib.check(prop, { seed, numRuns: MAX_EXAMPLES, endOnFailure: true });
    } catch (e) {
      // zod-fast-check gives up by throwing while generating (below its success rate): not found, and why.
      if (library === "zod-fast-check" && failedAt === null) return { gaveUp: String(e?.message ?? e) };
      throw e;
    }
    if (r.errorInstance && failedAt === null) throw r.errorInstance;
  }
  return failedAt;
}

/**
 * Runs `bug` on `seed` as a user's test would (shrinking on, 100 examples): the minimal failing arguments as the
 * library prints them (Shrinkscope's repro, fast-check's stringify), or null when the run passed.
 */
function minimalOf(library, bug, seed) {
  const body = (...args) => {
    let ok = false;
    try {
      ok = bug.holds(...args);
    } catch {
      // The code under test threw: that is the bug too.
    }
    if (!ok) throw new Error(`${bug.name} fails`);
  };
  if (library === "shrinkscope") {
    try {
      check(property(...bug.shrinkscope(), body), { seed, maxExamples: MAX_EXAMPLES, database: null, deadline: null });
      return null;
    } catch (e) {
      if (!(e instanceof PropertyFailure)) throw e;
      return e.repro;
    }
  }
  const { fc: lib, property: prop } = fastCheckProperty(library, bug, body);
  let r;
  try {
    r = lib.check(prop, { seed, numRuns: MAX_EXAMPLES });
  } catch (e) {
    if (library === "zod-fast-check") return null; // gave up generating: no example
    throw e;
  }
  if (!r.failed || r.counterexample === null) return null;
  // One line, as a table cell needs (fast-check prints a function over several).
  return r.counterexample.map((v) => lib.stringify(v).replace(/\s*\n\s*/g, " ")).join(", ");
}

function child(library, seeds, only, withMinimal) {
  const found = {};
  const minimal = {};
  for (const bug of bugs) {
    if ((only && !only.includes(bug.name)) || !runsBug(library, bug)) continue;
    found[bug.name] = [];
    minimal[bug.name] = [];
    for (let seed = 0; seed < seeds; seed++) {
      found[bug.name].push(runOne(library, bug, seed));
      if (withMinimal) minimal[bug.name].push(minimalOf(library, bug, seed));
    }
  }
  // The shape measureInFreshProcesses reads: one "run", the whole table.
  console.log(JSON.stringify({ runs: [{ found, minimal }] }));
}

// ---------------------------------------------------------------------------------------------- main

function parseArgs(argv) {
  const opts = { seeds: 20, only: null, json: null, child: null, minimal: false };
  eachFlag(argv, (a, value) => {
    if (a === "--seeds") opts.seeds = positiveInt(a, value());
    else if (a === "--only")
      opts.only = value()
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
    else if (a === "--json") opts.json = value();
    else if (a === "--minimal") opts.minimal = true;
    else if (a === "--child") opts.child = value();
    else if (a === "--help" || a === "-h") {
      console.log("node bench/bugs.mjs [--seeds N] [--only name1,name2] [--minimal] [--json out.json]");
      console.log(`bugs: ${bugs.map((b) => b.name).join(", ")}`);
      process.exit(0);
    } else throw new Error(`unknown argument ${a} (try --help)`);
  });
  const unknown = (opts.only ?? []).filter((n) => !bugs.some((b) => b.name === n));
  if (unknown.length)
    throw new Error(`unknown bug(s) ${unknown.join(", ")}; known: ${bugs.map((b) => b.name).join(", ")}`);
  if (opts.child !== null && !LIBRARIES.includes(opts.child))
    throw new Error(`--child must be one of ${LIBRARIES.join(", ")}`);
  return opts;
}

const opts = parseArgs(process.argv.slice(2));
if (opts.child !== null) {
  child(opts.child, opts.seeds, opts.only, opts.minimal);
} else {
  const measured = measureInFreshProcesses({
    script: SCRIPT,
    jobs: LIBRARIES,
    procs: 1,
    args: (job) => [
      "--child",
      job,
      "--seeds",
      String(opts.seeds),
      ...(opts.only ? ["--only", opts.only.join(",")] : []),
      ...(opts.minimal ? ["--minimal"] : []),
    ],
    rate: (run) => Object.values(run.found).reduce((n, seeds) => n + seeds.filter(isHit).length, 0),
  });
  const found = Object.fromEntries(LIBRARIES.map((lib) => [lib, measured[lib].outputs[0].runs[0].found]));
  const hits = (ats) => ats.filter(isHit);
  const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
  // Why a library gave up, each reason numbered once under the table.
  const reasons = [];
  const gaveUp = (ats) => {
    const why = ats.find((at) => at?.gaveUp !== undefined)?.gaveUp;
    if (why === undefined) return "";
    if (!reasons.includes(why)) reasons.push(why);
    return ` (gave up on ${ats.filter((at) => at?.gaveUp !== undefined).length}: reason ${reasons.indexOf(why) + 1})`;
  };
  const cells = (ats) =>
    ats === undefined ? ["—", "—"] : [`${hits(ats).length}/${ats.length}${gaveUp(ats)}`, num(mean(hits(ats)))];
  const rows = [];
  const totals = Object.fromEntries(LIBRARIES.map((lib) => [lib, []]));
  for (const bug of bugs) {
    if (!(bug.name in found.shrinkscope)) continue;
    rows.push([
      `${bug.name}: ${bug.what}`.replaceAll("|", "\\|"),
      ...LIBRARIES.flatMap((lib) => cells(found[lib][bug.name])),
    ]);
    for (const lib of LIBRARIES) totals[lib].push(...(found[lib][bug.name] ?? []));
  }
  rows.push([
    "**total**",
    ...LIBRARIES.flatMap((lib) =>
      totals[lib].length === 0
        ? ["—", "—"]
        : [`**${hits(totals[lib]).length}/${totals[lib].length}**`, num(mean(hits(totals[lib])))],
    ),
  ]);
  const fcVersion = (await import("fast-check/package.json", { with: { type: "json" } })).default.version;
  zodFastCheck(); // installed, whether or not a schema row ran: the header names its versions
  const zfcVersion = (name) => createRequire(`${ZOD_FAST_CHECK}package.json`)(`${name}/package.json`).version;
  const zfcVersions = `${zfcVersion("zod-fast-check")} (zod ${zfcVersion("zod")}, fast-check ${zfcVersion("fast-check")})`;
  console.log(
    `bugs found by generation: ${MAX_EXAMPLES} examples, seeds 0..${opts.seeds - 1}, database off, no shrinking (node ${process.version})`,
  );
  console.log(`command: ${commandLine("bench:bugs", "bench/bugs.mjs")}\n`);
  console.log(
    table(
      [
        "bug",
        "Shrinkscope found",
        "mean examples to find",
        `fast-check ${fcVersion} found`,
        "mean examples to find",
        `zod-fast-check ${zfcVersion("zod-fast-check")} found`,
        "mean examples to find",
      ],
      rows,
    ),
  );
  console.log(`\nzod-fast-check ${zfcVersions}: the schema rows only (it derives arbitraries from zod 3 schemas).`);
  reasons.forEach((why, i) => console.log(`Reason ${i + 1}: zod-fast-check threw "${why.replaceAll("\n", " ")}"`));
  const minimal = Object.fromEntries(LIBRARIES.map((lib) => [lib, measured[lib].outputs[0].runs[0].minimal]));
  if (opts.minimal) {
    // The minimal example each library printed most often over the seeds, and on how many.
    const mostCommon = (printed) => {
      if (printed === undefined) return "—";
      const counts = new Map();
      for (const p of printed) if (p !== null) counts.set(p, (counts.get(p) ?? 0) + 1);
      const [best, n] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? ["—", 0];
      return `\`${best}\` on ${n}/${printed.length}${counts.size > 1 ? ` (${counts.size} different)` : ""}`;
    };
    const minimalRows = bugs
      .filter((bug) => bug.name in minimal.shrinkscope)
      .map((bug) => [bug.name, ...LIBRARIES.map((lib) => mostCommon(minimal[lib][bug.name]).replaceAll("|", "\\|"))]);
    console.log(
      `\nminimal examples, shrinking on (${MAX_EXAMPLES} examples, the same seeds): the one printed most often\n`,
    );
    console.log(table(["bug", "Shrinkscope", `fast-check ${fcVersion}`, `zod-fast-check ${zfcVersions}`], minimalRows));
  }
  if (opts.json)
    writeFileSync(
      opts.json,
      JSON.stringify(
        { seeds: opts.seeds, maxExamples: MAX_EXAMPLES, found, ...(opts.minimal ? { minimal } : {}) },
        null,
        2,
      ),
    );
}
