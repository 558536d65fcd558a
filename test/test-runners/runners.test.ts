/**
 * property(...) is a plain zero-argument test function, so each runner must accept it unmodified as a test
 * callback. This runs the four example files in examples/runners/ with their real runners (node:test, vitest,
 * jest, mocha), each as a child process against the built package (dist/, via the "shrinkscope" self-reference),
 * and checks every runner saw two passing and two failing tests, the failures carrying the minimal examples —
 * and that properties run concurrently in the runner's own concurrent mode (test.concurrent, node:test's
 * concurrency, Promise.all in mocha) each saw only their own events, notes and draws
 * (examples/runners/concurrent.cjs).
 *
 * Needs `npm run build` first (`npm test` does it). The four runners start together, in parallel.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, before, test } from "node:test";
import { runNode, type Exit } from "./runChild.ts";

const ROOT = path.resolve(__dirname, "..", "..");
const EXAMPLES = path.join("examples", "runners");
const TIMEOUT_MS = 120_000;

/** The tests each example file defines, and what they must end as. */
const EXPECTED: Record<string, "passed" | "failed"> = {
  "passes sync": "passed",
  "passes async": "passed",
  "fails sync": "failed",
  "fails async": "failed",
};
/**
 * The concurrent tests each runner's file adds, all passing (each checks its own property's report). node:test
 * also reports the suite that holds them.
 */
const CONCURRENT: Record<string, Record<string, "passed">> = {
  "node:test": { concurrent: "passed", "concurrent A": "passed", "concurrent B": "passed" },
  vitest: { "concurrent A": "passed", "concurrent B": "passed" },
  jest: { "concurrent A": "passed", "concurrent B": "passed" },
  mocha: { "concurrent A and B": "passed" },
};
/** The minimal failing arguments line each failing test must report. */
const MINIMAL: Record<string, string> = { "fails sync": "10", "fails async": "[0, 0]" };

interface Outcome {
  name: string;
  status: "passed" | "failed" | "other";
  /** The failure message (with whatever stack the runner adds), "" when the test passed. */
  message: string;
}

interface Runner {
  /** Arguments to `node`, run with the project root as cwd; `out` is a fresh file for the machine-readable report. */
  args: (out: string, tmp: string) => string[];
  /** The per-test outcomes, from the report file or from stdout. */
  parse: (exit: Exit, out: string) => Outcome[];
}

// ------------------------------------------------------------------------------------------ report parsers

/** Jest's --json and vitest's json reporter share a format: testResults[].assertionResults[]. */
function parseJestLike(_exit: Exit, out: string): Outcome[] {
  const report = JSON.parse(fs.readFileSync(out, "utf8")) as {
    testResults: { assertionResults: { title: string; status: string; failureMessages?: string[] }[] }[];
  };
  return report.testResults.flatMap((file) =>
    file.assertionResults.map((a) => ({
      name: a.title,
      status: a.status === "passed" || a.status === "failed" ? a.status : "other",
      message: (a.failureMessages ?? []).join("\n"),
    })),
  );
}

function parseMocha(_exit: Exit, out: string): Outcome[] {
  interface MochaTest {
    title: string;
    err: { message?: string; stack?: string };
  }
  const report = JSON.parse(fs.readFileSync(out, "utf8")) as {
    tests: MochaTest[];
    passes: MochaTest[];
    failures: MochaTest[];
  };
  const passed = new Set(report.passes.map((t) => t.title));
  const failed = new Set(report.failures.map((t) => t.title));
  return report.tests.map((t) => ({
    name: t.title,
    status: failed.has(t.title) ? "failed" : passed.has(t.title) ? "passed" : "other",
    message: [t.err.message, t.err.stack].filter(Boolean).join("\n"),
  }));
}

/** node --test-reporter=tap: `ok N - name` / `not ok N - name`, each followed by a YAML block (`---` … `...`). */
function parseTap(exit: Exit): Outcome[] {
  const lines = exit.stdout.split(/\r?\n/);
  const outcomes: Outcome[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)(not ok|ok) \d+ - (.*?)(?: # (?:SKIP|TODO)\b.*)?$/.exec(lines[i]);
    if (!m) continue;
    const indent = m[1].length;
    const block: string[] = [];
    if (lines[i + 1]?.trim() === "---") {
      for (i += 2; i < lines.length; i++) {
        if (lines[i].trim() === "..." && lines[i].length - lines[i].trimStart().length === indent + 2) break;
        block.push(lines[i]);
      }
    }
    const failed = m[2] === "not ok";
    outcomes.push({
      name: m[3].replace(/\\#/g, "#").replace(/\\\\/g, "\\"),
      status: failed ? "failed" : "passed",
      message: failed ? block.join("\n") : "",
    });
  }
  return outcomes;
}

// ------------------------------------------------------------------------------------------------ runners

const RUNNERS: Record<string, Runner> = {
  "node:test": {
    args: () => ["--test", "--test-reporter=tap", path.join(EXAMPLES, "node-test.test.mjs")],
    parse: parseTap,
  },
  vitest: {
    args: (out) => [
      path.join("node_modules", "vitest", "vitest.mjs"),
      "run",
      "--config",
      path.join(EXAMPLES, "vitest.config.mjs"),
      "--reporter=json",
      `--outputFile=${out}`,
    ],
    parse: parseJestLike,
  },
  jest: {
    args: (out, tmp) => [
      path.join("node_modules", "jest", "bin", "jest.js"),
      "--config",
      path.join(EXAMPLES, "jest.config.cjs"),
      "--ci",
      "--json",
      "--outputFile",
      out,
      "--cacheDirectory",
      path.join(tmp, "jest-cache"),
    ],
    parse: parseJestLike,
  },
  mocha: {
    args: (out) => [
      path.join("node_modules", "mocha", "bin", "mocha.js"),
      "--no-config",
      "--no-package", // only what is on this command line
      "--timeout",
      "60000", // the default 2 s is tight on a loaded CI machine; the properties themselves take ms
      "--reporter",
      "json",
      "--reporter-option",
      `output=${out}`,
      path.join(EXAMPLES, "mocha.test.mjs"),
    ],
    parse: parseMocha,
  },
};

function run(args: string[]): Promise<Exit> {
  return runNode(args, ROOT, TIMEOUT_MS);
}

// ------------------------------------------------------------------------------------------------- tests

let tmp = "";
const runs = new Map<string, Promise<Exit>>();
const outFile = (name: string) => path.join(tmp, `${name.replace(/\W/g, "-")}.json`);

before(() => {
  for (const f of ["engine.mjs", "engine.cjs"]) {
    assert.ok(fs.existsSync(path.join(ROOT, "dist", f)), `dist/${f} is missing: run \`npm run build\` first`);
  }
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shrinkscope-runners-"));
  for (const [name, runner] of Object.entries(RUNNERS)) runs.set(name, run(runner.args(outFile(name), tmp)));
});

after(async () => {
  await Promise.all(runs.values()); // never leave a runner behind (each is bounded by TIMEOUT_MS)
  if (tmp !== "") fs.rmSync(tmp, { recursive: true, force: true });
});

function minimalArgs(message: string): string | undefined {
  return /Minimal failing arguments \(TypeScript\):\r?\n([^\r\n]*)/.exec(message)?.[1]?.trim();
}

for (const name of Object.keys(RUNNERS)) {
  test(`${name} runs property(...) as its test callback`, { timeout: TIMEOUT_MS + 30_000 }, async () => {
    const exit = await runs.get(name)!;
    const context = () =>
      `\n--- ${name} exited ${exit.code ?? exit.signal} after ${Math.round(exit.ms)} ms\n--- stdout:\n${exit.stdout.slice(-4000)}\n--- stderr:\n${exit.stderr.slice(-4000)}`;
    assert.equal(exit.error, undefined, `could not start ${name}: ${exit.error?.message}`);
    assert.ok(!exit.timedOut, `${name} did not finish within ${TIMEOUT_MS} ms${context()}`);
    assert.ok(
      exit.code !== null && exit.code !== 0,
      `${name} should exit non-zero (two tests fail on purpose)${context()}`,
    );

    let outcomes: Outcome[];
    try {
      outcomes = RUNNERS[name].parse(exit, outFile(name));
    } catch (e) {
      assert.fail(`could not read ${name}'s report: ${(e as Error).message}${context()}`);
    }
    const statuses = Object.fromEntries(outcomes.map((o) => [o.name, o.status]));
    const expected = { ...EXPECTED, ...CONCURRENT[name] };
    const concurrentFailures = outcomes
      .filter((o) => o.name in CONCURRENT[name] && o.status !== "passed")
      .map((o) => `\n--- "${o.name}" ${o.status}:\n${o.message.slice(0, 2000)}`)
      .join("");
    assert.equal(
      outcomes.length,
      Object.keys(expected).length,
      `${name} reported ${JSON.stringify(statuses)}${concurrentFailures}${context()}`,
    );
    assert.deepEqual(statuses, expected, `${name}: wrong outcomes${concurrentFailures}${context()}`);

    for (const [title, minimal] of Object.entries(MINIMAL)) {
      const { message } = outcomes.find((o) => o.name === title)!;
      assert.match(
        message,
        /Minimal failing arguments \(TypeScript\):/,
        `${name} "${title}": no shrinkscope report in\n${message}`,
      );
      assert.equal(minimalArgs(message), minimal, `${name} "${title}": wrong minimal example in\n${message}`);
    }
  });
}
