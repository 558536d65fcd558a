/**
 * Test Explorer: every property (and machine) in the workspace's test files (files that mention shrinkscope),
 * kept current on edits and file changes, runnable from the explorer and the gutter. A failure becomes a
 * TestMessage at the failing assertion carrying the minimal example (a machine's: its steps).
 */
import * as vscode from "vscode";
import type { DiscoveredTest } from "./discovery.ts";
import { propertiesOfFile } from "./discovery.ts";
import { failureMarkdown } from "./failures.ts";
import type { RunManager } from "./runs.ts";

const FILE_GLOB = "**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}";
const EXCLUDE = "**/{node_modules,dist,out,build,.git,.shrinkscope}/**";

interface TestData {
  readonly uri: vscode.Uri;
  readonly path: readonly string[];
}

export class PropertyTests implements vscode.Disposable {
  readonly controller = vscode.tests.createTestController("shrinkscope", "Shrinkscope properties");
  private readonly data = new WeakMap<vscode.TestItem, TestData>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly runs: RunManager,
    private readonly debug: (uri: vscode.Uri, path: readonly string[]) => Promise<void>,
  ) {
    this.controller.resolveHandler = async (item) => {
      if (item === undefined) await this.discoverWorkspace();
    };
    this.controller.refreshHandler = async () => void (await this.discoverWorkspace());
    this.controller.createRunProfile(
      "Run property",
      vscode.TestRunProfileKind.Run,
      (req, token) => this.runTests(req, token),
      true,
    );
    this.controller.createRunProfile(
      "Debug property",
      vscode.TestRunProfileKind.Debug,
      async (req) => {
        for (const item of this.leaves(req)) {
          const d = this.data.get(item);
          if (d) await this.debug(d.uri, d.path);
        }
      },
      true,
    );
    const watcher = vscode.workspace.createFileSystemWatcher(FILE_GLOB);
    watcher.onDidCreate((uri) => void this.updateFromDisk(uri), undefined, this.disposables);
    watcher.onDidChange((uri) => void this.updateFromDisk(uri), undefined, this.disposables);
    // A save may be a delete-and-rename under the hood: re-read instead of trusting the delete event.
    watcher.onDidDelete((uri) => void this.updateFromDisk(uri), undefined, this.disposables);
    vscode.workspace.onDidChangeTextDocument(
      (e) => this.update(e.document.uri, e.document.getText()),
      undefined,
      this.disposables,
    );
    vscode.workspace.onDidOpenTextDocument((d) => this.update(d.uri, d.getText()), undefined, this.disposables);
    vscode.workspace.onDidSaveTextDocument((d) => this.update(d.uri, d.getText()), undefined, this.disposables);
    this.disposables.push(watcher);
  }

  /** Scan the workspace; returns the files that hold properties, with their text. */
  async discoverWorkspace(): Promise<{ uri: vscode.Uri; text: string }[]> {
    const files = await vscode.workspace.findFiles(FILE_GLOB, EXCLUDE, 5000);
    const read = await Promise.all(files.map((uri) => this.updateFromDisk(uri)));
    return read.filter(
      (f): f is { uri: vscode.Uri; text: string } =>
        f !== undefined && this.controller.items.get(f.uri.toString()) !== undefined,
    );
  }

  private async updateFromDisk(uri: vscode.Uri): Promise<{ uri: vscode.Uri; text: string } | undefined> {
    if (uri.path.includes("/node_modules/")) return undefined;
    for (let attempt = 0; ; attempt++) {
      try {
        const bytes = await vscode.workspace.fs.readFile(uri);
        const text = new TextDecoder().decode(bytes);
        this.update(uri, text);
        return { uri, text };
      } catch {
        // Saving can replace a file by rename, so it may be missing for a moment: look again before
        // dropping its tests.
        if (attempt >= 2) break;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    this.controller.items.delete(uri.toString());
    return undefined;
  }

  /** Rebuild a file's items from its text (cheap: the scanner takes milliseconds). */
  update(uri: vscode.Uri, text: string): void {
    if (uri.scheme !== "file") return;
    const found = propertiesOfFile(uri.path, text);
    if (found.length === 0) {
      this.controller.items.delete(uri.toString());
      return;
    }
    const file = this.controller.createTestItem(uri.toString(), vscode.workspace.asRelativePath(uri), uri);
    for (const t of found) this.addTest(file, uri, t);
    this.controller.items.add(file);
  }

  private addTest(file: vscode.TestItem, uri: vscode.Uri, t: DiscoveredTest): void {
    let parent = file;
    t.path.slice(0, -1).forEach((name, depth) => {
      const id = `${uri.toString()}#${t.path.slice(0, depth + 1).join(" › ")}`;
      let suite = parent.children.get(id);
      if (suite === undefined) {
        suite = this.controller.createTestItem(id, name, uri);
        parent.children.add(suite);
      }
      parent = suite;
    });
    // VS Code reserves "\0" inside test ids (its own path separator), so ids join names with " › ".
    const id = `${uri.toString()}#${t.path.join(" › ")}`;
    const item = this.controller.createTestItem(id, t.path[t.path.length - 1], uri);
    item.range = new vscode.Range(t.range.startLine, t.range.startCharacter, t.range.endLine, t.range.endCharacter);
    this.data.set(item, { uri, path: t.path });
    parent.children.add(item);
  }

  private leaves(request: vscode.TestRunRequest): vscode.TestItem[] {
    const out: vscode.TestItem[] = [];
    const visit = (item: vscode.TestItem) => {
      if (request.exclude?.includes(item)) return;
      if (this.data.has(item)) out.push(item);
      item.children.forEach(visit);
    };
    if (request.include) request.include.forEach(visit);
    else this.controller.items.forEach(visit);
    return out;
  }

  private async runTests(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const run = this.controller.createTestRun(request);
    try {
      for (const item of this.leaves(request)) {
        if (token.isCancellationRequested) {
          run.skipped(item);
          continue;
        }
        const d = this.data.get(item);
        if (d === undefined) continue;
        run.started(item);
        const started = Date.now();
        const result = await this.runs.run(d.uri, d.path, { token });
        const duration = Date.now() - started;
        if (result === undefined) run.skipped(item);
        else if (result.outcome === "passed") run.passed(item, duration);
        else if (result.outcome === "failed" && result.failure) {
          const f = result.failure;
          const message = new vscode.TestMessage(new vscode.MarkdownString(failureMarkdown(f)));
          if (f.location)
            message.location = new vscode.Location(
              vscode.Uri.file(f.location.file),
              new vscode.Position(f.location.line - 1, f.location.column - 1),
            );
          else if (item.range) message.location = new vscode.Location(d.uri, item.range);
          run.failed(item, message, duration);
        } else if (result.outcome === "stopped") run.skipped(item);
        else
          run.errored(
            item,
            new vscode.TestMessage(result.reason ?? result.compileErrors[0]?.message ?? result.outcome),
            duration,
          );
      }
    } finally {
      run.end();
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.controller.dispose();
  }
}
