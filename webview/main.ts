/**
 * The panel's script: receives PanelMessages, folds them with the pure view model, renders with plain DOM
 * (textContent only: values from the run are data, never markup). State survives hide/show via setState.
 */
import type { PanelMessage, WebviewMessage } from "../src/protocol.ts";
import type { PanelState } from "./model.ts";
import { initialState, reduce, showValue } from "./model.ts";

interface VsCodeApi {
  postMessage(m: WebviewMessage): void;
  getState(): unknown;
  setState(s: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
let state: PanelState = (vscode.getState() as PanelState | undefined) ?? initialState;
let scheduled = false;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: { className?: string; text?: string; title?: string } = {}, ...children: (Node | undefined)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (props.className) e.className = props.className;
  if (props.text !== undefined) e.textContent = props.text;
  if (props.title) e.title = props.title;
  for (const c of children) if (c) e.appendChild(c);
  return e;
}

function button(label: string, message: WebviewMessage): HTMLButtonElement {
  const b = el("button", { text: label });
  b.addEventListener("click", () => vscode.postMessage(message));
  return b;
}

function stat(label: string, value: string | number): HTMLElement {
  return el("div", { className: "stat" }, el("span", { className: "label", text: label }), el("span", { className: "value", text: String(value) }));
}

function render(): void {
  scheduled = false;
  const app = document.getElementById("app");
  if (!app) return;
  const s = state;
  if (s.status === "idle") return;
  const header = el("header", {}, el("h1", { text: s.title }), el("span", { className: `badge ${s.status}`, text: s.status === "running" ? `running · ${s.phase}` : s.status }));
  const stats = el(
    "section",
    { className: "stats" },
    stat("test cases", s.testCases),
    stat("valid", s.valid),
    stat("invalid", s.invalid),
    stat("failing", s.interesting),
    stat("DataTree nodes", s.treeNodes),
    stat("shrink calls", s.shrinkCalls),
    stat("shrinks", s.shrinks),
    s.seed !== undefined ? stat("seed", s.seed) : undefined,
  );
  const pass = s.currentPass && s.status === "running" ? el("p", { className: "muted", text: `shrink pass: ${s.currentPass}` }) : undefined;
  let best: HTMLElement | undefined;
  if (s.best) {
    const row = el("div", { className: "choices" });
    for (const c of s.best) row.appendChild(el("span", { className: `choice ${c.type}${c.forced ? " forced" : ""}`, text: showValue(c), title: `${c.type} · index ${c.index}${c.forced ? " · forced" : ""}` }));
    best = el("section", {}, el("h2", { text: s.status === "running" ? "Current best failing case" : "Minimal failing case" }), el("p", { className: "muted", text: `${s.best.length} choices` }), row);
  }
  let result: HTMLElement | undefined;
  if (s.failure) {
    const f = s.failure;
    const loc = f.location;
    const where = loc ? el("a", { className: "location", text: `${loc.file.split(/[\\/]/).pop()}:${loc.line}:${loc.column}`, title: loc.file }) : undefined;
    where?.addEventListener("click", () => loc && vscode.postMessage({ type: "open-location", file: loc.file, line: loc.line, column: loc.column }));
    result = el(
      "section",
      { className: "result" },
      el("h2", { text: "Minimal example (TypeScript)" }),
      el("pre", { className: "repro", text: f.repro }),
      el("div", { className: "buttons" }, button("Copy", { type: "copy-repro" }), button("Convert to test", { type: "convert-to-test" }), button("Debug", { type: "debug" })),
      el("pre", { className: "error", text: `${f.error.name}: ${f.error.message}` }),
      where,
      f.flaky ? el("p", { className: "warning", text: "Flaky: the minimal example did not fail again on replay." }) : undefined,
    );
  } else if (s.reason) {
    result = el("section", { className: "result" }, el("pre", { className: "error", text: s.reason }));
  }
  app.replaceChildren(header, stats, ...(pass ? [pass] : []), ...(best ? [best] : []), ...(result ? [result] : []));
}

function isPanelMessage(x: unknown): x is PanelMessage {
  const t = (x as { type?: unknown } | null)?.type;
  return t === "run-started" || t === "events" || t === "run-finished";
}

window.addEventListener("message", (event: MessageEvent<unknown>) => {
  if (!isPanelMessage(event.data)) return;
  state = reduce(state, event.data);
  vscode.setState(state);
  // Render at most once a frame however fast the events arrive.
  if (!scheduled) {
    scheduled = true;
    requestAnimationFrame(render);
  }
});

render();
vscode.postMessage({ type: "ready" });
