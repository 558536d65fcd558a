/**
 * After a failure: a diagnostic on the property call naming the minimal example, and two quick fixes on it —
 * "Convert counterexample to test" (a plain regression test right after the enclosing test) and "Add as
 * explicit example" (pin the case in the property's settings so it always runs first).
 */
import * as vscode from "vscode";
import type { DiscoveredTest } from "./discovery.ts";
import { discoverTests } from "./discovery.ts";
import type { FailureStore, StoredFailure } from "./failures.ts";
import type { TextInsertion } from "./regression.ts";
import { explicitExample, regressionTest } from "./regression.ts";

const CODE = "shrinkscope.counterexample";

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The discovered test a stored failure belongs to, in the document as it is now. */
export function findTest(document: vscode.TextDocument, testPath: readonly string[]): DiscoveredTest | undefined {
  return discoverTests(document.getText(), { fileName: document.fileName }).find((t) => samePath(t.path, testPath));
}

export class FailureDiagnostics implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection("shrinkscope");
  private readonly subscription: vscode.Disposable;

  constructor(private readonly failures: FailureStore) {
    this.subscription = failures.onDidChange((file) => {
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file);
      if (doc) this.refresh(doc);
    });
  }

  refresh(document: vscode.TextDocument): void {
    const diagnostics: vscode.Diagnostic[] = [];
    for (const f of this.failures.inFile(document.uri.fsPath)) {
      const t = findTest(document, f.testPath);
      if (t?.propertyCall === undefined) continue;
      const start = new vscode.Position(t.propertyCall.line, t.propertyCall.character);
      const range = new vscode.Range(start, start.translate(0, t.propertyCall.callee.length));
      const d = new vscode.Diagnostic(range, `Property fails. Minimal example: ${f.failure.repro}\n${f.failure.error.name}: ${f.failure.error.message}`, vscode.DiagnosticSeverity.Error);
      d.source = "shrinkscope";
      d.code = CODE;
      if (f.failure.location) {
        const loc = new vscode.Location(vscode.Uri.file(f.failure.location.file), new vscode.Position(f.failure.location.line - 1, f.failure.location.column - 1));
        d.relatedInformation = [new vscode.DiagnosticRelatedInformation(loc, `thrown here on the minimal example (seed ${f.failure.seed})`)];
      }
      diagnostics.push(d);
    }
    this.collection.set(document.uri, diagnostics);
  }

  dispose(): void {
    this.subscription.dispose();
    this.collection.dispose();
  }
}

/** The edit that inserts the regression test for a failure, or undefined if the property cannot be found. */
export function regressionEdit(document: vscode.TextDocument, f: StoredFailure): vscode.WorkspaceEdit | undefined {
  const t = findTest(document, f.testPath);
  if (t?.propertyCall === undefined) return undefined;
  const source = document.getText();
  const insertion = regressionTest({
    source,
    fileName: document.fileName,
    propertyOffset: t.propertyCall.offset,
    callee: t.propertyCall.callee,
    kind: t.kind,
    name: t.path[t.path.length - 1],
    testLineStart: document.offsetAt(new vscode.Position(t.range.startLine, 0)),
    insertAt: t.insertAfter.offset,
    repro: f.failure.repro,
  });
  return insertion === undefined ? undefined : editFor(document, insertion);
}

function editFor(document: vscode.TextDocument, insertion: TextInsertion): vscode.WorkspaceEdit {
  const edit = new vscode.WorkspaceEdit();
  const start = document.positionAt(insertion.offset);
  edit.replace(document.uri, new vscode.Range(start, document.positionAt(insertion.offset + (insertion.length ?? 0))), insertion.text);
  return edit;
}

export function explicitExampleEdit(document: vscode.TextDocument, f: StoredFailure): vscode.WorkspaceEdit | undefined {
  const t = findTest(document, f.testPath);
  if (t?.propertyCall === undefined) return undefined;
  const insertion = explicitExample(document.getText(), t.propertyCall.offset, f.failure.repro, document.fileName, t.propertyCall.callee);
  return insertion === undefined ? undefined : editFor(document, insertion);
}

export class CounterexampleActions implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly failures: FailureStore) {}

  provideCodeActions(document: vscode.TextDocument, range: vscode.Range | vscode.Selection, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    const ours = context.diagnostics.filter((d) => d.code === CODE);
    const tests = discoverTests(document.getText(), { fileName: document.fileName });
    for (const f of this.failures.inFile(document.uri.fsPath)) {
      const t = tests.find((x) => samePath(x.path, f.testPath));
      if (t === undefined) continue;
      const testRange = new vscode.Range(t.range.startLine, t.range.startCharacter, t.range.endLine, t.range.endCharacter);
      if (!testRange.intersection(range) && ours.length === 0) continue;
      const convert = new vscode.CodeAction("Convert counterexample to test", vscode.CodeActionKind.QuickFix);
      convert.edit = regressionEdit(document, f);
      convert.isPreferred = true;
      convert.diagnostics = ours;
      const pin = new vscode.CodeAction("Add as explicit example", vscode.CodeActionKind.QuickFix);
      pin.edit = explicitExampleEdit(document, f);
      pin.diagnostics = ours;
      for (const a of [convert, pin]) if (a.edit) actions.push(a);
    }
    return actions;
  }
}
