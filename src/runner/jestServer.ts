/**
 * A warm jest: the project's own jest kept in one process and asked for each run through its programmatic API
 * (runCLI), so a click pays for the test, not for starting Node and loading jest. Each run still reads the
 * project's config and gives the test file a fresh module registry and test environment, as `jest` in a
 * terminal does; the test runs in band, in this process.
 *
 * The protocol is serveRuns.ts's, vitestServer.ts's too, so src/extension/runnerServer.ts drives both.
 */
import { errorText, serveRuns, tapFolder, type RunnerDone } from "./serveRuns.ts";

interface JestResults {
  readonly success: boolean;
  readonly testResults: readonly { readonly testExecError?: { readonly message?: string; readonly stack?: string } }[];
}

type RunCLI = (argv: Record<string, unknown>, projects: string[]) => Promise<{ results: JestResults }>;

function main(): void {
  const jestDir = process.argv[2];
  const tapDir = tapFolder("usage: jest-server <jest package folder>");
  if (jestDir === undefined) throw new Error("usage: jest-server <jest package folder>");
  const { runCLI } = require(jestDir) as { runCLI: RunCLI };
  process.stdout.write("shrinkscope: jest is ready\n");
  serveRuns(tapDir, async (request): Promise<RunnerDone> => {
    const { results } = await runCLI(
      {
        _: [request.file],
        $0: "jest",
        runTestsByPath: true,
        testNamePattern: request.pattern,
        watch: false,
        watchAll: false,
        runInBand: true,
      },
      [process.cwd()],
    );
    const errors = results.testResults.flatMap((t) =>
      t.testExecError ? [t.testExecError.stack ?? t.testExecError.message ?? "the test file failed to run"] : [],
    );
    return { ok: results.success, errors };
  });
}

try {
  main();
} catch (e) {
  process.stderr.write(`shrinkscope: jest could not start: ${errorText(e)}\n`);
  process.exit(1);
}
