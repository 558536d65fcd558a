/**
 * After a failure: a diagnostic on the property call naming the minimal example, and two quick fixes on it —
 * "Convert counterexample to test" (a plain regression test right after the enclosing test) and "Add as
 * explicit example" (pin the case in the property's settings so it always runs first; properties only).
 *
 * A machine's failure also gets a diagnostic on the failing invariant's or rule's method, in the test file or in
 * the workspace file its class is imported from (source/read/machineCall.ts finds it), the two linked to each other. So a
 * test file's failures may put diagnostics in other files: each test file's share is kept apart, and a file's
 * diagnostics are the union of the shares that point into it.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import type { DiscoveredTest } from "./discovery.ts";
import { discoverTests } from "./discovery.ts";
import type { FailureStore, StoredFailure } from "./failures.ts";
import { failingMethodSummary, failureSummary } from "./failures.ts";
import { moduleReader } from "./moduleReader.ts";
import type { ModuleReader } from "./source/read/index.ts";
import { failingMethod } from "./source/read/index.ts";
import type { TextInsertion } from "./source/write/index.ts";
import { explicitExample, regressionTest } from "./source/write/index.ts";
import { RETURNED_FALSE } from "../engine/internals.ts";

const CODE = "shrinkscope.counterexample";
/** The diagnostic on a machine's failing method: no quick fix hangs on it. */
const METHOD_CODE = "shrinkscope.failing-step";

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The discovered test a stored failure belongs to, in the document as it is now. */
export function findTest(document: vscode.TextDocument, testPath: readonly string[]): DiscoveredTest | undefined {
  return discoverTests(document.getText(), { fileName: document.fileName }).find((t) => samePath(t.path, testPath));
}

/** Modules the document imports, read from the workspace (open editors first). */
function readerFor(document: vscode.TextDocument): ModuleReader {
  const root = vscode.workspace.getWorkspaceFolder(document.uri)?.uri.fsPath ?? path.dirname(document.uri.fsPath);
  return moduleReader(document.uri.fsPath, root, (file) =>
    vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file)?.getText(),
  );
}

type Share = Map<string, { readonly uri: vscode.Uri; readonly diagnostics: vscode.Diagnostic[] }>;

export class FailureDiagnostics implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection("shrinkscope");
  /** Per test file: the diagnostics its failures put in each file (by URI). */
  private readonly shares = new Map<string, Share>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly failures: FailureStore) {
    this.subscription = failures.onDidChange((file) => {
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file);
      if (doc) this.refresh(doc);
    });
  }

  refresh(document: vscode.TextDocument): void {
    this.recompute(document);
    // A class file that changed moves the method diagnostics the test files put in it.
    const key = document.uri.toString();
    for (const [file, share] of [...this.shares]) {
      if (file === document.uri.fsPath || !share.has(key)) continue;
      const test = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file);
      if (test) this.recompute(test);
    }
  }

  private recompute(document: vscode.TextDocument): void {
    const share: Share = new Map();
    const add = (uri: vscode.Uri, d: vscode.Diagnostic) => {
      const entry = share.get(uri.toString()) ?? { uri, diagnostics: [] };
      entry.diagnostics.push(d);
      share.set(uri.toString(), entry);
    };
    for (const f of this.failures.inFile(document.uri.fsPath)) {
      const t = findTest(document, f.testPath);
      if (t?.propertyCall === undefined) continue;
      const start = new vscode.Position(t.propertyCall.line, t.propertyCall.character);
      const range = new vscode.Range(start, start.translate(0, t.propertyCall.callee.length));
      const d = new vscode.Diagnostic(range, failureSummary(f.failure), vscode.DiagnosticSeverity.Error);
      d.source = "shrinkscope";
      d.code = CODE;
      const related: vscode.DiagnosticRelatedInformation[] = [];
      if (f.failure.location) {
        const loc = new vscode.Location(
          vscode.Uri.file(f.failure.location.file),
          new vscode.Position(f.failure.location.line - 1, f.failure.location.column - 1),
        );
        related.push(
          new vscode.DiagnosticRelatedInformation(loc, `thrown here on the minimal example (seed ${f.failure.seed})`),
        );
      }
      const p = f.failure.presentation;
      const failedIn = p.kind === "steps" ? p.failedIn : undefined;
      const at =
        failedIn &&
        failingMethod(document.getText(), t.propertyCall.offset, failedIn, {
          fileName: document.fileName,
          callee: t.propertyCall.callee,
          readModule: readerFor(document),
        });
      if (at !== undefined && failedIn !== undefined) {
        const uri = at.fileName === undefined ? document.uri : vscode.Uri.file(at.fileName);
        const method = new vscode.Diagnostic(
          new vscode.Range(at.start.line, at.start.character, at.end.line, at.end.character),
          failingMethodSummary(f),
          vscode.DiagnosticSeverity.Error,
        );
        method.source = "shrinkscope";
        method.code = METHOD_CODE;
        method.relatedInformation = [
          new vscode.DiagnosticRelatedInformation(
            new vscode.Location(document.uri, range),
            "the machine whose minimal steps fail here",
          ),
        ];
        related.push(
          new vscode.DiagnosticRelatedInformation(
            new vscode.Location(uri, method.range),
            `the ${failedIn.kind} ${failedIn.name}, where the minimal steps fail`,
          ),
        );
        add(uri, method);
      }
      if (related.length > 0) d.relatedInformation = related;
      add(document.uri, d);
    }
    const before = this.shares.get(document.uri.fsPath);
    this.shares.set(document.uri.fsPath, share);
    const touched = new Map<string, vscode.Uri>([[document.uri.toString(), document.uri]]);
    for (const [key, entry] of [...(before ?? []), ...share]) touched.set(key, entry.uri);
    for (const [key, uri] of touched)
      this.collection.set(
        uri,
        [...this.shares.values()].flatMap((s) => s.get(key)?.diagnostics ?? []),
      );
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
    presentation: f.failure.presentation,
    readModule: readerFor(document),
    ...(f.failure.schedule ? { schedule: f.failure.schedule } : {}),
    ...(f.failure.error.message.startsWith(RETURNED_FALSE) ? { returnedFalse: true } : {}),
  });
  return insertion === undefined ? undefined : editFor(document, insertion);
}

/** The insertion and the others it makes (an import), each at its offset in the document as it is. */
function editFor(document: vscode.TextDocument, insertion: TextInsertion): vscode.WorkspaceEdit {
  const edit = new vscode.WorkspaceEdit();
  for (const e of [insertion, ...(insertion.also ?? [])])
    edit.replace(
      document.uri,
      new vscode.Range(document.positionAt(e.offset), document.positionAt(e.offset + (e.length ?? 0))),
      e.text,
    );
  return edit;
}

export function explicitExampleEdit(document: vscode.TextDocument, f: StoredFailure): vscode.WorkspaceEdit | undefined {
  const t = findTest(document, f.testPath);
  if (t?.propertyCall === undefined) return undefined;
  const insertion = explicitExample(
    document.getText(),
    t.propertyCall.offset,
    f.failure.presentation,
    document.fileName,
    t.propertyCall.callee,
  );
  return insertion === undefined ? undefined : editFor(document, insertion);
}

export class CounterexampleActions implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly failures: FailureStore) {}

  provideCodeActions(
    document: vscode.TextDocument,
    range: vscode.Range | vscode.Selection,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    const ours = context.diagnostics.filter((d) => d.code === CODE);
    const tests = discoverTests(document.getText(), { fileName: document.fileName });
    for (const f of this.failures.inFile(document.uri.fsPath)) {
      const t = tests.find((x) => samePath(x.path, f.testPath));
      if (t === undefined) continue;
      const testRange = new vscode.Range(
        t.range.startLine,
        t.range.startCharacter,
        t.range.endLine,
        t.range.endCharacter,
      );
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
