// Reading test files: the extension's hand-written tokenizer (src/extension/discovery.ts over
// src/extension/source/read/) against two maintained parsers with error recovery, each driving the same
// discovery rules (bench/source-parsers/shared.mjs): @babel/parser with errorRecovery and the `typescript`
// plugin (+ `jsx` for .tsx/.jsx), what vscode-jest's discovery uses (bench/source-parsers/babel.mjs), and
// TypeScript's own ts.createSourceFile (bench/source-parsers/typescript.mjs). docs/architecture.md ("Reading
// source text") has the figures and the decision they led to.
//
// What it measures:
//   - correctness on the corpus (test/extension/fixtures/corpus, *.expected "## discovery"): the tests each
//     one finds, line for line against the pinned lines (path, kind, range, insertion point, property call),
//     and which files differ;
//   - correctness on half-typed files, as an editor shows them mid-edit: every corpus file cut at 40 points,
//     and with one closing bracket deleted at up to 15 places. Against the pinned tests, a cut should keep every
//     test that ends before it, and a deleted bracket every test before it (same path, start, property or not)
//     — and, better still, the tests after it (same path and property or not). Parser errors that end a
//     reading count as "gave up";
//   - bundle size: each discovery bundled alone and minified, and dist/extension.js's entry bundled with it
//     (esbuild, minified, as esbuild.mjs builds it);
//   - time per edit: parse and discover a 5,000-line file after a one-character edit (a space inserted at a
//     random place: a new text each time, so no cache helps), median and 90th percentile of 30 edits after
//     warm-up, and how many of those edits left a reader with nothing.
// It prints numbers; it decides nothing.
//
// Usage: npm run bench:source-parsers   (node --import tsx bench/source-parsers.mjs [--edits N])
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { discoverTests } from "../src/extension/discovery.ts";
import { discoverBabel } from "./source-parsers/babel.mjs";
import { discoverTypeScript } from "./source-parsers/typescript.mjs";
import { expectedLine } from "./source-parsers/shared.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CORPUS = path.join(ROOT, "test/extension/fixtures/corpus");
const EDITS = Number(process.argv[process.argv.indexOf("--edits") + 1]) || 30;

const READERS = [
  {
    name: "tokenizer (ours)",
    discover: (source, fileName) => ({ tests: discoverTests(source, { fileName }), threw: false }),
    entry: "src/extension/discovery.ts",
  },
  { name: "@babel/parser", discover: discoverBabel, entry: "bench/source-parsers/babel.mjs" },
  { name: "ts.createSourceFile", discover: discoverTypeScript, entry: "bench/source-parsers/typescript.mjs" },
];

const files = fs
  .readdirSync(CORPUS)
  .filter((f) => f.endsWith(".txt"))
  .sort();
const corpus = files.map((file) => {
  const source = fs.readFileSync(path.join(CORPUS, file), "utf8");
  const expected = fs.readFileSync(path.join(CORPUS, file.replace(/\.txt$/, ".expected")), "utf8");
  const lines = expected
    .split("\n## ")[0]
    .split("\n")
    .slice(1)
    .filter((l) => l !== "");
  // The pinned tests, as the half-typed checks compare them: path, start and whether it is a property.
  const tests = lines.map((l) => {
    const [head, , span] = l.split(" | ");
    const [start, end] = span.split(" ")[0].split("..").map(Number);
    return { key: head.slice(2), property: head[0] === "P", start, end };
  });
  return { file, fileName: file.replace(/\.txt$/, ""), source, lines, tests };
});

function pct(a, b) {
  return b === 0 ? "—" : `${((100 * a) / b).toFixed(1)}%`;
}

function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (r) => `| ${r.map((c, i) => String(c).padEnd(widths[i])).join(" | ")} |`;
  console.log([line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n"));
}

// ── correctness on the corpus ──
const corpusRows = [];
const wrong = new Map();
for (const r of READERS) {
  let same = 0;
  let total = 0;
  let extra = 0;
  const files = [];
  for (const c of corpus) {
    const got = r.discover(c.source, c.fileName).tests.map((t) => expectedLine(c.source, t));
    const matched = c.lines.filter((l) => got.includes(l)).length;
    same += matched;
    total += c.lines.length;
    extra += got.filter((l) => !c.lines.includes(l)).length;
    if (matched !== c.lines.length || got.length !== c.lines.length)
      files.push(
        `${c.file} (${matched}/${c.lines.length}${got.length > matched ? `, ${got.length - matched} other` : ""})`,
      );
  }
  corpusRows.push([r.name, `${same}/${total}`, extra, `${corpus.length - files.length}/${corpus.length}`]);
  wrong.set(r.name, files);
}

// ── correctness on half-typed files ──
function variants(c) {
  const out = [];
  const n = c.source.length;
  for (let i = 1; i <= 40; i++) {
    const cut = Math.round((n * i) / 41);
    out.push({ kind: "cut", text: c.source.slice(0, cut), at: cut });
  }
  const closers = [];
  for (let i = 0; i < n; i++) if (")]}".includes(c.source[i])) closers.push(i);
  const step = Math.max(1, Math.floor(closers.length / 15));
  for (let k = 0; k < closers.length && out.length < 55; k += step) {
    const at = closers[k];
    out.push({ kind: "deleted", text: c.source.slice(0, at) + c.source.slice(at + 1), at });
  }
  return out;
}
const halfRows = [];
const halfMisses = new Map();
for (const r of READERS) {
  const score = { before: 0, beforeOf: 0, after: 0, afterOf: 0, gaveUp: 0, readings: 0 };
  const misses = new Map();
  for (const c of corpus) {
    for (const v of variants(c)) {
      const { tests, threw } = r.discover(v.text, c.fileName);
      score.readings++;
      if (threw) score.gaveUp++;
      const found = new Set(tests.map((t) => `${t.path.join(" > ")}@${t.range.start}@${t.isProperty}`));
      const foundLoose = new Set(tests.map((t) => `${t.path.join(" > ")}@${t.isProperty}`));
      for (const t of c.tests) {
        if (t.end <= v.at) {
          score.beforeOf++;
          if (found.has(`${t.key}@${t.start}@${t.property}`)) score.before++;
          else misses.set(c.file, (misses.get(c.file) ?? 0) + 1);
        } else if (v.kind === "deleted" && t.start > v.at) {
          score.afterOf++;
          if (foundLoose.has(`${t.key}@${t.property}`)) score.after++;
          else misses.set(c.file, (misses.get(c.file) ?? 0) + 1);
        }
      }
    }
  }
  halfMisses.set(
    r.name,
    [...misses].sort((a, b) => b[1] - a[1]),
  );
  halfRows.push([
    r.name,
    score.readings,
    `${score.before}/${score.beforeOf} (${pct(score.before, score.beforeOf)})`,
    `${score.after}/${score.afterOf} (${pct(score.after, score.afterOf)})`,
    score.gaveUp,
  ]);
}

// ── bundle size ──
async function bundled(entryPoints, extra = {}) {
  const result = await build({
    entryPoints,
    bundle: true,
    platform: "node",
    format: "cjs",
    minify: true,
    write: false,
    logLevel: "silent",
    absWorkingDir: ROOT,
    external: ["vscode"],
    ...extra,
  });
  return result.outputFiles[0].contents.length;
}
const extensionEntry = "src/extension/extension.ts";
const extensionAlone = await bundled([extensionEntry]);
const sizeRows = [];
for (const r of READERS) {
  const alone = await bundled([r.entry]);
  // The extension with this discovery in it: its entry and the parser's module in one bundle.
  const stdin = {
    contents: `export * from "./${extensionEntry}";\nexport * as reader from "./${r.entry}";`,
    resolveDir: ROOT,
    loader: "ts",
  };
  const withIt = r.entry === "src/extension/discovery.ts" ? extensionAlone : await bundled([], { stdin });
  sizeRows.push([r.name, `${(alone / 1024).toFixed(1)} KB`, `${(withIt / 1024).toFixed(1)} KB`]);
}

// ── time per edit on a large file ──
const parts = ['import { describe, it, test } from "vitest";', 'import { property, check, st } from "shrinkscope";'];
const sources = corpus
  .filter((c) => !c.file.includes("unterminated"))
  .map((c) => c.source.replace(/^import .*$/gm, ""));
for (let i = 0; parts.join("\n").split("\n").length < 5000; i++)
  parts.push(`describe("copy ${i}", () => {`, sources[i % sources.length], "});");
const big = parts.join("\n");
let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const timeRows = [];
for (const r of READERS) {
  for (let i = 0; i < 5; i++) r.discover(big + `\n// warm ${i}`, "big.test.tsx");
  const times = [];
  let gaveUp = 0;
  for (let i = 0; i < EDITS; i++) {
    const at = Math.floor(random() * big.length);
    const edited = big.slice(0, at) + " " + big.slice(at);
    const t0 = performance.now();
    if (r.discover(edited, "big.test.tsx").threw) gaveUp++;
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  timeRows.push([
    r.name,
    times[Math.floor(times.length / 2)].toFixed(1),
    times[Math.floor(times.length * 0.9)].toFixed(1),
    r.discover(big, "big.test.tsx").tests.length,
    `${gaveUp}/${EDITS}`,
  ]);
}

console.log(
  `Corpus: ${corpus.length} files, ${corpus.reduce((s, c) => s + c.lines.length, 0)} pinned tests (test/extension/fixtures/corpus/*.expected).\n`,
);
table(["reader", "pinned lines found exactly", "other lines", "files all right"], corpusRows);
for (const [name, list] of wrong) if (list.length > 0) console.log(`  ${name} differs on: ${list.join(", ")}`);
console.log(
  `\nHalf-typed: each corpus file cut at 40 points and with one closing bracket deleted at up to 15 places.\n`,
);
table(
  ["reader", "readings", "tests before the damage kept", "tests after a deleted bracket found", "gave up"],
  halfRows,
);
for (const [name, list] of halfMisses)
  if (list.length > 0)
    console.log(
      `  ${name} misses most in: ${list
        .slice(0, 4)
        .map(([f, n]) => `${f} (${n})`)
        .join(", ")}`,
    );
console.log(
  `\nBundle (esbuild, minified, CommonJS; dist/extension.js's entry is ${(extensionAlone / 1024).toFixed(1)} KB as it is):\n`,
);
table(["reader", "discovery alone", "extension.js with it"], sizeRows);
console.log(
  `\nTime per edit: a ${big.split("\n").length}-line file (${big.length} characters), parse + discover after a one-character edit, ${EDITS} edits (ms):\n`,
);
table(["reader", "median", "p90", "tests in the unedited file", "edits it gave up on"], timeRows);
