/**
 * "Failed elsewhere": when the workspace shares a failure database (`shrinkscope.sharedDatabaseUrl`, or
 * SHRINKSCOPE_DATABASE_URL in VS Code's environment), a test file that is opened gets a diagnostic on each
 * property with a failure saved there by another machine — the minimal example as that run printed it. "Run
 * property" replays it first (runs pass the URL on: runConfig.ts). Only in a trusted workspace (the client
 * package is loaded from the workspace's node_modules).
 */
import * as path from "node:path";
import * as vscode from "vscode";
import { discoverProperties } from "./discovery.ts";
import type { FailureStore } from "./failures.ts";
import { sharedDatabaseUrl } from "./runConfig.ts";
import { matchesTest, readSharedFailures, sharedFailureMessage } from "./sharedFailures.ts";
import { redactUrl } from "../engine/internals.ts";

/** A file is read again at most this often (opening, switching back to it). */
const REFRESH_MS = 10_000;

export class SharedFailureDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection("shrinkscope-shared");
  private readonly readAt = new Map<string, number>();
  private readonly problems = new Set<string>();

  constructor(
    private readonly output: vscode.OutputChannel,
    /** This session's own runs: a property that failed here shows that failure (FailureDiagnostics), not this one. */
    private readonly failures: FailureStore,
  ) {}

  /** Read the shared failures of `doc`'s properties (unless read within REFRESH_MS, or `force`). */
  async refresh(doc: vscode.TextDocument, force = false): Promise<void> {
    if (doc.uri.scheme !== "file" || !vscode.workspace.isTrusted) return;
    const folder = vscode.workspace.getWorkspaceFolder(doc.uri);
    if (folder === undefined) return;
    const c = vscode.workspace.getConfiguration("shrinkscope", doc.uri);
    const url = sharedDatabaseUrl((key, fallback) => c.get(key, fallback));
    if (url === undefined) return;
    const tests = discoverProperties(doc.getText(), { fileName: doc.fileName });
    if (tests.length === 0) return;
    const file = doc.uri.fsPath;
    const now = Date.now();
    if (!force && now - (this.readAt.get(file) ?? -Infinity) < REFRESH_MS) return;
    this.readAt.set(file, now);
    const relative = path.relative(folder.uri.fsPath, file).split(path.sep).join("/");
    let found;
    try {
      found = await readSharedFailures(url, relative, { project: folder.uri.fsPath });
    } catch (e) {
      const why = `Shrinkscope: the shared database ${redactUrl(url)} could not be read: ${(e as Error).message}`;
      if (!this.problems.has(why)) this.output.appendLine(why);
      this.problems.add(why);
      return;
    }
    const diagnostics: vscode.Diagnostic[] = [];
    for (const t of tests) {
      const f = found.find((s) => matchesTest(s.testName, t.path));
      if (f === undefined || this.failures.get(file, t.path) !== undefined) continue;
      const at = t.propertyCall ?? { line: t.range.startLine, character: t.range.startCharacter };
      const d = new vscode.Diagnostic(
        new vscode.Range(at.line, at.character, at.line, at.character + 1),
        sharedFailureMessage(f, url),
        vscode.DiagnosticSeverity.Warning,
      );
      d.source = "Shrinkscope";
      d.code = "failed-elsewhere";
      diagnostics.push(d);
    }
    this.collection.set(doc.uri, diagnostics);
  }

  dispose(): void {
    this.collection.dispose();
  }
}
