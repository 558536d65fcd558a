/** "Run property" and "Debug property" above every property test (discovery.ts finds them). */
import * as vscode from "vscode";
import { discoverProperties } from "./discovery.ts";

export const TEST_FILE_SELECTOR: vscode.DocumentSelector = [
  { scheme: "file", language: "typescript" },
  { scheme: "file", language: "typescriptreact" },
  { scheme: "file", language: "javascript" },
  { scheme: "file", language: "javascriptreact" },
];

export class PropertyCodeLensProvider implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  refresh(): void {
    this.changed.fire();
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const lenses: vscode.CodeLens[] = [];
    for (const t of discoverProperties(document.getText(), { fileName: document.fileName })) {
      const range = new vscode.Range(
        t.range.startLine,
        t.range.startCharacter,
        t.range.startLine,
        t.range.startCharacter,
      );
      const args = [document.uri, t.path];
      lenses.push(
        new vscode.CodeLens(range, {
          title: "Run property",
          command: "shrinkscope.runProperty",
          arguments: args,
          tooltip: `Run "${t.path.join(" › ")}" with Shrinkscope and watch it shrink`,
        }),
        new vscode.CodeLens(range, {
          title: "Debug property",
          command: "shrinkscope.debugProperty",
          arguments: args,
          tooltip: "Replay the saved minimal example under the debugger",
        }),
      );
    }
    return lenses;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
