/**
 * The "Shrinkscope" webview panel: created beside the editor when a run starts, fed the run's events through
 * the typed protocol. Strict CSP with a nonce, no remote content, resources only from the extension's dist
 * and media folders; every message from the webview is validated (isWebviewMessage) before it is acted on.
 */
import * as vscode from "vscode";
import { randomBytes } from "node:crypto";
import type { PanelMessage, PostedPanelMessage, WebviewMessage } from "../shared/protocol.ts";
import { isWebviewMessage } from "../shared/protocol.ts";
import { posted } from "../shared/eventWire.ts";
import { panelHtml } from "./panelHtml.ts";

export class Panel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  /** Messages sent before the webview said it is ready, replayed on ready (and kept for a reload). */
  private history: PostedPanelMessage[] = [];
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly onMessage: (m: WebviewMessage) => void,
  ) {}

  get visible(): boolean {
    return this.panel !== undefined;
  }

  /** The panel's HTML (panelHtml.ts); `starting`: the title of the run that opens the panel. */
  static html(webview: vscode.Webview, extensionUri: vscode.Uri, starting?: string): string {
    const uri = (...p: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...p)).toString();
    return panelHtml({
      nonce: randomBytes(18).toString("base64"),
      script: uri("dist", "webview.js"),
      style: uri("media", "panel.css"),
      cspSource: webview.cspSource,
      ...(starting === undefined ? {} : { starting }),
    });
  }

  /** Show the panel (created beside the editor if need be); `starting`: a run of `title` is starting. */
  show(title: string, starting = false): void {
    if (this.panel === undefined) {
      this.panel = vscode.window.createWebviewPanel(
        "shrinkscope.panel",
        `Shrinkscope: ${title}`,
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        {
          enableScripts: true,
          retainContextWhenHidden: true,
          localResourceRoots: [
            vscode.Uri.joinPath(this.extensionUri, "dist"),
            vscode.Uri.joinPath(this.extensionUri, "media"),
          ],
        },
      );
      this.ready = false;
      this.panel.webview.html = Panel.html(this.panel.webview, this.extensionUri, starting ? title : undefined);
      this.panel.onDidDispose(
        () => {
          this.panel = undefined;
          this.ready = false;
        },
        undefined,
        this.disposables,
      );
      this.panel.webview.onDidReceiveMessage(
        (m: unknown) => {
          if (!isWebviewMessage(m)) return; // untrusted input: ignore anything malformed
          if (m.type === "ready") {
            this.ready = true;
            // A copy of each batch's bytes: what was posted may have been handed over (transferred) on the way.
            for (const h of this.history)
              void this.panel?.webview.postMessage(h.type === "events" ? { ...h, wire: h.wire.slice() } : h);
            return;
          }
          this.onMessage(m);
        },
        undefined,
        this.disposables,
      );
    } else {
      this.panel.title = `Shrinkscope: ${title}`;
      // Where the user can see it, it stays: moving a webview to another group reloads it (seconds, and what it
      // showed). Hidden behind another tab, it comes out beside the editor.
      if (!this.panel.visible) this.panel.reveal(vscode.ViewColumn.Beside, true);
    }
  }

  post(m: PanelMessage): void {
    const message = posted(m);
    if (message.type === "run-started") this.history = [];
    // Keep what a reload needs without growing without bound: events are folded to the latest few batches.
    this.history.push(message);
    if (this.history.length > 200) this.history.splice(1, this.history.length - 200);
    if (this.panel !== undefined && this.ready) void this.panel.webview.postMessage(message);
  }

  dispose(): void {
    this.panel?.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
