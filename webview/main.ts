/**
 * The panel's script: the only place that wires things. The host's messages go to the fold (fold.ts: a worker
 * that decodes, checks and folds them into the view model and the DataTree, and lays the tree out); its
 * patches keep a copy of the view model here. One render per animation frame hands each view the part of the
 * model it draws — only when that part is a new object (the model and its patches share unchanged parts).
 * Views are paced (each at most every so many ms while a run streams) and share a per-frame budget, so a
 * long run keeps frames short: see frames.ts, and the tasks below.
 *
 * State survives hide/show (the host retains the context) and reload: the model and the UI's own state are
 * saved with setState (throttled: it serialises the whole model), and on reload the host's replay of the
 * current run is recognised and skipped (model.ts `receive`). The DataTree model lives in the fold, not
 * saved; it is rebuilt from that replay.
 */
import type { WebviewMessage } from "../src/shared/protocol.ts";
import type { PanelState } from "./model.ts";
import { initialState, restore } from "./model.ts";
import { applyPatch, type FoldOut } from "./fold.ts";
import { startFold } from "./foldClient.ts";
import { task, ViewPacer } from "./frames.ts";
import { buildSkeleton, SECTIONS } from "./sections.ts";
import type { TreeFrame } from "./layout/datatree.ts";
import { layoutProgress } from "./layout/progress.ts";
import { layoutStats } from "./layout/stats.ts";
import { layoutResult } from "./layout/result.ts";
import { root } from "./views/dom.ts";
import { drawHeader } from "./views/header.ts";
import { drawCurrent, drawTarget } from "./views/choices.ts";
import { drawComparison } from "./views/comparison.ts";
import { drawProgress } from "./views/progress.ts";
import { drawStats } from "./views/stats.ts";
import { drawResult } from "./views/result.ts";
import { drawSteps } from "./views/steps.ts";
import { drawTimeline } from "./views/timeline.ts";
// The DataTree view (its own model and view, by another hand) mounts in the #datatree section.
import { createDataTreeView, type DataTreeView } from "./views/datatree.ts";

interface VsCodeApi {
  postMessage(m: WebviewMessage): void;
  getState(): unknown;
  setState(s: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** What the panel remembers besides the model: choices the user made in it. */
interface UiState {
  readonly selectedPass: string | undefined;
}
interface Saved {
  readonly model: unknown;
  readonly ui?: UiState;
}

const SAVE_INTERVAL_MS = 1000;
/**
 * While a run streams the model is saved less often: each save serialises it (a frame's worth of work on a
 * long run). A reload between saves loses nothing — the host replays the run and the panel folds whatever
 * its saved model had not (model.ts `receive`); a finished run is saved at once.
 */
const SAVE_WHILE_RUNNING_MS = 5000;

const vscode = acquireVsCodeApi();
const saved = vscode.getState() as Saved | undefined;
const restored = restore(saved?.model);
let state: PanelState = restored ?? initialState;
let ui: UiState = { selectedPass: saved?.ui?.selectedPass };
/** The DataTree's latest layout from the fold. */
let tree: TreeFrame | undefined;

// ------------------------------------------------------------------------------------------- skeleton

const app = document.getElementById("app") ?? document.body.appendChild(document.createElement("main"));
const skeleton = buildSkeleton(app, () => schedule());
const { header, idle, starting, nav, mounts, links } = skeleton;

let treeView: DataTreeView | undefined;
try {
  treeView = createDataTreeView(mounts.datatree, { onParams: (params) => fold({ type: "tree", params }) });
} catch (e) {
  // A broken view must not take the rest of the panel down.
  mounts.datatree.textContent = `The DataTree view failed to start: ${String(e)}`;
}

// ------------------------------------------------------------------------------------------- render

const post = (m: WebviewMessage): void => vscode.postMessage(m);
let width = 0;
let scheduled = false;

function selectPass(pass: string): void {
  ui = { ...ui, selectedPass: pass };
  scheduleSave();
  schedule();
}

const pacer = new ViewPacer([
  task(
    "header",
    "run",
    (s) => [s.run, s.progress.currentPass, s.stats.dropped],
    (s) => drawHeader(root(header), s, starting),
  ),
  task(
    "result",
    "history",
    (s) => [s.run, s.history],
    (s) => drawResult(root(mounts.result), layoutResult(s), post),
  ),
  // The steps of a machine run index the cells of the target (or, while generating, of the latest case).
  task(
    "steps",
    "steps",
    (s) => [s.steps, s.steps.target || s.steps.final ? s.choices.target : s.choices.current, s.run.status],
    (s, w) => drawSteps(root(mounts.steps), s, w),
  ),
  task(
    "timeline",
    "timeline",
    (s) => [s.timeline],
    (s, w) => drawTimeline(root(mounts.timeline), s, w),
  ),
  task(
    "target",
    "choices",
    (s) => [s.choices.target, s.choices.shrinks],
    (s, w) => drawTarget(root(mounts.choices), s.choices, w),
  ),
  task(
    "current",
    "choices",
    (s) => [s.choices.current],
    (s, w) => drawCurrent(root(mounts.choices), s.choices, w),
  ),
  task(
    "comparison",
    "candidates",
    (s) => [s.candidates, ui, s.run.status],
    (s, w) =>
      drawComparison(root(mounts.comparison), s.candidates, w, {
        selectedPass: ui.selectedPass,
        onSelectPass: selectPass,
        status: s.run.status,
      }),
  ),
  task(
    "progress",
    "progress",
    (s) => [s.progress],
    (s, w) => drawProgress(root(mounts.progress), layoutProgress(s.progress, w)),
  ),
  task(
    "stats",
    "stats",
    (s) => [s.stats],
    (s) => drawStats(root(mounts.stats), layoutStats(s.stats)),
  ),
  // The fold lays the tree out at most once a second while a run streams (fold.ts); each layout is drawn.
  task(
    "datatree",
    undefined,
    () => [tree],
    () => {
      if (tree !== undefined) treeView?.show(tree);
    },
  ),
]);

/**
 * The run the views last drew (PanelState.runs): when another has started, every view is drawn in that frame,
 * budget or not, so that the new run's header never shows above the last run's cells.
 */
let drawnRuns = state.runs;

/**
 * Show or hide `el`, writing only a change: each write restyles, re-lays-out and repaints the page, and every
 * render decides the Steps and Timeline sections' visibility again.
 */
function show(el: HTMLElement, visible: boolean): void {
  if (el.hidden === visible) el.hidden = !visible;
}

/** Show the sections the run has, and draw the views whose part of the model changed (frames.ts). */
function render(): void {
  scheduled = false;
  const s = state;
  const hidden = s.run.status === "idle";
  show(idle, hidden);
  show(nav, !hidden);
  const noSteps = hidden || !s.steps.machine;
  const noTimeline = hidden || s.timeline === undefined;
  for (const [id] of SECTIONS) {
    const off = hidden || (id === "steps" && noSteps) || (id === "timeline" && noTimeline);
    show(mounts[id].parentElement!, !off);
    show(links[id], !off);
  }
  const live = s.run.status === "running";
  const all = s.runs !== drawnRuns;
  drawnRuns = s.runs;
  const left = pacer.draw({
    state: s,
    width,
    drawWidth: Math.max(120, width),
    live,
    all,
    wanted: (t) => {
      if (hidden && t.name !== "header") return false;
      if (live && !all && t.section !== undefined && !skeleton.inSight(t.section)) return false;
      if (t.name === "steps" && !s.steps.machine) return false;
      return !(t.name === "timeline" && s.timeline === undefined);
    },
    drawn: (t, inputs) => {
      // (the target's view: a run over before its first frame shows its first cells there)
      if (!marked.firstCase && (t.name === "current" || t.name === "target") && inputs[0] !== undefined) {
        marked.firstCase = true;
        mark("firstCaseAt");
      }
    },
  });
  // What a new run's first frame said (the e2e checks it names the run and its state: not blank).
  if (all && !marked.firstFrame) {
    marked.firstFrame = true;
    document.body.dataset.firstFrame = header.textContent ?? "";
  }
  if (left.pending) schedule();
  else if (left.dueInMs < Infinity) setTimeout(schedule, left.dueInMs);
  // Drawn: the fold may send what changed since (one patch at a time, fold.ts).
  if (!pulled) {
    pulled = true;
    fold({ type: "pull" });
  }
}

/**
 * When the run's start reached the panel, when its first events did, and when its first test case was drawn
 * (wall-clock ms), on <body>: the e2e times a click by them, as the page saw it, rather than by a poller slowed
 * by the busy workbench it measures. (With `firstFrame`, the header's text in the run's first frame.)
 */
const marked = { firstCase: false, firstFrame: false, firstEvents: false };
function mark(name: "runStartedAt" | "firstEventsAt" | "firstCaseAt"): void {
  document.body.dataset[name] = String(Date.now());
}

function schedule(): void {
  if (!scheduled) {
    scheduled = true;
    requestAnimationFrame(render);
  }
}

// ------------------------------------------------------------------------------------------- persistence

let saveTimer: ReturnType<typeof setTimeout> | undefined;
function save(): void {
  saveTimer = undefined;
  vscode.setState({ model: state, ui } satisfies Saved);
}
/** setState serialises the whole model: throttled (the more while a run streams), and at once when it ends. */
function scheduleSave(now = false): void {
  if (now) {
    if (saveTimer !== undefined) clearTimeout(saveTimer);
    save();
  } else if (saveTimer === undefined)
    saveTimer = setTimeout(save, state.run.status === "running" ? SAVE_WHILE_RUNNING_MS : SAVE_INTERVAL_MS);
}

// ------------------------------------------------------------------------------------------- messages

/** Whether a pull is on its way to the fold (it answers once something changed). */
let pulled = false;

function folded(out: FoldOut): void {
  if (typeof out !== "object" || out === null || out.type !== "patch") return;
  const was = state.run.status;
  if (out.state !== undefined) state = applyPatch(state, out.state);
  if (out.tree !== undefined) tree = out.tree;
  pulled = false;
  scheduleSave(was === "running" && state.run.status !== "running");
  schedule();
}

const fold = startFold(folded);
fold({ type: "init", saved: saved?.model });

window.addEventListener("message", (event: MessageEvent<unknown>) => {
  const data = event.data;
  const type = typeof data === "object" && data !== null ? (data as { type?: unknown }).type : undefined;
  if (type !== "run-started" && type !== "events" && type !== "run-finished") return;
  if (type === "run-started") {
    mark("runStartedAt");
    marked.firstCase = marked.firstFrame = marked.firstEvents = false;
    delete document.body.dataset.firstCaseAt;
    delete document.body.dataset.firstEventsAt;
    delete document.body.dataset.firstFrame;
  }
  if (type === "events" && !marked.firstEvents) {
    marked.firstEvents = true;
    mark("firstEventsAt");
  }
  // Checked and decoded by the fold (fold.ts panelMessage).
  fold({ type: "message", data });
});

new ResizeObserver((entries) => {
  const w = Math.floor(entries[0]?.contentRect.width ?? 0);
  if (w !== width) {
    width = w;
    schedule();
  }
}).observe(app);

width = app.clientWidth;
render();
post({ type: "ready" });
