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
 */
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { errorText, serveRuns, tapFolder, type RunLine, type RunnerDone } from "./serveRuns.ts";

interface VitestApi {
  setGlobalTestNamePattern(pattern: string | RegExp): void;
  getModuleSpecifications(moduleId: string): unknown[];
  globTestSpecifications(filters?: string[]): Promise<unknown[]>;
  runTestSpecifications(specs: unknown[], allTestsRun?: boolean): Promise<{ testModules: { ok(): boolean; errors(): { message?: string; stack?: string }[] }[]; unhandledErrors: unknown[] }>;
  onFilterWatchedSpecification(fn: (spec: unknown) => boolean): void;
  init(): Promise<void>;
  close(): Promise<void>;
}

async function main(): Promise<void> {
  const vitestDir = process.argv[2];
  const tapDir = tapFolder("usage: vitest-server <vitest package folder>");
  if (vitestDir === undefined) throw new Error("usage: vitest-server <vitest package folder>");
  const { createVitest } = (await import(pathToFileURL(path.join(vitestDir, "dist", "node.js")).href)) as { createVitest(mode: string, options: object): Promise<VitestApi> };
  const vitest = await createVitest("test", { watch: true });
  await vitest.init(); // the reporters (what the user sees in the output channel) and the watcher
  vitest.onFilterWatchedSpecification(() => false); // the host decides when to run
  process.stdout.write("shrinkscope: vitest is ready\n");
  // The host went away: so do we (and vitest's workers with us).
  serveRuns(tapDir, (request) => run(vitest, request), () => vitest.close());
}

async function run(vitest: VitestApi, request: RunLine): Promise<RunnerDone> {
  vitest.setGlobalTestNamePattern(new RegExp(request.pattern));
  let specs = vitest.getModuleSpecifications(request.file);
  if (specs.length === 0) specs = await vitest.globTestSpecifications([request.file]);
  if (specs.length === 0) return { ok: false, errors: [`vitest's config does not include ${path.relative(process.cwd(), request.file)} (see its test.include)`] };
  const result = await vitest.runTestSpecifications(specs, false);
  return {
    ok: result.unhandledErrors.length === 0 && result.testModules.every((m) => m.ok()),
    errors: [...result.testModules.flatMap((m) => m.errors().map(errorText)), ...result.unhandledErrors.map(errorText)],
  };
}

main().catch((e: unknown) => {
  process.stderr.write(`shrinkscope: vitest could not start: ${errorText(e)}\n`);
  process.exit(1);
});
