/**
 * The panel's script: the only place that wires things. The host's messages go to the fold (fold.ts: a worker
 * that decodes, checks and folds them into the view model and the DataTree, and lays the tree out); its
 * patches keep a copy of the view model here. One render per animation frame hands each view the part of the
 * model it draws — only when that part is a new object (the model and its patches share unchanged parts).
 * Views are paced (each at most every so many ms while a run streams) and share a per-frame budget, so a
 * long run keeps frames short: see `tasks`.
 *
 * State survives hide/show (the host retains the context) and reload: the model and the UI's own state are
 * saved with setState (throttled: it serialises the whole model), and on reload the host's replay of the
 * current run is recognised and skipped (model.ts `receive`). The DataTree model lives in the fold, not
 * saved; it is rebuilt from that replay.
 */
import type { WebviewMessage } from "../src/shared/protocol.ts";
import type { PanelState } from "./model.ts";
import { initialState, restore } from "./model.ts";
import { applyPatch, createFold, PART_GAP_MS, type FoldIn, type FoldOut, type PacedPart } from "./fold.ts";
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

/** The fold worker's script (webview/foldWorker.ts, bundled), put here by the build (tools/webview-bundle.mjs). */
declare const SHRINKSCOPE_FOLD_WORKER: string | undefined;

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

const SECTIONS = [
  ["result", "Result"],
  // A state machine's run only (PanelState.steps.machine); property runs never show it.
  ["steps", "Steps"],
  // A failure found by exploring schedules only (PanelState.timeline): the failing seed's run, task by task.
  ["timeline", "Timeline"],
  ["choices", "Choice sequence"],
  ["comparison", "Sort-key comparison"],
  ["progress", "Shrink progress"],
  ["datatree", "DataTree"],
  ["stats", "Generation statistics"],
] as const;
type SectionId = (typeof SECTIONS)[number][0];

const app = document.getElementById("app") ?? document.body.appendChild(document.createElement("main"));
// The host marks the whole panel live; that would read out every frame. One status badge is live instead.
app.removeAttribute("aria-live");
// The page's own paragraph (src/extension/panelHtml.ts) stays while no run shows: "Run a property…", or, for a
// panel a run opened, that run as starting until its first message (the host replays it once we are ready).
const idle = app.querySelector("p") ?? document.createElement("p");
app.replaceChildren();
const header = document.createElement("header");
header.className = "run";
idle.className = "muted idle";
const starting = app.dataset.starting;
const nav = document.createElement("nav");
nav.setAttribute("aria-label", "Sections");
const mounts = {} as Record<SectionId, HTMLElement>;
const sections: HTMLElement[] = [];
const links = {} as Record<SectionId, HTMLAnchorElement>;
for (const [id, title] of SECTIONS) {
  const link = nav.appendChild(document.createElement("a"));
  link.href = `#sec-${id}`;
  link.textContent = title;
  links[id] = link;
  const sec = document.createElement("section");
  sec.id = `sec-${id}`;
  sec.setAttribute("aria-labelledby", `h-${id}`);
  const h = sec.appendChild(document.createElement("h2"));
  h.id = `h-${id}`;
  h.textContent = title;
  const body = sec.appendChild(document.createElement("div"));
  body.id = id;
  body.className = `view ${id}`;
  mounts[id] = body;
  sections.push(sec);
}
app.append(header, idle, nav, ...sections);
/**
 * Sections in or near the viewport. While a run streams, a view scrolled out of sight is not drawn (nobody
 * sees it, and its DOM work would still cost the frame); it is drawn when it comes near, and every view is
 * drawn once the run ends.
 */
const inSight = new Set<Element>();
const sight =
  typeof IntersectionObserver === "function"
    ? new IntersectionObserver(
        (entries) => {
          for (const e of entries)
            if (e.isIntersecting) inSight.add(e.target);
            else inSight.delete(e.target);
          schedule();
        },
        { rootMargin: "200px 0px" },
      )
    : undefined;
for (const sec of sections) sight?.observe(sec);

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

/**
 * One view's drawing, paced. `inputs` are the parts of the state it draws: it is redrawn only when one of them
 * is a new object (or the width changed), and while a run streams at most as often as the fold sends the part
 * of the state it follows (fold.ts PART_GAP_MS) — nobody reads a test case that is replaced sixty times a
 * second, and the frame's time is better spent elsewhere.
 */
interface ViewTask {
  readonly name: string;
  /** The section it draws in (none: always drawn). */
  readonly section: SectionId | undefined;
  readonly minGapMs: number;
  inputs(s: PanelState): readonly unknown[];
  draw(s: PanelState, w: number): void;
  drawn: readonly unknown[] | undefined;
  drawnWidth: number;
  at: number;
}

/** A view paced like `part` (none: drawn whenever its inputs change). */
function task(name: string, part: PacedPart | undefined, inputs: ViewTask["inputs"], draw: ViewTask["draw"]): ViewTask {
  const section =
    name === "header" ? undefined : name === "target" || name === "current" ? "choices" : (name as SectionId);
  return {
    name,
    section,
    minGapMs: part === undefined ? 0 : PART_GAP_MS[part],
    inputs,
    draw,
    drawn: undefined,
    drawnWidth: -1,
    at: -Infinity,
  };
}

const tasks: ViewTask[] = [
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
];

/**
 * Script time per frame for views, and views per frame: one, since each also costs style, layout and paint
 * after the script, and two in a frame were most of the frames over 12 ms in bench/panel-replay.mjs. The rest
 * wait for the next frame, round robin, so none starves.
 */
const FRAME_BUDGET_MS = 3;
const VIEWS_PER_FRAME = 1;
let nextTask = 0;
/**
 * The run the views last drew (PanelState.runs): when another has started, every view is drawn in that frame,
 * budget or not, so that the new run's header never shows above the last run's cells.
 */
let drawnRuns = state.runs;

function changed(t: ViewTask, inputs: readonly unknown[]): boolean {
  if (t.drawnWidth !== width || t.drawn === undefined) return true;
  return inputs.some((x, i) => x !== t.drawn?.[i]);
}

/**
 * Show or hide `el`, writing only a change: every render used to hide the Steps and Timeline sections again
 * after showing all sections, and each such write restyled, re-laid-out and repainted the page in every frame.
 */
function show(el: HTMLElement, visible: boolean): void {
  if (el.hidden === visible) el.hidden = !visible;
}

/** Draw the views whose part of the model changed, within the frame's budget. */
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
  const w = Math.max(120, width);
  const start = performance.now();
  const live = s.run.status === "running";
  let pending = false;
  let earliest = Infinity;
  let views = 0;
  const first = nextTask;
  const all = s.runs !== drawnRuns;
  drawnRuns = s.runs;
  for (let k = 0; k < tasks.length; k++) {
    const i = (first + k) % tasks.length;
    const t = tasks[i];
    if (hidden && t.name !== "header") continue;
    if (
      live &&
      !all &&
      sight !== undefined &&
      t.section !== undefined &&
      !inSight.has(mounts[t.section].parentElement!)
    )
      continue;
    if (t.name === "steps" && !s.steps.machine) continue;
    if (t.name === "timeline" && s.timeline === undefined) continue;
    const inputs = t.inputs(s);
    if (!changed(t, inputs)) continue;
    const now = performance.now();
    // Paced while a run streams, except the first content of a view that showed nothing (a run's first case).
    const wait = live && !all && t.drawn?.some((x) => x !== undefined) ? t.at + t.minGapMs - now : 0;
    if (wait > 0) {
      earliest = Math.min(earliest, wait);
      continue;
    }
    if (!all && (now - start > FRAME_BUDGET_MS || views >= VIEWS_PER_FRAME)) {
      pending = true;
      continue;
    }
    try {
      t.draw(s, w);
    } catch (e) {
      // One view failing must not stop the others (or the fold).
      console.error(`shrinkscope: the ${t.name} view failed`, e);
    }
    views++;
    // (the target's view: a run over before its first frame shows its first cells there)
    if (!marked.firstCase && (t.name === "current" || t.name === "target") && inputs[0] !== undefined) {
      marked.firstCase = true;
      mark("firstCaseAt");
    }
    t.drawn = inputs;
    t.drawnWidth = width;
    t.at = performance.now();
    nextTask = (i + 1) % tasks.length;
  }
  // What a new run's first frame said (the e2e checks it names the run and its state: not blank).
  if (all && !marked.firstFrame) {
    marked.firstFrame = true;
    document.body.dataset.firstFrame = header.textContent ?? "";
  }
  if (pending) schedule();
  else if (earliest < Infinity) setTimeout(schedule, earliest);
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

/**
 * The fold: in a worker when one starts (its script is in this one, started from a blob: URL), else on this
 * thread. What the page sends before the worker first answers is kept, so a worker that cannot start (a CSP,
 * a browser without workers) loses nothing: the page folds it all itself. (A message the fold cannot fold is
 * logged there and skipped; the worker goes on.)
 */
function startFold(): (input: FoldIn) => void {
  let local: ((input: FoldIn) => void) | undefined;
  let early: FoldIn[] | undefined = [];
  const onPage = (why: unknown): void => {
    console.warn("shrinkscope: folding on the page, not in a worker:", why);
    document.body.dataset.fold = "page";
    local = createFold((out) => queueMicrotask(() => folded(out)));
    for (const i of early ?? []) local(i);
    early = undefined;
  };
  try {
    if (typeof SHRINKSCOPE_FOLD_WORKER !== "string") throw new Error("no worker script in this build");
    const worker = new Worker(URL.createObjectURL(new Blob([SHRINKSCOPE_FOLD_WORKER], { type: "text/javascript" })), {
      name: "shrinkscope-fold",
    });
    document.body.dataset.fold = "worker";
    worker.onmessage = (e: MessageEvent<FoldOut>) => {
      early = undefined;
      folded(e.data);
    };
    worker.onerror = (e) => {
      if (early === undefined) return; // it started: an error there was logged there
      worker.terminate();
      onPage(e.message || "the worker did not start");
    };
    return (input) => {
      if (local !== undefined) return local(input);
      if (early !== undefined) {
        early.push(input);
        worker.postMessage(input);
        return;
      }
      // A batch's bytes move to the worker without a copy (the page has no further use for them).
      const wire = input.type === "message" ? (input.data as { wire?: unknown }).wire : undefined;
      worker.postMessage(input, wire instanceof Uint8Array ? [wire.buffer] : []);
    };
  } catch (e) {
    onPage(e);
    return (input) => local!(input);
  }
}
const fold = startFold();
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
