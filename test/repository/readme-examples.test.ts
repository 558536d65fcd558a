/**
 * Every example in README.md runs as written, with the runner it is written for, and does what the README says.
 *
 * Each ```ts / ```js block of README.md is a whole file, marked by an HTML comment on the line above its fence,
 * which a reader of the rendered page does not see:
 *
 *   <!-- example: RUNNER FILE, OUTCOME -->
 *
 * RUNNER is `node` (a script), `node:test` (`node --import tsx --test FILE`), `vitest`, `jest` or `mocha`; FILE the
 * name it is saved under (its extension decides TypeScript or JavaScript, ES module or CommonJS); OUTCOME one of
 *   - `passes`: the runner exits 0, having passed at least one test (a script: exits 0);
 *   - `fails with ARGS`: it exits non-zero, and the failure's "Minimal failing arguments (TypeScript):" are ARGS
 *     (their lines joined by a space, the explain phase's `// or any other generated value` left out);
 *   - `fails as printed below`: it exits non-zero, and its output holds the next block (a ```text block) line by
 *     line in order, each `…` standing for whatever varies (counts, seeds, stacks).
 * A block that is not a program says so by its language (`text`, `sh`, …): in README.md an unmarked ts/js block,
 * a block without a language, or a marker on anything but a program is an error, never skipped. The docs' pages
 * may carry marked examples too (docs/strategies.md, docs/machines.md, …): those run the same way; unmarked ones
 * there are fragments and are left alone.
 *
 * Each example is saved in a folder of its own under tmp/ (gitignored) with a package.json and a link
 * node_modules/shrinkscope → this repository, as a user's project has it installed, so `shrinkscope` resolves to
 * the built dist/ (run `npm run build` first; `npm test` does) and the runners come from the repository's own
 * node_modules. Runs are made repeatable by CI=true (derandomized, no example database). The TypeScript examples
 * are also type-checked against the built package's types, so an API name or type the README shows that the
 * package does not have fails here.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { after, before, test } from "node:test";
import { runNode } from "../test-runners/runChild.ts";
import { codeBlocks } from "./markdown.ts";

const ROOT = path.resolve(__dirname, "..", "..");
const PAGES = [
  "README.md",
  ...fs
    .readdirSync(path.join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `docs/${f}`),
];
const TIMEOUT_MS = 120_000;
const PROGRAMS = new Set(["ts", "js", "typescript", "javascript"]);
const NOT_PROGRAMS = new Set(["text", "sh", "bash", "console", "yaml", "json", "diff"]);
const RUNNERS = ["node", "node:test", "vitest", "jest", "mocha"] as const;
type RunnerName = (typeof RUNNERS)[number];
const TSX = pathToFileURL(path.join(ROOT, "node_modules", "tsx", "dist", "loader.mjs")).href;
const bin = (...p: string[]) => path.join(ROOT, "node_modules", ...p);

type Outcome = { kind: "passes" } | { kind: "fails with"; args: string } | { kind: "fails printing"; text: string };

interface Example {
  readonly page: string;
  readonly line: number;
  readonly runner: RunnerName;
  readonly file: string;
  readonly outcome: Outcome;
  readonly code: string;
}

/** The examples of one page, and what is wrong with its blocks; `strict`: every program block must be marked. */
function examplesOf(page: string, markdown: string, strict: boolean): { examples: Example[]; problems: string[] } {
  const blocks = codeBlocks(markdown);
  const examples: Example[] = [];
  const problems: string[] = [];
  blocks.forEach((block, i) => {
    const where = `${page}:${block.line}`;
    const program = PROGRAMS.has(block.lang);
    if (block.example === undefined) {
      if (!strict) return;
      if (program)
        problems.push(
          `${where}: a ${block.lang} block without an "example:" comment (say how it runs, or give it the language text)`,
        );
      else if (block.lang === "")
        problems.push(
          `${where}: a block without a language (a program is ts or js with an "example:" comment; anything else text, sh, …)`,
        );
      else if (!NOT_PROGRAMS.has(block.lang))
        problems.push(
          `${where}: a block in ${block.lang}, which is neither a program nor one of ${[...NOT_PROGRAMS].join(", ")}`,
        );
      return;
    }
    const m = /^(\S+) (\S+), (passes|fails with (.+)|fails as printed below)$/.exec(block.example);
    if (!program)
      problems.push(`${where}: an "example:" comment on a ${block.lang || "plain"} block, which is not a program`);
    else if (m === null || !(RUNNERS as readonly string[]).includes(m[1]))
      problems.push(
        `${where}: cannot read the comment "example: ${block.example}" (RUNNER FILE, passes | fails with ARGS | fails as printed below; RUNNER one of ${RUNNERS.join(", ")})`,
      );
    else {
      let outcome: Outcome;
      if (m[3] === "passes") outcome = { kind: "passes" };
      else if (m[4] !== undefined) outcome = { kind: "fails with", args: m[4] };
      else {
        const next = blocks[i + 1];
        if (next === undefined || next.lang !== "text") {
          problems.push(`${where}: "fails as printed below", but the next block is not a text block`);
          return;
        }
        outcome = { kind: "fails printing", text: next.code };
      }
      examples.push({ page, line: block.line, runner: m[1] as RunnerName, file: m[2], outcome, code: block.code });
    }
  });
  return { examples, problems };
}

/** The `node` arguments that run `file` in its folder with `runner`, as the README's commands do. */
function command(runner: RunnerName, file: string, dir: string): string[] {
  const typescript = /\.[mc]?ts$/.test(file);
  switch (runner) {
    case "node":
      return typescript ? ["--import", TSX, file] : [file];
    case "node:test":
      return ["--import", TSX, "--test", "--test-reporter=tap", file];
    case "vitest":
      return [bin("vitest", "vitest.mjs"), "run", "--root", dir];
    case "jest":
      return [
        bin("jest", "bin", "jest.js"),
        "--ci",
        "--rootDir",
        dir,
        "--no-watchman",
        "--cacheDirectory",
        path.join(dir, ".jest-cache"),
      ];
    case "mocha":
      // The timeout only because this machine may be loaded: mocha's default of 2 s is for one example, not 100.
      return [bin("mocha", "bin", "mocha.js"), "--no-config", "--no-package", "--timeout", "60000", file];
  }
}

/** How many tests the runner says passed (a script: 1 when it exits 0). */
function passedCount(runner: RunnerName, output: string, code: number | null): number {
  const pattern: Record<RunnerName, RegExp | null> = {
    node: null,
    "node:test": /^# pass (\d+)/m,
    vitest: /Tests\s+(?:\d+ failed \| )?(\d+) passed/,
    jest: /Tests:\s+(?:\d+ failed, )?(\d+) passed/,
    mocha: /(\d+) passing/,
  };
  const p = pattern[runner];
  if (p === null) return code === 0 ? 1 : 0;
  return Number(p.exec(output)?.[1] ?? 0);
}

/** The minimal failing arguments a failure printed, one line, without the explain phase's comments. */
function minimalArguments(output: string): string | undefined {
  const lines = output.split("\n");
  const at = lines.findIndex((l) => l.includes("Minimal failing arguments (TypeScript):"));
  if (at < 0) return undefined;
  const args: string[] = [];
  for (const line of lines.slice(at + 1)) {
    const text = line.replace(/\s*\/\/.*$/, "").trim();
    if (text === "") break;
    args.push(text);
  }
  return args.join(" ");
}

/**
 * Where `expected` (a printed block, `…` for what varies) is not in `output`: each of its lines must be one line of
 * the output, in order — equal once trimmed, or, with `…`, holding its pieces in order. Matched line by line, not
 * anywhere in the text: a short expected line ("12") would otherwise be found inside a seed or a stack frame.
 */
function missingLines(expected: string, output: string): string | undefined {
  const lines = output.split("\n").map((l) => l.trim());
  let at = 0;
  for (const line of expected.split("\n")) {
    const want = line.trim();
    if (want === "") continue;
    const pieces = want
      .split("…")
      .map((p) => p.trim())
      .filter((p) => p !== "");
    const matches = (got: string): boolean => {
      if (!want.includes("…")) return got === want;
      let from = 0;
      for (const piece of pieces) {
        const i = got.indexOf(piece, from);
        if (i < 0) return false;
        from = i + piece.length;
      }
      return true;
    };
    const found = lines.findIndex((got, i) => i >= at && matches(got));
    if (found < 0) return `"${want}"`;
    at = found + 1;
  }
  return undefined;
}

/** Saves the example in `dir` as a user's project would hold it, runs it, and says what differs from its claim. */
async function check(example: Example, dir: string): Promise<string[]> {
  fs.mkdirSync(path.join(dir, "node_modules"), { recursive: true });
  const esm = !/\brequire\(/.test(example.code);
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ private: true, ...(esm ? { type: "module" } : {}) }),
  );
  fs.symlinkSync(ROOT, path.join(dir, "node_modules", "shrinkscope"), "dir");
  fs.writeFileSync(path.join(dir, example.file), example.code);
  const exit = await runNode(command(example.runner, example.file, dir), dir, TIMEOUT_MS);
  const output = stripVTControlCharacters(exit.stdout + "\n" + exit.stderr);
  const where = `${example.page}:${example.line} (${example.runner} ${example.file})`;
  const shown = () =>
    `\n--- exit ${exit.code ?? exit.signal}${exit.timedOut ? " (timed out)" : ""}; output:\n${output.slice(-6000)}`;
  if (exit.error !== undefined) return [`${where}: could not start: ${exit.error.message}`];
  const { outcome } = example;
  if (outcome.kind === "passes") {
    if (exit.code !== 0 || passedCount(example.runner, output, exit.code) < 1)
      return [`${where}: should pass${shown()}`];
    return [];
  }
  if (exit.code === 0) return [`${where}: should fail, but passed${shown()}`];
  if (outcome.kind === "fails with") {
    const args = minimalArguments(output);
    if (args !== outcome.args)
      return [
        `${where}: should fail with ${outcome.args}, but ${args === undefined ? "printed no minimal arguments" : `failed with ${args}`}${shown()}`,
      ];
    return [];
  }
  const missing = missingLines(outcome.text, output);
  return missing === undefined ? [] : [`${where}: the printed block is not what it prints: no ${missing}${shown()}`];
}

let tmp = "";
const all = PAGES.map((page) => examplesOf(page, fs.readFileSync(path.join(ROOT, page), "utf8"), page === "README.md"));
const examples = all.flatMap((p) => p.examples);

before(() => {
  for (const f of ["engine.mjs", "engine.cjs", "types/engine/index.d.ts"]) {
    assert.ok(fs.existsSync(path.join(ROOT, "dist", f)), `dist/${f} is missing: run \`npm run build\` first`);
  }
  fs.mkdirSync(path.join(ROOT, "tmp"), { recursive: true });
  tmp = fs.mkdtempSync(path.join(ROOT, "tmp", "readme-examples-"));
});

after(() => {
  if (tmp !== "") fs.rmSync(tmp, { recursive: true, force: true });
});

test("every program block of README.md is marked with how it runs, and every other block says what it is", () => {
  assert.deepEqual(
    all.flatMap((p) => p.problems),
    [],
  );
  const readme = examples.filter((e) => e.page === "README.md");
  assert.ok(
    readme.length >= 6,
    `only ${readme.length} examples found in README.md: is the "example:" comment still read?`,
  );
  for (const runner of ["node:test", "vitest", "jest", "mocha"])
    assert.ok(
      readme.some((e) => e.runner === runner),
      `README.md has no ${runner} example`,
    );
});

examples.forEach((example, i) => {
  const what =
    example.outcome.kind === "passes"
      ? "passes"
      : example.outcome.kind === "fails with"
        ? `fails with ${example.outcome.args}`
        : "fails as printed";
  test(
    `${example.page}:${example.line}: ${example.file} under ${example.runner} ${what}`,
    { timeout: TIMEOUT_MS + 30_000 },
    async () => {
      assert.deepEqual(await check(example, path.join(tmp, `${i}-${path.parse(example.file).name}`)), []);
    },
  );
});

test("the TypeScript examples type-check against the built package", () => {
  const dir = path.join(tmp, "typecheck");
  fs.mkdirSync(path.join(dir, "node_modules"), { recursive: true });
  fs.symlinkSync(ROOT, path.join(dir, "node_modules", "shrinkscope"), "dir");
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ private: true, type: "module" }));
  const files = examples
    .filter((e) => /\.ts$/.test(e.file))
    .map((e, i) => {
      const name = `${i}-${e.file}`;
      fs.writeFileSync(path.join(dir, name), e.code);
      return { name, where: `${e.page}:${e.line}` };
    });
  assert.ok(files.length > 0);
  const compilerOptions = {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ["node"],
  };
  fs.writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({ compilerOptions, files: files.map((f) => f.name) }),
  );
  const r = spawnSync(process.execPath, [bin("typescript", "bin", "tsc"), "-p", dir], { encoding: "utf8" });
  const legend = files.map((f) => `${f.name} is ${f.where}`).join("\n");
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}\n${legend}`);
});

test("the checker fails on a broken example: an unmarked block, a wrong minimal example, a wrong printed block, a claimed pass", async () => {
  const page = [
    "```ts",
    "const x = 1;",
    "```",
    "```",
    "plain",
    "```",
    "<!-- example: node wrong.mjs, fails with 11 -->",
    "```js",
    'import { check, property, st } from "shrinkscope";',
    "check(property(st.integers(), (n) => { if (n >= 10) throw new Error(`big: ${n}`); }), { database: null });",
    "```",
  ].join("\n");
  const { examples: found, problems } = examplesOf("page.md", page, true);
  assert.equal(problems.length, 2, problems.join("\n"));
  assert.match(problems[0], /page\.md:1: a ts block without an "example:" comment/);
  assert.match(problems[1], /page\.md:4: a block without a language/);
  assert.equal(found.length, 1);
  const [wrong] = found;
  const [problem] = await check(wrong, path.join(tmp, "broken-minimal"));
  assert.match(problem ?? "", /should fail with 11, but failed with 10/);
  const printed = {
    ...wrong,
    file: "printed.mjs",
    outcome: { kind: "fails printing", text: "Minimal failing arguments (TypeScript):\n  12\n" },
  } as const;
  assert.match((await check(printed, path.join(tmp, "broken-printed")))[0] ?? "", /no "12"/);
  const passing = {
    ...wrong,
    file: "pass.mjs",
    code: 'import { check, property, st } from "shrinkscope";\ncheck(property(st.integers(), () => {}), { database: null });\n',
  };
  assert.match((await check(passing, path.join(tmp, "broken-pass")))[0] ?? "", /should fail, but passed/);
});
