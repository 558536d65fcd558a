/**
 * The run in VS Code's own places, as other test tools show theirs: a status-bar item (running, generating N
 * cases, shrinking N calls, then failed / passed / error / stopped; a click shows the panel) and, for a run that
 * takes longer than a moment, a progress notification whose Cancel stops it. Fed the run's engine events by
 * runs.ts; the item is updated at most a few times a second however fast the events come.
 */
import * as vscode from "vscode";
import type { EngineEvent, RunOutcome } from "../shared/protocol.ts";

const UPDATE_MS = 250;
/** A run shorter than this never shows a notification (most runs end first). */
const NOTIFY_AFTER_MS = 3000;

interface Live {
  readonly title: string;
  phase: "starting" | "generating" | "shrinking" | "targeting";
  cases: number;
  calls: number;
  progress?: { report(value: { message?: string }): void };
  finish?: () => void;
}

export class RunStatusItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem("shrinkscope.run", vscode.StatusBarAlignment.Left, 50);
  private live: Live | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private notifyTimer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    this.item.name = "Shrinkscope run";
    this.item.command = "shrinkscope.showPanel";
  }

  /** A run starts: `stop` is what the notification's Cancel does. Returns the run's token for `finished`. */
  started(title: string, stop: () => void): object {
    this.end();
    const live: Live = { title, phase: "starting", cases: 0, calls: 0 };
    this.live = live;
    this.show();
    this.notifyTimer = setTimeout(() => {
      if (this.live !== live) return;
      void vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Shrinkscope: ${title}`, cancellable: true },
        (progress, token) => {
          token.onCancellationRequested(stop);
          live.progress = progress;
          progress.report({ message: this.words(live) });
          return new Promise<void>((resolve) => (live.finish = resolve));
        },
      );
    }, NOTIFY_AFTER_MS);
    return live;
  }

  events(events: readonly EngineEvent[]): void {
    const live = this.live;
    if (live === undefined) return;
    for (const e of events) {
      if (e.type === "phase")
        live.phase =
          e.phase === "shrink"
            ? "shrinking"
            : e.phase === "target"
              ? "targeting"
              : e.phase === "generate"
                ? "generating"
                : live.phase;
      else if (e.type === "test-case") {
        if (e.origin === "shrink") live.calls++;
        else live.cases++;
      }
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      if (this.live === live) this.show();
    }, UPDATE_MS);
  }

  /**
   * The run of `token` ended: its outcome stays in the status bar until the next run. A run replaced by a newer
   * one (a click during a run stops it) says nothing over the newer one.
   */
  finished(token: object, outcome: RunOutcome, detail: string | undefined): void {
    if (token !== this.live) return;
    const title = this.live.title;
    this.end();
    const icon = {
      passed: "$(pass)",
      failed: "$(error)",
      error: "$(warning)",
      "not-found": "$(question)",
      stopped: "$(debug-stop)",
    }[outcome];
    this.item.text = `${icon} Shrinkscope: ${outcome}`;
    this.item.tooltip = `${title}: ${outcome}${detail ? ` — ${detail}` : ""}\nClick to show the Shrinkscope panel.`;
    this.item.backgroundColor =
      outcome === "failed" || outcome === "error" ? new vscode.ThemeColor("statusBarItem.errorBackground") : undefined;
    this.item.show();
  }

  dispose(): void {
    this.end();
    this.item.dispose();
  }

  private show(): void {
    const live = this.live;
    if (live === undefined) return;
    const words = this.words(live);
    this.item.text = `$(loading~spin) Shrinkscope: ${words}`;
    this.item.tooltip = `${live.title}: ${words}\nClick to show the Shrinkscope panel.`;
    this.item.backgroundColor = undefined;
    this.item.show();
    live.progress?.report({ message: words });
  }

  private words(live: Live): string {
    if (live.phase === "shrinking") return `shrinking · ${live.calls} calls`;
    if (live.phase === "starting") return "starting";
    return `${live.phase} · ${live.cases} cases`;
  }

  private end(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.notifyTimer !== undefined) clearTimeout(this.notifyTimer);
    this.timer = this.notifyTimer = undefined;
    this.live?.finish?.();
    this.live = undefined;
  }
}
