/**
 * A warm jest: the project's own jest kept in one process and asked for each run through its programmatic API
 * (runCLI), so a click pays for the test, not for starting Node and loading jest. Each run still reads the
 * project's config and gives the test file a fresh module registry and test environment, as `jest` in a
 * terminal does; the test runs in band, in this process.
 *
 * The protocol is vitestServer.ts's (one JSON line per run on stdin; `runner-done.json` in the run's tap
 * subfolder when it is over; the tap reads the run's settings from current.json), so
 * src/extension/runnerServer.ts drives both.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { createInterface } from "node:readline";
import type { RunLine, RunnerDone } from "./vitestServer.ts";

interface JestResults {
  readonly success: boolean;
  readonly numTotalTests: number;
  readonly testResults: readonly { readonly testExecError?: { readonly message?: string; readonly stack?: string } }[];
}

type RunCLI = (argv: Record<string, unknown>, projects: string[]) => Promise<{ results: JestResults }>;

function text(e: unknown): string {
  return e instanceof Error ? (e.stack ?? e.message) : String(e);
}

function main(): void {
  const jestDir = process.argv[2];
  const tapDir = process.env.SHRINKSCOPE_TAP;
  if (jestDir === undefined || tapDir === undefined) throw new Error("usage: jest-server <jest package folder> (with SHRINKSCOPE_TAP set)");
  const { runCLI } = require(jestDir) as { runCLI: RunCLI };
  process.stdout.write("shrinkscope: jest is ready\n");
  let queue = Promise.resolve();
  const lines = createInterface({ input: process.stdin });
  lines.on("line", (line) => {
    let request: RunLine;
    try {
      request = JSON.parse(line) as RunLine;
    } catch {
      return;
    }
    if (request.type !== "run" || !/^[\w-]+$/.test(request.run)) return;
    queue = queue.then(() => run(runCLI, tapDir, request));
  });
  lines.on("close", () => process.exit(0));
}

async function run(runCLI: RunCLI, tapDir: string, request: RunLine): Promise<void> {
  let done: RunnerDone;
  try {
    const { results } = await runCLI({ _: [request.file], $0: "jest", runTestsByPath: true, testNamePattern: request.pattern, watch: false, watchAll: false, runInBand: true }, [process.cwd()]);
    const errors = results.testResults.flatMap((t) => (t.testExecError ? [t.testExecError.stack ?? t.testExecError.message ?? "the test file failed to run"] : []));
    done = { ok: results.success, errors };
  } catch (e) {
    done = { ok: false, errors: [text(e)] };
  }
  const file = path.join(tapDir, request.run, "runner-done.json");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(done));
  fs.renameSync(`${file}.tmp`, file);
}

try {
  main();
} catch (e) {
  process.stderr.write(`shrinkscope: jest could not start: ${text(e)}\n`);
  process.exit(1);
}
