/**
 * A warm vitest: the project's own vitest, started once through its Node API (as the vitest extension keeps
 * one) and kept for the next runs, so a click does not pay vitest's start — its config, its plugins, the
 * test environment's import. The host (src/extension/runnerServer.ts) starts it in the project's folder with the
 * tap's folder in its environment (SHRINKSCOPE_TAP), and sends one JSON line per run on stdin:
 *
 *   {"type":"run","run":"<id>","file":"<absolute test file>","pattern":"<name filter>"}
 *
 * Before each run the host writes the folder's current.json (the run's id, the editor's settings), which the
 * tap in vitest's workers reads when the property starts (src/runner/tap.ts); their messages go to the run's
 * subfolder. When the run is over, serveRuns.ts writes `runner-done.json` there: whether vitest counted it a success
 * and the errors it reported (a hook that failed, a file that does not compile), as vitest's exit code would.
 *
 * Vite's file watcher stays on, so a source file the user edits between runs is reloaded; vitest's own reruns
 * on change are filtered out: a run happens only when the host asks. vitest's reporter output goes to
 * stdout/stderr, which the host shows in its output channel.
 *
 * vitest forks a fresh worker for each run (its isolation, kept as the project configures it); the next one is
 * forked when a run ends and imports its test environment while the user looks at the result (spareWorker.ts).
 */
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { errorText, serveRuns, tapFolder, type RunLine, type RunnerDone } from "./serveRuns.ts";
import { SpareWorker } from "./spareWorker.ts";

interface VitestApi {
  setGlobalTestNamePattern(pattern: string | RegExp): void;
  getModuleSpecifications(moduleId: string): Spec[];
  globTestSpecifications(filters?: string[]): Promise<Spec[]>;
  runTestSpecifications(
    specs: Spec[],
    allTestsRun?: boolean,
  ): Promise<{
    testModules: { ok(): boolean; errors(): { message?: string; stack?: string }[] }[];
    unhandledErrors: unknown[];
  }>;
  onFilterWatchedSpecification(fn: (spec: unknown) => boolean): void;
  init(): Promise<void>;
  close(): Promise<void>;
}

interface Spec {
  readonly project: { readonly config: { readonly environment?: string } };
}

/** vitest's built-in environments that import a package of that name (the spare worker preloads it). */
const ENVIRONMENT_PACKAGES = new Set(["jsdom", "happy-dom"]);

async function main(): Promise<void> {
  const vitestDir = process.argv[2];
  const tapDir = tapFolder("usage: vitest-server <vitest package folder>");
  if (vitestDir === undefined) throw new Error("usage: vitest-server <vitest package folder>");
  const { createVitest } = (await import(pathToFileURL(path.join(vitestDir, "dist", "node.js")).href)) as {
    createVitest(mode: string, options: object): Promise<VitestApi>;
  };
  // By real path: the host names vitest's folder as the project sees it (a symlink under pnpm, or a linked
  // node_modules), while vitest forks its worker by the path Node resolved its own modules to.
  const workerScript = fs.realpathSync(path.join(vitestDir, "dist", "workers", "forks.js"));
  const isWorker = (p: string): boolean => {
    try {
      return fs.realpathSync(path.resolve(p)) === workerScript;
    } catch {
      return false;
    }
  };
  const spare = new SpareWorker(
    isWorker,
    path.join(tapDir, "spare-preload.cjs"),
    // Said in the output channel, with the run's output: this run did not wait for its worker to start.
    () =>
      process.stdout.write(
        "shrinkscope: vitest runs this file in a worker started before the run (its test environment already imported)\n",
      ),
  );
  const requireFromVitest = createRequire(fs.realpathSync(path.join(vitestDir, "package.json"))); // where vitest itself resolves from
  const vitest = await createVitest("test", { watch: true });
  await vitest.init(); // the reporters (what the user sees in the output channel) and the watcher
  vitest.onFilterWatchedSpecification(() => false); // the host decides when to run
  process.stdout.write("shrinkscope: vitest is ready\n");
  // The host went away: so do we (and vitest's workers with us).
  serveRuns(
    tapDir,
    async (request) => {
      const done = await run(vitest, spare, request, requireFromVitest);
      // The next worker starts when this run is over, not beside it: on a busy 2-core machine a spare importing
      // jsdom during the run slowed the run's own worker (first case 0.74–1.0 s instead of 0.41–0.54 s, driven
      // with one core kept busy), and the user's next click comes after the run anyway.
      spare.prepare(preloads(done.specs, requireFromVitest));
      return done.result;
    },
    () => {
      spare.dispose();
      return vitest.close();
    },
  );
}

/** The environment packages the specs' projects import in each worker, resolved as vitest resolves them. */
function preloads(specs: readonly Spec[], requireFromVitest: NodeJS.Require): string[] {
  const names = new Set(
    specs.map((s) => s.project.config.environment ?? "node").filter((e) => ENVIRONMENT_PACKAGES.has(e)),
  );
  return [...names].flatMap((name) => {
    try {
      return [requireFromVitest.resolve(name)];
    } catch {
      return []; // not installed: vitest says so when it loads the environment
    }
  });
}

async function run(
  vitest: VitestApi,
  spare: SpareWorker,
  request: RunLine,
  requireFromVitest: NodeJS.Require,
): Promise<{ result: RunnerDone; specs: Spec[] }> {
  vitest.setGlobalTestNamePattern(new RegExp(request.pattern));
  let specs = vitest.getModuleSpecifications(request.file);
  if (specs.length === 0) specs = await vitest.globTestSpecifications([request.file]);
  if (specs.length === 0)
    return {
      specs,
      result: {
        ok: false,
        errors: [
          `vitest's config does not include ${path.relative(process.cwd(), request.file)} (see its test.include)`,
        ],
      },
    };
  const result = await vitest.runTestSpecifications(specs, false);
  return {
    specs,
    result: {
      ok: result.unhandledErrors.length === 0 && result.testModules.every((m) => m.ok()),
      errors: [
        ...result.testModules.flatMap((m) => m.errors().map(errorText)),
        ...result.unhandledErrors.map(errorText),
      ],
    },
  };
}

main().catch((e: unknown) => {
  process.stderr.write(`shrinkscope: vitest could not start: ${errorText(e)}\n`);
  process.exit(1);
});
