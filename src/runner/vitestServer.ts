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
 * subfolder. When the run is over, this writes `runner-done.json` there: whether vitest counted it a success
 * and the errors it reported (a hook that failed, a file that does not compile), as vitest's exit code would.
 *
 * Vite's file watcher stays on, so a source file the user edits between runs is reloaded; vitest's own reruns
 * on change are filtered out: a run happens only when the host asks. vitest's reporter output goes to
 * stdout/stderr, which the host shows in its output channel.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { createInterface } from "node:readline";

interface VitestApi {
  setGlobalTestNamePattern(pattern: string | RegExp): void;
  getModuleSpecifications(moduleId: string): unknown[];
  globTestSpecifications(filters?: string[]): Promise<unknown[]>;
  runTestSpecifications(specs: unknown[], allTestsRun?: boolean): Promise<{ testModules: { ok(): boolean; errors(): { message?: string; stack?: string }[] }[]; unhandledErrors: unknown[] }>;
  onFilterWatchedSpecification(fn: (spec: unknown) => boolean): void;
  init(): Promise<void>;
  close(): Promise<void>;
}

export interface RunLine {
  readonly type: "run";
  readonly run: string;
  readonly file: string;
  readonly pattern: string;
}

export interface RunnerDone {
  readonly ok: boolean;
  readonly errors: readonly string[];
}

function text(e: unknown): string {
  if (e instanceof Error) return e.stack ?? e.message;
  const o = e as { message?: unknown; stack?: unknown } | null;
  return typeof o?.stack === "string" ? o.stack : typeof o?.message === "string" ? o.message : String(e);
}

async function main(): Promise<void> {
  const vitestDir = process.argv[2];
  const tapDir = process.env.SHRINKSCOPE_TAP;
  if (vitestDir === undefined || tapDir === undefined) throw new Error("usage: vitest-server <vitest package folder> (with SHRINKSCOPE_TAP set)");
  const { createVitest } = (await import(pathToFileURL(path.join(vitestDir, "dist", "node.js")).href)) as { createVitest(mode: string, options: object): Promise<VitestApi> };
  const vitest = await createVitest("test", { watch: true });
  await vitest.init(); // the reporters (what the user sees in the output channel) and the watcher
  vitest.onFilterWatchedSpecification(() => false); // the host decides when to run
  process.stdout.write("shrinkscope: vitest is ready\n");
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
    queue = queue.then(() => run(vitest, tapDir, request));
  });
  // The host went away: so do we (and vitest's workers with us).
  lines.on("close", () => void vitest.close().finally(() => process.exit(0)));
}

async function run(vitest: VitestApi, tapDir: string, request: RunLine): Promise<void> {
  let done: RunnerDone;
  try {
    vitest.setGlobalTestNamePattern(new RegExp(request.pattern));
    let specs = vitest.getModuleSpecifications(request.file);
    if (specs.length === 0) specs = await vitest.globTestSpecifications([request.file]);
    if (specs.length === 0) {
      done = { ok: false, errors: [`vitest's config does not include ${path.relative(process.cwd(), request.file)} (see its test.include)`] };
    } else {
      const result = await vitest.runTestSpecifications(specs, false);
      done = {
        ok: result.unhandledErrors.length === 0 && result.testModules.every((m) => m.ok()),
        errors: [...result.testModules.flatMap((m) => m.errors().map(text)), ...result.unhandledErrors.map(text)],
      };
    }
  } catch (e) {
    done = { ok: false, errors: [text(e)] };
  }
  const file = path.join(tapDir, request.run, "runner-done.json");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(done));
  fs.renameSync(`${file}.tmp`, file); // whole or not at all: the host polls for it
}

main().catch((e: unknown) => {
  process.stderr.write(`shrinkscope: vitest could not start: ${text(e)}\n`);
  process.exit(1);
});
