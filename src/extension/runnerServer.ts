/**
 * A test runner kept warm per project: vitest through its Node API (src/runner/vitestServer.ts), jest through
 * runCLI (src/runner/jestServer.ts). The first run pays the runner's start (Node, the runner's modules; for
 * vitest its config, plugins and test environment too), the next ones only the test itself. Node only, no
 * vscode import.
 *
 * One server serves one run at a time (runs are serialised by the host anyway). A run is a RunSource for
 * externalRun.ts's supervisor: its messages come from the tap's per-run subfolder, it ends when the server
 * writes runner-done.json there (or dies: a crash, or a kill after a Stop the property did not obey — the
 * next run then starts a new server). The server restarts by itself when the project's config files change,
 * since vitest reads them only at start (jest reads its config on every run; restarting costs it little).
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { CURRENT_RUN_FILE, TAP_ENV, type RunRequest } from "../shared/protocol.ts";
import { killGroup, superviseRun, type RunSource, type StartExternalRunOptions } from "./externalRun.ts";
import type { RunHandle } from "./runnerClient.ts";

const CONFIG =
  /^(vite|vitest|jest)\.(config|workspace)\.([cm]?[jt]s|json)$|^package\.json$|^tsconfig\.json$|^babel\.config\.[cm]?js(on)?$|^\.babelrc/;
const POLL_MS = 40;
/** A name filter no test name matches (an empty lookahead never holds), for warmUp. */
const NO_TEST = "(?!)";

export interface RunnerServerOptions {
  readonly projectDir: string;
  /** The project's runner package folder (vitest's, jest's). */
  readonly packageDir: string;
  /** dist/vitest-server.cjs or dist/jest-server.cjs, and dist/tap.cjs. */
  readonly serverScript: string;
  readonly tapModule: string;
  readonly node: { readonly path: string; readonly env?: Readonly<Record<string, string>> };
  readonly baseEnv?: NodeJS.ProcessEnv;
}

export class RunnerServer {
  private child: ChildProcess | undefined;
  private readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), "shrinkscope-warm-"));
  private configStamp = "";
  private listeners: ((stream: "stdout" | "stderr", text: string) => void)[] = [];
  private runs = 0;
  /** Files warmed up since the server started (warmUp). */
  private warmed = new Set<string>();

  constructor(private readonly o: RunnerServerOptions) {}

  /** Start the server now if it is not running (or its config changed), so the next run finds it warm. */
  ensureStarted(): void {
    const stamp = this.stamp();
    if (this.alive && stamp === this.configStamp) return;
    this.stopServer();
    this.configStamp = stamp;
    this.warmed = new Set();
    const env: NodeJS.ProcessEnv = { ...(this.o.baseEnv ?? process.env) };
    delete env.ELECTRON_RUN_AS_NODE;
    Object.assign(env, this.o.node.env, { NO_COLOR: "1", [TAP_ENV.dir]: this.dir, [TAP_ENV.module]: this.o.tapModule });
    delete env.FORCE_COLOR;
    const child = spawn(this.o.node.path, [this.o.serverScript, this.o.packageDir], {
      cwd: this.o.projectDir,
      env,
      stdio: ["pipe", "pipe", "pipe"],
      detached: process.platform !== "win32",
    });
    child.on("error", () => {});
    child.stdin?.on("error", () => {});
    child.stdout?.setEncoding("utf8").on("data", (d: string) => this.listeners.forEach((l) => l("stdout", d)));
    child.stderr?.setEncoding("utf8").on("data", (d: string) => this.listeners.forEach((l) => l("stderr", d)));
    this.child = child;
  }

  /** The server's process id (tests, diagnostics). */
  get pid(): number | undefined {
    return this.alive ? this.child?.pid : undefined;
  }

  get alive(): boolean {
    const c = this.child;
    return c !== undefined && c.pid !== undefined && c.exitCode === null && c.signalCode === null;
  }

  /**
   * Run `file` once with a name filter no test matches, so that the first real run on it finds its transforms,
   * imports and test environment loaded (the runner collects a file before filtering its tests). Once per file
   * and server start; its output is not shown (a real run reports the same errors). The server serves one run
   * at a time: a click during the warm-up waits for its end, which is still sooner than starting cold.
   */
  warmUp(file: string): Promise<void> {
    this.ensureStarted();
    const key = path.resolve(file);
    if (this.warmed.has(key)) return Promise.resolve();
    this.warmed.add(key);
    this.listeners = [];
    const { runDir, finished } = this.send(key, NO_TEST);
    return finished.then(() => fs.rmSync(runDir, { recursive: true, force: true }));
  }

  /** The folder the runs' messages go to (tests, diagnostics). */
  get tapDir(): string {
    return this.dir;
  }

  /** One run on the warm server (started now if needed). */
  run(
    request: RunRequest,
    pattern: string,
    o: Pick<StartExternalRunOptions, "timeoutMs" | "stopGraceMs" | "onMessage">,
  ): RunHandle {
    this.ensureStarted();
    const child = this.child!;
    const listeners: ((stream: "stdout" | "stderr", text: string) => void)[] = [];
    this.listeners = [(s, t) => listeners.forEach((l) => l(s, t))];
    const { runDir, finished } = this.send(path.resolve(request.file), pattern, request, (errors) =>
      listeners.forEach((l) => l("stderr", `${errors.join("\n")}\n`)),
    );
    const source: RunSource = {
      dir: runDir,
      pid: child.pid,
      finished,
      onOutput: (l) => void listeners.push(l),
      kill: () => killGroup(child),
      cleanup: () => fs.rmSync(runDir, { recursive: true, force: true }),
    };
    return superviseRun(source, { request, ...o });
  }

  /**
   * Ask the server for one run of `file` filtered by `pattern` (with `request`'s settings in current.json, for
   * the tap); `finished` resolves as a process exit would, when runner-done.json appears in the run's folder or
   * the server dies.
   */
  private send(
    file: string,
    pattern: string,
    request?: RunRequest,
    reportErrors?: (errors: string[]) => void,
  ): { runDir: string; finished: Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }> } {
    const child = this.child!;
    const id = `run-${process.pid}-${++this.runs}-${Date.now()}`;
    const runDir = path.join(this.dir, id);
    fs.mkdirSync(runDir, { recursive: true });
    if (request !== undefined) {
      const current = path.join(this.dir, CURRENT_RUN_FILE);
      fs.writeFileSync(
        `${current}.tmp`,
        JSON.stringify({ run: id, settings: request.settings, file, root: path.resolve(request.workspaceRoot) }),
      );
      fs.renameSync(`${current}.tmp`, current);
    }
    const finished = new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
      const doneFile = path.join(runDir, "runner-done.json");
      const timer = setInterval(() => {
        let text: string | undefined;
        try {
          text = fs.readFileSync(doneFile, "utf8");
        } catch {
          return;
        }
        clearInterval(timer);
        child.off("exit", onExit);
        let done: { ok?: unknown; errors?: unknown } = {};
        try {
          done = JSON.parse(text) as typeof done;
        } catch {
          // written whole (a rename): unreadable only if tampered with; counted a failure
        }
        const errors = Array.isArray(done.errors) ? done.errors.map(String) : [];
        if (errors.length > 0) reportErrors?.(errors);
        resolve({ code: done.ok === true ? 0 : 1, signal: null });
      }, POLL_MS);
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        clearInterval(timer);
        resolve({ code: code === 0 ? 1 : code, signal });
      };
      child.once("exit", onExit);
      child.once("error", (error) => (clearInterval(timer), resolve({ code: null, signal: null, error })));
    });
    child.stdin?.write(`${JSON.stringify({ type: "run", run: id, file, pattern })}\n`);
    return { runDir, finished };
  }

  dispose(): void {
    this.stopServer();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private stopServer(): void {
    if (this.child !== undefined) killGroup(this.child);
    this.child = undefined;
  }

  /** The config files' names and modification times: a change restarts the server. */
  private stamp(): string {
    try {
      return fs
        .readdirSync(this.o.projectDir)
        .filter((n) => CONFIG.test(n))
        .sort()
        .map((n) => `${n}:${fs.statSync(path.join(this.o.projectDir, n)).mtimeMs}`)
        .join("|");
    } catch {
      return "";
    }
  }
}
