/**
 * The DataTree panel's view model: the trie of explored choice-sequence prefixes, folded from the run's events,
 * laid out by layout/datatree.ts. Pure and DOM-free (unit-tested in Node); views/datatree.ts only draws the layout.
 *
 * What matters most:
 *
 * - The trie. Every `test-case` event walks its choices from the root; a child is keyed by the choice's type and
 *   value, so the same prefix always lands on the same node. Each node counts the cases that went through it,
 *   per status, and a node where a case concluded records that status (the leaf colour).
 * - Exhaustion. A `tree` event's `exhaustedDepths` are prefix lengths along the case recorded just before it
 *   (depth 0 is the root), so they are applied to that case's path. When the runner shed test cases (a message
 *   with `dropped > 0`), tree events may have been merged across cases, so their depths are not applied then —
 *   only `rootExhausted`, which is always right.
 * - The target. The current best failing case (the latest `shrink-target`, or before shrinking the latest
 *   failing case found outside the shrinker) is kept as a list of keys; the layout highlights its path.
 * - Bounded memory. At most `cap` nodes are stored (plus one case's path, itself bounded by `maxDepth`). Once
 *   the tree is half full, a (non-failing) case adds at most one node — a branch deepens one level per visit,
 *   and the rest of the case is counted in an aggregate. When the cap is exceeded, the least-visited nodes
 *   (deepest first) are folded into their parent's aggregate — a count per status and how many nodes went
 *   into it — until the tree is back to 70% of the cap. Counts are never lost: a node's count is its
 *   children's, plus its aggregate's, plus the cases that ended there. The target's path and the last case's
 *   path are never folded. A prune is linear in the tree's size (bucketed by count), and runs once per
 *   ~0.3 × cap new nodes.
 * - The layout (layout/datatree.ts) draws it as an icicle within a budget of rectangles.
 *
 * The model is mutated in place by `applyEvents` (a 100,000-case run must not allocate a tree per event);
 * `version` changes whenever anything visible changed, so a view can skip work.
 */
import type { ChoiceInfo, EngineEvent, PanelMessage, StatusName } from "../../src/shared/protocol.ts";

/** Cases per status: valid, invalid, overrun, interesting. */
export interface StatusCounts {
  valid: number;
  invalid: number;
  overrun: number;
  interesting: number;
}

export interface ChoiceSummary {
  readonly type: ChoiceInfo["type"];
  /** Short display of the value (≤ 24 characters). */
  readonly label: string;
  readonly index: number;
  readonly forced: boolean;
  /** The constraints, compactly (≤ 120 characters); "" when none. */
  readonly constraints: string;
}

/** Cases (and stored nodes) folded below a node: beyond the node cap, or beyond `maxDepth`. */
export interface Aggregate {
  count: number;
  readonly statuses: StatusCounts;
  /** Stored nodes that were folded into it. */
  nodes: number;
}

export interface TreeNode {
  /** Stable while the node lives: the draw step joins on it. */
  readonly id: number;
  readonly parent: TreeNode | null;
  /** Prefix length: the root is 0, the node after the first choice is 1. */
  readonly depth: number;
  readonly key: string;
  /** The choice on the edge into this node (null for the root). */
  readonly choice: ChoiceSummary | null;
  /** Cases through this node, including those that ended here and those folded below it. */
  count: number;
  readonly statuses: StatusCounts;
  /** Cases that concluded exactly here, and the latest status one concluded with. */
  ended: number;
  leaf: StatusName | undefined;
  exhausted: boolean;
  readonly children: Map<string, TreeNode>;
  folded: Aggregate | null;
  /** Stored nodes in this subtree, the node included. */
  stored: number;
  /** Pin stamp (see prune). */
  pin: number;
}

export interface TreeModelOptions {
  /** Stored nodes before folding starts (default 5000). */
  readonly cap?: number;
  /** Choices stored per case; deeper choices are folded (default 256). */
  readonly maxDepth?: number;
}

export interface TreeModel {
  readonly root: TreeNode;
  readonly cap: number;
  readonly maxDepth: number;
  /** Nodes stored, the root included. */
  nodeCount: number;
  /** Test cases folded into the model, and cases the runner shed before they reached the panel. */
  cases: number;
  droppedCases: number;
  /** Stored nodes folded into aggregates so far. */
  foldedNodes: number;
  /** The engine's own DataTree size (from tree events). */
  engineNodes: number;
  /** Changes whenever anything drawn changed. */
  version: number;
  /** Keys of the current best failing case, if any; `targetFromShrinker` once a shrink-target arrived. */
  target: readonly string[] | undefined;
  targetFromShrinker: boolean;
  /** The stored path of the last recorded case: lastPath[d] is its node at depth d. */
  lastPath: TreeNode[];
  /** Whether the last event applied was a test case: its tree event may come first in the next message. */
  caseLast: boolean;
  nextId: number;
  pinStamp: number;
}

function zeroCounts(): StatusCounts {
  return { valid: 0, invalid: 0, overrun: 0, interesting: 0 };
}

function addCounts(into: StatusCounts, from: StatusCounts): void {
  into.valid += from.valid;
  into.invalid += from.invalid;
  into.overrun += from.overrun;
  into.interesting += from.interesting;
}

function newNode(model: TreeModel, parent: TreeNode | null, key: string, choice: ChoiceSummary | null): TreeNode {
  return {
    id: model.nextId++,
    parent,
    depth: parent === null ? 0 : parent.depth + 1,
    key,
    choice,
    count: 0,
    statuses: zeroCounts(),
    ended: 0,
    leaf: undefined,
    exhausted: false,
    children: new Map(),
    folded: null,
    stored: 1,
    pin: 0,
  };
}

/**
 * An empty model. Make a new one when a run starts.
 *
 * @example
 * const model = createTreeModel();
 * applyEvents(model, message.events, message.dropped);
 * const { rects } = layoutIcicle(model, { width: 600, height: 300 });
 */
export function createTreeModel(options: TreeModelOptions = {}): TreeModel {
  const cap = options.cap ?? 5000;
  const maxDepth = options.maxDepth ?? 256;
  if (!(Number.isInteger(cap) && cap >= 16))
    throw new RangeError(`createTreeModel: cap must be an integer ≥ 16, got ${cap}`);
  if (!(Number.isInteger(maxDepth) && maxDepth >= 1))
    throw new RangeError(`createTreeModel: maxDepth must be a positive integer, got ${maxDepth}`);
  const model = {
    cap,
    maxDepth,
    nodeCount: 1,
    cases: 0,
    droppedCases: 0,
    foldedNodes: 0,
    engineNodes: 0,
    version: 0,
    target: undefined,
    targetFromShrinker: false,
    lastPath: [],
    caseLast: false,
    nextId: 0,
    pinStamp: 0,
  } as unknown as TreeModel & { root: TreeNode };
  model.root = newNode(model, null, "", null);
  model.lastPath = [model.root];
  return model;
}

// ------------------------------------------------------------------------------------------------ keys

/** FNV-1a, to key long strings and byte arrays without storing them. */
function fnv(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}

function bytesOf(v: unknown): number[] | undefined {
  if (v instanceof Uint8Array) return Array.from(v);
  // A webview message may carry a typed array as a plain object after serialisation.
  if (typeof v === "object" && v !== null) return Object.values(v as Record<string, unknown>).map(Number);
  return undefined;
}

const TYPE_TAGS: Readonly<Record<ChoiceInfo["type"], string>> = {
  integer: "i",
  float: "f",
  boolean: "b",
  string: "s",
  bytes: "y",
};

/** The child key of a choice: its type and value, exactly (0 and -0, and every NaN alike, stay apart/together). */
export function choiceKey(c: Pick<ChoiceInfo, "type" | "value">): string {
  const v = c.value as unknown;
  let s: string;
  if (typeof v === "number") s = Object.is(v, -0) ? "-0" : String(v);
  else if (typeof v === "string") s = v;
  else if (typeof v === "boolean") s = v ? "1" : "0";
  else s = (bytesOf(v) ?? []).map((b) => b.toString(16).padStart(2, "0")).join("");
  if (s.length > 64) s = `${s.slice(0, 24)}…${s.length}:${fnv(s)}`;
  return `${TYPE_TAGS[c.type]}:${s}`;
}

/** A short display of a value (as the panel's other views show it: -0 kept, long strings cut, bytes by size). */
function showValue(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v.length > 20 ? `${v.slice(0, 20)}…` : v);
  if (typeof v === "number" && Object.is(v, -0)) return "-0";
  if (typeof v === "object" && v !== null) return `bytes[${bytesOf(v)?.length ?? 0}]`;
  return String(v);
}

function summarise(c: ChoiceInfo): ChoiceSummary {
  const label = showValue(c.value);
  let constraints = "";
  try {
    const entries = Object.entries(c.constraints ?? {}).filter(([, v]) => v !== undefined && v !== null);
    constraints = entries.map(([k, v]) => `${k}=${typeof v === "object" ? JSON.stringify(v) : String(v)}`).join(", ");
  } catch {
    constraints = "";
  }
  if (constraints.length > 120) constraints = `${constraints.slice(0, 119)}…`;
  return {
    type: c.type,
    label: label.length > 24 ? `${label.slice(0, 23)}…` : label,
    index: c.index,
    forced: c.forced,
    constraints,
  };
}

// ------------------------------------------------------------------------------------------------ folding events

function foldInto(node: TreeNode, count: number, statuses: StatusCounts | StatusName, nodes: number): void {
  const agg = (node.folded ??= { count: 0, statuses: zeroCounts(), nodes: 0 });
  agg.count += count;
  if (typeof statuses === "string") agg.statuses[statuses] += count;
  else addCounts(agg.statuses, statuses);
  agg.nodes += nodes;
}

function recordCase(model: TreeModel, choices: readonly ChoiceInfo[], status: StatusName): void {
  model.cases++;
  let node = model.root;
  node.count++;
  node.statuses[status]++;
  const path = [node];
  // Once the tree is half full, a case grows it by one node at most (failing cases excepted, so the target's
  // path is there to highlight): a branch deepens one level each time a case revisits it, and the rest of
  // the case is counted in the new node's aggregate. Without this, every random case would store a whole
  // path only for the pruner to fold it again.
  let budget = model.nodeCount >= model.cap / 2 && status !== "interesting" ? 1 : Infinity;
  let i = 0;
  for (; i < choices.length && i < model.maxDepth; i++) {
    const c = choices[i]!;
    const key = choiceKey(c);
    let child = node.children.get(key);
    if (child === undefined) {
      if (budget-- <= 0) break;
      child = newNode(model, node, key, summarise(c));
      node.children.set(key, child);
      model.nodeCount++;
      for (let a: TreeNode | null = node; a !== null; a = a.parent) a.stored++;
    }
    child.count++;
    child.statuses[status]++;
    node = child;
    path.push(node);
  }
  if (i < choices.length) foldInto(node, 1, status, 0);
  else {
    node.ended++;
    node.leaf = status;
  }
  model.lastPath = path;
  if (model.nodeCount > model.cap) prune(model);
}

function pinPaths(model: TreeModel): number {
  const stamp = ++model.pinStamp;
  for (const n of model.lastPath) n.pin = stamp;
  if (model.target !== undefined) {
    let n: TreeNode | undefined = model.root;
    n.pin = stamp;
    for (const key of model.target) {
      n = n.children.get(key);
      if (n === undefined) break;
      n.pin = stamp;
    }
  }
  return stamp;
}

/**
 * Fold the least-visited nodes into their parents' aggregates until the tree holds 70% of the cap. Order: by
 * count, then deepest first — a node's descendants have no larger count and are deeper, so they are folded
 * before it, and every fold removes a node with no children left. Bucketed rather than sorted (counts below
 * the cut, then depths), so a prune is linear in the tree's size.
 */
function prune(model: TreeModel): void {
  const stamp = pinPaths(model);
  const goal = Math.floor(model.cap * 0.7);
  const excess = model.nodeCount - goal;
  // Buckets by count (counts ≥ the cut go unbucketed: they would not be reached).
  const byCount: TreeNode[][] = [];
  const stack: TreeNode[] = [model.root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    for (const c of n.children.values()) {
      stack.push(c);
      if (c.pin !== stamp && c.count < 4096) (byCount[c.count] ??= []).push(c);
    }
  }
  let folded = 0;
  for (const bucket of byCount) {
    if (bucket === undefined) continue;
    if (folded >= excess) break;
    bucket.sort((a, b) => b.depth - a.depth || a.id - b.id);
    for (const n of bucket) {
      if (folded >= excess) break;
      if (n.children.size > 0) continue; // holds a pinned descendant (cannot happen: pins are prefix-closed)
      const parent = n.parent!;
      // The node's count covers the cases that ended there and everything already folded below it.
      foldInto(parent, n.count, n.statuses, 1 + (n.folded?.nodes ?? 0));
      parent.children.delete(n.key);
      for (let a: TreeNode | null = parent; a !== null; a = a.parent) a.stored--;
      model.nodeCount--;
      model.foldedNodes++;
      folded++;
    }
  }
}

function setTarget(model: TreeModel, choices: readonly ChoiceInfo[]): void {
  model.target = choices.slice(0, model.maxDepth).map(choiceKey);
}

/** Fold engine events into the model (in place; returns it). `dropped` is the message's count of shed cases. */
export function applyEvents(model: TreeModel, events: readonly EngineEvent[], dropped = 0): TreeModel {
  // Messages split the stream anywhere: a case's tree event can open the message after the case's.
  let previous: EngineEvent["type"] | undefined = model.caseLast ? "test-case" : undefined;
  for (const e of events) {
    switch (e.type) {
      case "test-case":
        recordCase(model, e.choices, e.status);
        if (
          e.status === "interesting" &&
          (model.target === undefined || (!model.targetFromShrinker && e.origin !== "shrink" && e.origin !== "explain"))
        )
          setTarget(model, e.choices);
        model.version++;
        break;
      case "tree":
        model.engineNodes = e.totalNodes;
        // Depths belong to the case recorded just before, unless cases were shed (tree events merged).
        if (dropped === 0 && previous === "test-case") {
          for (const d of e.exhaustedDepths) {
            const n = model.lastPath[d];
            if (n !== undefined) n.exhausted = true;
          }
        }
        if (e.rootExhausted) model.root.exhausted = true;
        model.version++;
        break;
      case "shrink-target":
        setTarget(model, e.choices);
        model.targetFromShrinker = true;
        model.version++;
        break;
      case "result":
        if (e.choices !== undefined && e.outcome === "failed") {
          setTarget(model, e.choices);
          model.version++;
        }
        break;
      default:
        break;
    }
    previous = e.type;
  }
  model.caseLast = previous === "test-case";
  if (dropped > 0) {
    model.droppedCases += dropped;
    model.version++;
  }
  return model;
}

/** Fold one host message: a new run resets (returns a new model), events are applied in place. */
export function applyMessage(model: TreeModel, m: PanelMessage): TreeModel {
  if (m.type === "run-started") return createTreeModel({ cap: model.cap, maxDepth: model.maxDepth });
  if (m.type === "events") return applyEvents(model, m.events, m.dropped);
  return model;
}
