/**
 * The panel's fold, off the page's thread: the host's messages are decoded, folded into the view model
 * (model.ts) and the DataTree model, and the tree laid out — in a worker (foldWorker.ts), so that neither the
 * work nor its garbage lands in the frames that draw. The page keeps a copy of the view model, patched.
 *
 * The page and the fold talk in small messages (FoldIn, FoldOut). Flow control is the page's: it asks for
 * a patch (`pull`) after it drew, and the fold answers once something changed — so at most one patch is on
 * its way, and a busy page gets fewer, larger patches instead of a queue. A patch carries, for each part of
 * the state that is a new object, the parts of it that are new (two levels: the views compare those by
 * identity, so a view whose part did not change is not redrawn). The tree is laid out when the page asked for
 * another size or zoom, and else at most every TREE_RUNNING_MS while a run streams.
 *
 * The same fold runs on the page when no worker can start (`createFold` with a local post), and the page
 * treats what comes back like any message: checked before use.
 */
import type { PanelMessage } from "../src/shared/protocol.ts";
import { decodeEvents } from "../src/shared/eventWire.ts";
import type { PanelState, Resume } from "./model.ts";
import { initialState, receive, restore, resumeFor } from "./model.ts";
import { applyMessage, createTreeModel, type TreeModel } from "./models/datatree.ts";
import { treeFrame, type TreeFrame, type TreeParams } from "./layout/datatree.ts";

/** From the page: the saved model (once, first), each host message as it arrived, the tree's size/zoom, a pull. */
export type FoldIn =
  | { readonly type: "init"; readonly saved: unknown }
  | { readonly type: "message"; readonly data: unknown }
  | { readonly type: "tree"; readonly params: TreeParams }
  | { readonly type: "pull" };

/** To the page: what changed since the last patch (`state`), and a new tree layout if there is one. */
export interface FoldOut {
  readonly type: "patch";
  readonly state: StatePatch | undefined;
  readonly tree: TreeFrame | undefined;
}

/** Per changed part of the state: the whole part (`all`), or its new children and its keys in order (`some`). */
export type StatePatch = Readonly<
  Record<
    string,
    { readonly all: unknown } | { readonly some: Readonly<Record<string, unknown>>; readonly keys: readonly string[] }
  >
>;

/** While a run streams, the tree is laid out at most this often (a layout of thousands of nodes takes ms). */
export const TREE_RUNNING_MS = 1000;
/**
 * While a run streams, a part of the state is sent at most this often (ms), and its views (frames.ts) drawn at
 * most this often: what arrives and is not drawn is cloned for nothing. A new run's first patch and a finished
 * run's send every part at once. Four redraws a second of a test case is still more than a person reads;
 * faster, the views' drawing (style, layout and paint after each) was most of the frames over 12 ms on a loaded
 * 2-core machine (bench/panel-replay.mjs --load: p95 11.2–14.4 ms with the current case redrawn every 150 ms,
 * the target every 100, the comparison every 300; 8.6–9.1 ms with these).
 */
export const PART_GAP_MS = {
  run: 250,
  history: 500,
  choices: 250,
  candidates: 500,
  progress: 400,
  stats: 500,
  steps: 250,
  timeline: 250,
} as const satisfies Readonly<Record<string, number>>;
/** A part of the panel's state that the fold paces (PART_GAP_MS). */
export type PacedPart = keyof typeof PART_GAP_MS;
/** Parts of thousands of objects: at most one of them per patch, so no frame clones them all. */
const HEAVY = new Set(["choices", "candidates", "progress"]);

/** The host's message, checked and with its events decoded (src/shared/eventWire.ts); undefined if malformed. */
export function panelMessage(x: unknown): PanelMessage | undefined {
  if (typeof x !== "object" || x === null) return undefined;
  const m = x as Record<string, unknown>;
  if (m.type === "events")
    return m.wire instanceof Uint8Array && typeof m.dropped === "number"
      ? { type: "events", events: decodeEvents(m.wire), dropped: m.dropped }
      : undefined;
  if (m.type === "run-started")
    return typeof m.title === "string" && typeof m.file === "string" && Array.isArray(m.testPath)
      ? (m as unknown as PanelMessage)
      : undefined;
  return m.type === "run-finished" && typeof m.outcome === "string" ? (m as unknown as PanelMessage) : undefined;
}

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

/** One part of the state as a patch: its new children and keys in order (a record), else the whole part. */
function diffPart(from: unknown, to: unknown): StatePatch[string] {
  if (!isRecord(from) || !isRecord(to)) return { all: to };
  const some: Record<string, unknown> = {};
  for (const k of Object.keys(to)) if (to[k] !== from[k] || !(k in from)) some[k] = to[k];
  return { some, keys: Object.keys(to) };
}

/** `state` with `patch` applied: unchanged parts (and unchanged children) keep their identity. */
export function applyPatch(state: PanelState, patch: StatePatch): PanelState {
  const out = { ...(state as unknown as Record<string, unknown>) };
  for (const [key, p] of Object.entries(patch)) {
    if ("all" in p) out[key] = p.all;
    else {
      const old = isRecord(out[key]) ? (out[key] as Record<string, unknown>) : {};
      const next: Record<string, unknown> = {};
      for (const k of p.keys) next[k] = k in p.some ? p.some[k] : old[k];
      out[key] = next;
    }
  }
  return out as unknown as PanelState;
}

/** The fold's clock and timer (tests move them by hand). */
export interface FoldTime {
  now(): number;
  /** Call `fn` in `ms`. */
  after(fn: () => void, ms: number): void;
}
const realTime: FoldTime = { now: () => performance.now(), after: (fn, ms) => void setTimeout(fn, ms) };

/**
 * The fold: returns the handler of the page's messages; `post` sends the answers.
 *
 * @example
 * const handle = createFold((out) => postMessage(out));
 * onmessage = (e) => handle(e.data);
 */
export function createFold(post: (out: FoldOut) => void, time: FoldTime = realTime): (input: FoldIn) => void {
  const now = time.now;
  let state: PanelState = initialState;
  let resume: Resume = resumeFor(undefined);
  /** Each part of the state as last sent, and when. */
  const sent = new Map<string, unknown>();
  const sentAt = new Map<string, number>();
  let sentRuns = -1;
  let tree: TreeModel = createTreeModel();
  let treeId = 1;
  let params: TreeParams | undefined;
  let laidOut: { tree: TreeModel; version: number; params: TreeParams } | undefined;
  let laidOutAt = -Infinity;
  let owed = false;
  /** When the earliest pending `later` fires. */
  let timerAt = Infinity;
  /** Answer again in `ms` (a part or the tree held back by its pacing); one timer, the earliest. */
  function later(ms: number): void {
    const at = now() + Math.max(1, ms);
    if (timerAt <= at) return;
    timerAt = at;
    time.after(
      () => {
        if (timerAt !== at) return; // an earlier one replaced it
        timerAt = Infinity;
        answer();
      },
      Math.max(1, ms),
    );
  }

  /** A tree layout, if the tree or the asked-for view changed — paced while a run streams, unless asked for. */
  function treeDue(): TreeFrame | undefined {
    if (params === undefined) return undefined;
    if (laidOut !== undefined && laidOut.tree === tree && laidOut.version === tree.version && laidOut.params === params)
      return undefined;
    const asked = laidOut === undefined || laidOut.params !== params || laidOut.tree !== tree;
    const wait = laidOutAt + TREE_RUNNING_MS - now();
    if (!asked && state.run.status === "running" && wait > 0) {
      later(wait);
      return undefined;
    }
    laidOut = { tree, version: tree.version, params };
    laidOutAt = now();
    return treeFrame(tree, params, treeId);
  }

  /** The parts that changed since sent and are due, at most one heavy one (the most overdue first). */
  function statePatch(): StatePatch | undefined {
    const all = state.run.status !== "running" || state.runs !== sentRuns;
    const t = now();
    const parts = state as unknown as Record<string, unknown>;
    const overdue = (k: string): number =>
      t - (sentAt.get(k) ?? -Infinity) - ((PART_GAP_MS as Readonly<Record<string, number>>)[k] ?? 0);
    const keys = Object.keys(parts)
      .filter((k) => !sent.has(k) || sent.get(k) !== parts[k])
      .sort((a, b) => overdue(b) - overdue(a));
    const patch: Record<string, StatePatch[string]> = {};
    let heavy = false;
    for (const k of keys) {
      if (!all) {
        const wait = -overdue(k);
        if (wait > 0 || (heavy && HEAVY.has(k))) {
          later(Math.max(wait, 1));
          continue;
        }
        heavy ||= HEAVY.has(k);
      }
      patch[k] = diffPart(sent.get(k), parts[k]);
      sent.set(k, parts[k]);
      sentAt.set(k, t);
    }
    if (all) sentRuns = state.runs;
    return keys.length === 0 || Object.keys(patch).length === 0 ? undefined : patch;
  }

  function answer(): void {
    if (!owed) return;
    const patch = statePatch();
    const frame = treeDue();
    if (patch === undefined && frame === undefined) return;
    owed = false;
    post({ type: "patch", state: patch, tree: frame });
  }

  function handle(input: FoldIn): void {
    switch (input.type) {
      case "init": {
        const restored = restore(input.saved);
        state = restored ?? initialState;
        resume = resumeFor(restored);
        break;
      }
      case "message": {
        const m = panelMessage(input.data);
        if (m === undefined) return;
        const r = receive(state, resume, m);
        state = r.state;
        resume = r.resume;
        // The DataTree is not saved, so it folds every message, replayed ones included; its failure must not
        // stop the view model's fold.
        try {
          const next = applyMessage(tree, m);
          if (next !== tree) treeId++;
          tree = next;
        } catch (e) {
          console.error("shrinkscope: the DataTree model failed", e);
        }
        break;
      }
      case "tree":
        params = input.params;
        break;
      case "pull":
        owed = true;
        break;
    }
    answer();
  }

  return (input) => {
    try {
      handle(input);
    } catch (e) {
      // One message the fold cannot take must not stop the panel: the next ones still fold.
      console.error("shrinkscope: the panel could not fold a message", e);
    }
  };
}
