/**
 * Runs: one property at a time, in a child process (never the extension host) — the user's own test runner
 * when the file has one (runnerDetect.ts, externalRun.ts), else the bundled runner (src/runner) — its messages
 * fanned out to the panel, the output channel, the failure store and whoever started the run (a command or
 * the Test Explorer). Stop kills the process after it has flushed what it had.
 */
import * as vscode from "vscode";
import * as path from "node:path";
import type {
  CompileError,
  DoneMessage,
  EngineEvent,
  RunnerMessage,
  RunOutcome,
  RunRequest,
} from "../shared/protocol.ts";
import { prewarmRunner, startRun } from "./runnerClient.ts";
import type { RunHandle, WarmRunner } from "./runnerClient.ts";
import { ensureTrusted, runRequest } from "./config.ts";
import { propertiesOfFile } from "./discovery.ts";
import { startExternalRun } from "./externalRun.ts";
import { nodeExecutable } from "./nodePath.ts";
import { detectRunner, fullNamePattern, userRunnerCommand, type RunnerPlan } from "./runnerDetect.ts";
import { RunnerServer } from "./runnerServer.ts";
import type { FailureStore } from "./failures.ts";
import type { Panel } from "./panel.ts";
import { RunStatusItem } from "./statusItem.ts";

export interface RunOptions {
  readonly replayOnly?: boolean;
  /** Without replaying the example database's saved failures (the panel's "Run fresh"). */
  readonly fresh?: boolean;
  /** Receives every engine event (the Test Explorer counts them). */
  readonly onEvents?: (events: readonly EngineEvent[]) => void;
  readonly token?: vscode.CancellationToken;
}

export type RunResult = DoneMessage & { readonly compileErrors: readonly CompileError[] };

/** Kept runners started as a workspace opens, at most (each is a process; more start on first use). */
const MAX_STARTED_AT_OPEN = 3;

export class RunManager implements vscode.Disposable {
  private current: { stop(): void } | undefined;
  /** A runner process started ahead of the next run (its cold start is most of the click-to-first-case time). */
  private warm: WarmRunner | undefined;
  readonly compileDiagnostics = vscode.languages.createDiagnosticCollection("shrinkscope-compile");
  private readonly status = new RunStatusItem();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly output: vscode.OutputChannel,
    private readonly panel: Panel,
    private readonly failures: FailureStore,
  ) {}

  /** A file of the extension's dist folder. */
  private dist(name: string): string {
    return vscode.Uri.joinPath(this.extensionUri, "dist", name).fsPath;
  }

  private get runnerPath(): string {
    return this.dist("runner.js");
  }

  /** Start a spare runner (only where code may run: a trusted workspace). */
  prewarm(): void {
    if (!vscode.workspace.isTrusted || this.warm !== undefined) return;
    this.warm = prewarmRunner(this.runnerPath);
  }

  get running(): boolean {
    return this.current !== undefined;
  }

  stop(): void {
    this.current?.stop();
  }

  async run(uri: vscode.Uri, testPath: readonly string[], options: RunOptions = {}): Promise<RunResult | undefined> {
    if (!ensureTrusted()) return undefined;
    if (this.current !== undefined) this.current.stop();
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (doc?.isDirty) await doc.save();
    const { request, timeoutMs, runner } = runRequest(
      uri,
      testPath,
      options.replayOnly === true,
      options.fresh === true,
    );
    const workspaceRoot = request.workspaceRoot;
    const plan = detectRunner(uri.fsPath, workspaceRoot, runner, doc?.getText() ?? "");
    const via = plan.kind === "external" ? (plan.runner === "node" ? "node:test" : plan.runner) : "bundled runner";
    const title = testPath[testPath.length - 1] ?? path.basename(uri.fsPath);
    this.panel.show(title, true);
    this.panel.post({ type: "run-started", title, file: uri.fsPath, testPath, via });
    this.output.appendLine(
      `▶ ${testPath.join(" › ")} (${path.relative(workspaceRoot, uri.fsPath)}) — ${via}: ${plan.why}`,
    );
    this.compileDiagnostics.delete(uri);
    const compileErrors: CompileError[] = [];
    let handle: { stop(): void } | undefined;
    const statusToken = this.status.started(title, () => handle?.stop());
    const onMessage = (m: RunnerMessage) => {
      if (m.type === "events") {
        this.panel.post({ type: "events", events: m.events, dropped: m.dropped });
        this.status.events(m.events);
        options.onEvents?.(m.events);
      } else if (m.type === "log") this.output.append(m.text);
      else if (m.type === "compile-error") compileErrors.push(...m.errors);
    };
    const started = this.start(plan, request, timeoutMs, onMessage);
    handle = started;
    this.current = started;
    void vscode.commands.executeCommand("setContext", "shrinkscope.running", true);
    this.prewarm();
    const cancel = options.token?.onCancellationRequested(() => started.stop());
    let outcome: { outcome: RunOutcome; detail: string | undefined } = {
      outcome: "error",
      detail: "the run ended without a result",
    };
    try {
      const done = await started.done;
      outcome = {
        outcome: done.outcome,
        detail: done.failure !== undefined ? `minimal example: ${done.failure.repro}` : done.reason?.split("\n")[0],
      };
      this.report(uri, testPath, done, compileErrors);
      return { ...done, compileErrors };
    } finally {
      this.status.finished(statusToken, outcome.outcome, outcome.detail);
      cancel?.dispose();
      if (this.current === started) {
        this.current = undefined;
        void vscode.commands.executeCommand("setContext", "shrinkscope.running", false);
      }
    }
  }

  /** A warm vitest or jest per project folder and runner, kept across runs (restarted when its config changes). */
  private readonly servers = new Map<string, RunnerServer>();

  private server(plan: RunnerPlan & { kind: "external" }): RunnerServer | undefined {
    if (plan.runner !== "vitest" && plan.runner !== "jest") return undefined;
    const key = `${plan.runner}:${plan.projectDir}`;
    let server = this.servers.get(key);
    if (server === undefined) {
      // bin is vitest.mjs in the package folder, or jest's bin/jest.js.
      const packageDir = plan.runner === "vitest" ? path.dirname(plan.bin!) : path.dirname(path.dirname(plan.bin!));
      server = new RunnerServer({
        projectDir: plan.projectDir,
        packageDir,
        serverScript: this.dist(`${plan.runner}-server.cjs`),
        tapModule: this.dist("tap.cjs"),
        node: nodeExecutable(),
      });
      this.servers.set(key, server);
    }
    return server;
  }

  /**
   * Start the vitest or jest of the projects these property files belong to, as the workspace opens (the vitest
   * extension starts its vitest then too): the first click then finds the runner started, its config, plugins and
   * a file of the project loaded (prewarmFor loads the file shown, if another). A trusted workspace only; a few
   * projects.
   */
  startServersFor(files: readonly { uri: vscode.Uri; text: string }[]): void {
    if (!vscode.workspace.isTrusted) return;
    const started = new Set<RunnerServer>();
    for (const { uri, text } of files) {
      if (started.size >= MAX_STARTED_AT_OPEN) break;
      const server = this.serverFor(uri, text);
      if (server === undefined || started.has(server)) continue;
      started.add(server);
      // Its first property file loaded too: the worker, test environment and transforms the first click needs
      // are then ready, and no runner work competes with the workbench when a file is opened and clicked.
      void server.warmUp(uri.fsPath);
    }
  }

  /**
   * Start the project's vitest or jest ahead of a click, and have it load the file (a run no test matches), so
   * that the first click finds the runner warm — a trusted workspace only: called when its test file is shown.
   */
  prewarmFor(document: vscode.TextDocument): void {
    // Not for a package.json that names shrinkscope: a warm-up occupies the runner a click would wait for.
    if (
      !vscode.workspace.isTrusted ||
      document.uri.scheme !== "file" ||
      propertiesOfFile(document.uri.path, document.getText()).length === 0
    )
      return;
    void this.serverFor(document.uri, document.getText())?.warmUp(document.uri.fsPath);
  }

  /** The kept vitest or jest that would run this file's properties, if its runner is one of those. */
  private serverFor(uri: vscode.Uri, text: string): RunnerServer | undefined {
    const { request, runner } = runRequest(uri, [], false);
    const plan = detectRunner(uri.fsPath, request.workspaceRoot, runner, text);
    return plan.kind === "external" ? this.server(plan) : undefined;
  }

  /** The user's runner with the tap, or the bundled runner (warm if one is waiting). */
  private start(
    plan: RunnerPlan,
    request: RunRequest,
    timeoutMs: number,
    onMessage: (m: RunnerMessage) => void,
  ): RunHandle {
    const server = plan.kind === "external" ? this.server(plan) : undefined;
    if (server !== undefined && plan.kind === "external") {
      this.output.appendLine(
        `  ${plan.runner} (kept running in ${plan.projectDir}) --testNamePattern ${fullNamePattern(request.testPath)} ${request.file}`,
      );
      return server.run(request, fullNamePattern(request.testPath), { timeoutMs, onMessage });
    }
    if (plan.kind === "external") {
      const command = userRunnerCommand(plan, request.file, request.testPath);
      this.output.appendLine(
        `  ${[command.execPath, ...command.args].map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(" ")}   (in ${command.cwd})`,
      );
      return startExternalRun({ command, request, tapModule: this.dist("tap.cjs"), timeoutMs, onMessage });
    }
    const warm = this.warm;
    this.warm = undefined;
    return startRun({ runnerPath: this.runnerPath, ...(warm ? { warm } : {}), request, timeoutMs, onMessage });
  }

  private report(
    uri: vscode.Uri,
    testPath: readonly string[],
    done: DoneMessage,
    compileErrors: readonly CompileError[],
  ): void {
    this.panel.post({
      type: "run-finished",
      outcome: done.outcome,
      ...(done.failure ? { failure: done.failure } : {}),
      ...(done.reason ? { reason: done.reason } : {}),
    });
    if (done.outcome === "failed" && done.failure) {
      this.failures.set(uri.fsPath, testPath, done.failure);
      this.output.appendLine(done.failure.message);
    } else if (done.outcome === "passed") {
      this.failures.set(uri.fsPath, testPath, undefined);
      this.output.appendLine("✓ passed");
    } else if (done.reason) {
      this.output.appendLine(`${done.outcome}: ${done.reason}`);
    }
    if (compileErrors.length > 0) {
      const byFile = new Map<string, vscode.Diagnostic[]>();
      for (const e of compileErrors) {
        const file = e.location?.file ?? uri.fsPath;
        const line = Math.max(0, (e.location?.line ?? 1) - 1);
        const col = Math.max(0, (e.location?.column ?? 1) - 1);
        const d = new vscode.Diagnostic(
          new vscode.Range(line, col, line, col + 1),
          `Shrinkscope could not compile the test file: ${e.message}`,
          vscode.DiagnosticSeverity.Error,
        );
        d.source = "shrinkscope";
        byFile.set(file, [...(byFile.get(file) ?? []), d]);
      }
      for (const [file, ds] of byFile) this.compileDiagnostics.set(vscode.Uri.file(file), ds);
      void vscode.window.showErrorMessage(`Shrinkscope: the test file does not compile — ${compileErrors[0].message}`);
    } else if (done.outcome === "error" || done.outcome === "not-found") {
      void vscode.window.showErrorMessage(`Shrinkscope: ${done.reason ?? done.outcome}`);
    }
  }

  dispose(): void {
    this.current?.stop();
    for (const s of this.servers.values()) s.dispose();
    this.warm?.dispose();
    this.compileDiagnostics.dispose();
    this.status.dispose();
  }
}
