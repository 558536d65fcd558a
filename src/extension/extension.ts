/**
 * activate() only wires things (docs/contributing.md): every resource goes into context.subscriptions. The pieces —
 * CodeLens, runs in a child process, the panel, the Test Explorer, diagnostics and quick fixes — each live in
 * their own file.
 */
import * as vscode from "vscode";
import { PropertyCodeLensProvider, TEST_FILE_SELECTOR } from "./codeLens.ts";
import { debugProperty } from "./debug.ts";
import { FailureStore } from "./failures.ts";
import type { StoredFailure } from "./failures.ts";
import { Panel } from "./panel.ts";
import { CounterexampleActions, explicitExampleEdit, FailureDiagnostics, regressionEdit } from "./quickFix.ts";
import { discoverProperties } from "./discovery.ts";
import { RunManager } from "./runs.ts";
import { SharedFailureDiagnostics } from "./sharedDiagnostics.ts";
import { PropertyTests } from "./testController.ts";
import type { WebviewMessage } from "../shared/protocol.ts";

/** What the extension exposes to its in-host tests. */
export interface ShrinkscopeApi {
  readonly runs: RunManager;
  readonly failures: FailureStore;
  readonly panel: Panel;
  readonly tests: PropertyTests;
}

export function activate(context: vscode.ExtensionContext): ShrinkscopeApi {
  const output = vscode.window.createOutputChannel("Shrinkscope");
  const failures = new FailureStore();
  let lastRun: { uri: vscode.Uri; testPath: readonly string[] } | undefined;
  const panel = new Panel(context.extensionUri, (m) => void onPanelMessage(m));
  const runs = new RunManager(context.extensionUri, output, panel, failures);
  const debug = (uri: vscode.Uri, testPath: readonly string[]) => debugProperty(context.extensionUri, uri, testPath);
  const tests = new PropertyTests(runs, debug);
  const lenses = new PropertyCodeLensProvider();
  const diagnostics = new FailureDiagnostics(failures);
  const shared = new SharedFailureDiagnostics(output, failures);

  /** The property test under the cursor, or the last one run. */
  function target(
    uri?: vscode.Uri,
    testPath?: readonly string[],
  ): { uri: vscode.Uri; testPath: readonly string[] } | undefined {
    if (uri instanceof vscode.Uri && Array.isArray(testPath)) return { uri, testPath };
    const editor = vscode.window.activeTextEditor;
    if (editor) {
      const line = editor.selection.active.line;
      const found = discoverProperties(editor.document.getText(), { fileName: editor.document.fileName }).filter(
        (t) => t.range.startLine <= line && line <= t.range.endLine,
      );
      const innermost = found[found.length - 1];
      if (innermost) return { uri: editor.document.uri, testPath: innermost.path };
    }
    return lastRun;
  }

  function failureFor(uri?: vscode.Uri, testPath?: readonly string[]): StoredFailure | undefined {
    const t = target(uri, testPath);
    return t ? failures.get(t.uri.fsPath, t.testPath) : undefined;
  }

  async function applyToFailure(
    make: typeof regressionEdit,
    uri?: vscode.Uri,
    testPath?: readonly string[],
  ): Promise<void> {
    const f = failureFor(uri, testPath);
    if (f === undefined) {
      void vscode.window.showInformationMessage("Shrinkscope: no counterexample yet — run the property first.");
      return;
    }
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(f.file));
    const edit = make(doc, f);
    if (edit === undefined) {
      // No property call any more, or the file does not show enough to write the edit safely (a machine whose
      // class is out of scope there; a machine has no explicit examples).
      void vscode.window.showErrorMessage(
        "Shrinkscope: this fix cannot be written here: the property call is gone, or the file does not show enough to write it safely.",
      );
      return;
    }
    await vscode.workspace.applyEdit(edit);
  }

  async function onPanelMessage(m: WebviewMessage): Promise<void> {
    const f = lastRun ? failures.get(lastRun.uri.fsPath, lastRun.testPath) : undefined;
    switch (m.type) {
      case "copy-repro":
        if (f) await vscode.env.clipboard.writeText(f.failure.repro);
        break;
      case "convert-to-test":
        await applyToFailure(regressionEdit, lastRun?.uri, lastRun?.testPath);
        break;
      case "debug":
        if (lastRun) await debug(lastRun.uri, lastRun.testPath);
        break;
      case "run-fresh":
        if (lastRun) await runs.run(lastRun.uri, lastRun.testPath, { fresh: true });
        break;
      case "open-location": {
        // Only files of this workspace: the webview is untrusted.
        const uri = vscode.Uri.file(m.file);
        if (vscode.workspace.getWorkspaceFolder(uri) === undefined) return;
        const doc = await vscode.workspace.openTextDocument(uri);
        const pos = new vscode.Position(m.line - 1, m.column - 1);
        await vscode.window.showTextDocument(doc, {
          selection: new vscode.Range(pos, pos),
          viewColumn: vscode.ViewColumn.One,
        });
        break;
      }
    }
  }

  const run = async (uri?: vscode.Uri, testPath?: readonly string[], replayOnly = false) => {
    const t = target(uri, testPath);
    if (t === undefined) {
      void vscode.window.showInformationMessage(
        "Shrinkscope: put the cursor in a property test (a test whose callback is property(...)).",
      );
      return;
    }
    lastRun = t;
    await runs.run(t.uri, t.testPath, { replayOnly });
  };

  context.subscriptions.push(
    output,
    panel,
    runs,
    tests,
    lenses,
    diagnostics,
    shared,
    vscode.languages.registerCodeLensProvider(TEST_FILE_SELECTOR, lenses),
    vscode.languages.registerCodeActionsProvider(TEST_FILE_SELECTOR, new CounterexampleActions(failures), {
      providedCodeActionKinds: CounterexampleActions.kinds,
    }),
    vscode.commands.registerCommand("shrinkscope.runProperty", (uri?: vscode.Uri, testPath?: readonly string[]) =>
      run(uri, testPath),
    ),
    vscode.commands.registerCommand(
      "shrinkscope.replayMinimalExample",
      (uri?: vscode.Uri, testPath?: readonly string[]) => run(uri, testPath, true),
    ),
    vscode.commands.registerCommand(
      "shrinkscope.debugProperty",
      async (uri?: vscode.Uri, testPath?: readonly string[]) => {
        const t = target(uri, testPath);
        if (t) await debug(t.uri, t.testPath);
      },
    ),
    vscode.commands.registerCommand("shrinkscope.stop", () => runs.stop()),
    vscode.commands.registerCommand("shrinkscope.showPanel", () =>
      panel.show(lastRun?.testPath[lastRun.testPath.length - 1] ?? "no run yet"),
    ),
    vscode.commands.registerCommand("shrinkscope.convertToTest", (uri?: vscode.Uri, testPath?: readonly string[]) =>
      applyToFailure(regressionEdit, uri, testPath),
    ),
    vscode.commands.registerCommand(
      "shrinkscope.addExplicitExample",
      (uri?: vscode.Uri, testPath?: readonly string[]) => applyToFailure(explicitExampleEdit, uri, testPath),
    ),
    vscode.workspace.onDidChangeTextDocument((e) => diagnostics.refresh(e.document)),
    vscode.workspace.onDidOpenTextDocument((d) => {
      diagnostics.refresh(d);
      void shared.refresh(d);
    }),
    // A run of the file may have replayed (and, fixed, deleted) what the shared database held.
    failures.onDidChange((file) => {
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file);
      if (doc) void shared.refresh(doc, true);
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      lenses.refresh();
      runs.prewarm();
    }),
    // A vitest project's test file on screen: start its vitest now, so the first click finds it warm.
    vscode.window.onDidChangeActiveTextEditor((e) => {
      if (!e) return;
      runs.prewarmFor(e.document);
      void shared.refresh(e.document);
    }),
  );
  for (const e of vscode.window.visibleTextEditors) void shared.refresh(e.document);
  void tests.discoverWorkspace().then((files) => runs.startServersFor(files));
  runs.prewarm();
  if (vscode.window.activeTextEditor) runs.prewarmFor(vscode.window.activeTextEditor.document);
  return { runs, failures, panel, tests };
}

export function deactivate(): void {}
