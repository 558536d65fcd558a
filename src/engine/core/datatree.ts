/**
 * The DataTree: a trie of every choice sequence the property has been run on, so that generation never
 * runs the same test case twice, knows when the whole space has been tried, and so that a shrink candidate
 * seen before is answered without calling the property.
 *
 * Like Hypothesis's, the trie is compressed: a node holds a *run* of choices that so far have had only one
 * value each, then a transition — nothing yet, a Branch on the next choice (children keyed by value), or a
 * Conclusion (the status the test ended with). Recording a new sequence walks the shared prefix and then
 * either splits a run into a Branch or hangs the rest of the sequence off as one new node, so a novel random
 * test case costs one allocation.
 *
 * Storage: a node's run is a range [start, end) of a Chunk — typed arrays shared by many runs: each choice's
 * value as a float64 (booleans 0/1; strings and bytes in a side array) and a small id of its kind (type,
 * constraints, forced; DataTree.kinds). The tree's memory is then a few big off-heap buffers instead of
 * objects per choice, which the garbage collector would copy again and again as the tree grows; a split
 * only makes a second node pointing into the same chunk. Recording a generated case starts where its
 * TreeCursor left the tree (the generation walk already found the divergence), so it does not walk the
 * shared prefix again, and copies only the new tail.
 *
 *   root ─ run [3, true] ─ Branch on integer {0..9}
 *                             ├─ 4 → run [false] → Conclusion(valid)
 *                             └─ 7 → run []      → Conclusion(interesting)
 *
 * Flakiness: a deterministic property makes the same choices, of the same kinds, and ends the same way every
 * time it is given the same prefix. When a recorded case disagrees with the tree — the same choices ended with
 * another status, ended earlier or went on further than before, or drew a different kind of choice (or a
 * different forced value) at a position — insert returns Flaky, changes nothing, and leaves what disagreed in
 * `divergence`, with the call on which the earlier run concluded (each conclusion keeps its call number).
 *
 * Memory and time, on long runs: while generating (`frugal`), once the tree holds OPEN_AFTER nodes, a case that
 * leaves the tree at a branch over a wide domain (more than WIDE_DOMAIN values) is recorded there only if its
 * value was seen there before: the first sight goes into a small fixed table (ONCE_SLOTS entries, overwritten as
 * they collide, never grown), and a second finds it. Once a wide branch has WIDE_CHILDREN children it takes none;
 * nor is a new tail recorded that would take the runs past CHOICE_BUDGET choices, or a node made past NODE_BUDGET
 * nodes (all Inserted.Unrecorded). A random draw from a domain that wide almost never comes again, and the values
 * that do (the bounds, the small values generation favours) come again soon and get their subtrees; so
 * duplicates are still avoided where they occur, a space small enough to be exhausted is recorded whole (its
 * branches are not wide), and a run of ten million examples keeps a tree of bounded size, without copying every
 * random case into it — or even its first value: a table entry per value seen once cost a list of integers a
 * fifth of its run (the leaf, the growing child tables, their garbage). Failures, and every case outside
 * generation (shrinking, the final replays), are always recorded.
 *
 * Exhaustion: a node is exhausted when every continuation below it has been tried — its transition is a
 * Conclusion, or a Branch whose every legal value has an exhausted child, and each choice of its run had only
 * one legal value (a forced choice, or a domain of one). Exhaustion propagates to the root; an exhausted root
 * means the property's whole input space has been run.
 */
import type { ChoiceData } from "../choice/storage.ts";
import type { ChoiceNode, ChoiceType, ChoiceValue, Constraints } from "../choice/types.ts";
import { choiceEquals, choiceKey } from "../choice/identity.ts";
import { dataOfNodes, storedValue, FORCED_BIT, TYPE_NAMES, typeCode } from "../choice/storage.ts";
import { domainSize, permitted, simplest } from "../choice/domain.ts";

export const Status = { Overrun: 0, Invalid: 1, Valid: 2, Interesting: 3 } as const;
export type Status = (typeof Status)[keyof typeof Status];
export const STATUS_NAMES = ["overrun", "invalid", "valid", "interesting"] as const;

export interface Conclusion {
  readonly kind: "conclusion";
  readonly status: Status;
  /** For interesting cases: which failure (error type and location), so the shrinker keeps to one bug. */
  readonly origin: string | undefined;
}

/** The conclusions without an origin, shared: one per status. */
const PLAIN_CONCLUSIONS: readonly Conclusion[] = [0, 1, 2, 3].map((status) =>
  Object.freeze({ kind: "conclusion" as const, status: status as Status, origin: undefined }),
);

export function conclusionOf(status: Status, origin: string | undefined): Conclusion {
  return origin === undefined ? PLAIN_CONCLUSIONS[status] : { kind: "conclusion", status, origin };
}

/** A child in a branch: a TreeNode, or (a leaf not yet needed as a node) its id in the tree's leaf table. */
type Child = TreeNode | number;
type Key = string | number | boolean;

const keyBits = new Float64Array(1);
const keyWords = new Int32Array(keyBits.buffer);
const ONCE_BITS = 14;

/** A 32-bit hash of a number: itself if a 32-bit integer (not -0), else its bits (NaN and -0 included). */
function numberHash(k: number): number {
  if ((k | 0) === k && !(k === 0 && 1 / k < 0)) return k;
  keyBits[0] = k;
  return keyWords[0] ^ Math.imul(keyWords[1], 0x9e3779b1);
}

/** A 32-bit hash of a child key (a number's, or a string's characters). */
function keyHash(key: Key): number {
  if (typeof key === "number") return numberHash(key);
  if (typeof key === "boolean") return key ? 1 : 0;
  return stringHash(key, key.length);
}

/** FNV-1a over a string's code units, from `seed`. */
function stringHash(s: string, seed: number): number {
  let h = seed;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}

/**
 * A branch's children by value key (choiceKey). Numbers and booleans — nearly every branch — are in an
 * open-addressing table of float64 keys (a Map hashing a float that is not a small integer was most of the
 * lookup's cost, on branches of thousands of children); strings, and the number keys a float64 comparison
 * cannot tell apart (NaN, -0), in a Map.
 */
export class ChildTable {
  size = 0;
  private keys = new Float64Array(8);
  private refs: (Child | undefined)[] = new Array<Child | undefined>(8);
  private mask = 7;
  private others: Map<Key, Child> | null = null;

  private static hash(k: number): number {
    let h = numberHash(k);
    h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
    return h ^ (h >>> 16);
  }

  /** A key the table holds as a float64: a number other than NaN and -0, or a boolean as 0/1. */
  private static numeric(key: Key): number | undefined {
    if (typeof key === "boolean") return key ? 1 : 0;
    if (typeof key !== "number" || key !== key || (key === 0 && 1 / key < 0)) return undefined;
    return key;
  }

  get(key: Key): Child | undefined {
    const k = ChildTable.numeric(key);
    if (k === undefined) return this.others?.get(key);
    const keys = this.keys;
    const refs = this.refs;
    const mask = this.mask;
    for (let i = ChildTable.hash(k) & mask; ; i = (i + 1) & mask) {
      const r = refs[i];
      if (r === undefined) return undefined;
      if (keys[i] === k) return r;
    }
  }

  set(key: Key, child: Child): void {
    const k = ChildTable.numeric(key);
    if (k === undefined) {
      const others = (this.others ??= new Map());
      if (!others.has(key)) this.size++;
      others.set(key, child);
      return;
    }
    if (this.place(k, child)) {
      this.size++;
      if (2 * (this.size - (this.others?.size ?? 0)) > this.mask) this.grow();
    }
  }

  /** Put `child` under `k`; true if the key is new. */
  private place(k: number, child: Child): boolean {
    const keys = this.keys;
    const refs = this.refs;
    const mask = this.mask;
    for (let i = ChildTable.hash(k) & mask; ; i = (i + 1) & mask) {
      const r = refs[i];
      if (r === undefined) {
        keys[i] = k;
        refs[i] = child;
        return true;
      }
      if (keys[i] === k) {
        refs[i] = child;
        return false;
      }
    }
  }

  private grow(): void {
    const keys = this.keys;
    const refs = this.refs;
    const n = keys.length * 2;
    this.keys = new Float64Array(n);
    this.refs = new Array<Child | undefined>(n);
    this.mask = n - 1;
    for (let i = 0; i < keys.length; i++) {
      const r = refs[i];
      if (r !== undefined) this.place(keys[i], r);
    }
  }

  /** Every child (in no particular order). */
  *values(): IterableIterator<Child> {
    for (const r of this.refs) if (r !== undefined) yield r;
    if (this.others !== null) yield* this.others.values();
  }
}

/** Strings longer than this are kept in the table of values seen once as their length and hashes. */
const LONG_KEY = 64;

/** A key's text in the table of values seen once; `hash`, its keyHash. */
function textKey(s: string, hash: number): string {
  return s.length <= LONG_KEY ? s : `${s.length}:${hash}:${stringHash(s, 0x811c9dc5) >>> 0}`;
}

/**
 * Values seen once at wide decision points (see the file's comment), by slot: the value (a number, or a string
 * in `strings`) and the point, a node's serial and an offset in it (its run's length for its branch). A split
 * keeps the point's name: the node keeps the run up to the split, and the branch sits at the offset split. A
 * tree makes one only past OPEN_AFTER nodes: a short run does not pay for its 256 KB.
 */
class SeenOnce {
  private readonly numbers = new Float64Array(ONCE_SLOTS);
  private strings: (string | undefined)[] | null = null;
  private readonly serials = new Int32Array(ONCE_SLOTS);
  private readonly offsets = new Int32Array(ONCE_SLOTS);

  /**
   * Whether `key` at the point (serial, offset) is seen for the first time: it is then noted, in place of
   * whatever collided with it; a second sight finds it, and clears it.
   */
  first(serial: number, offset: number, key: Key): boolean {
    const numeric = typeof key === "number" && key === key;
    // Other keys by their text (a string is its own; NaN is "NaN": it equals nothing as a number); a long one by
    // its length and two hashes, so that the table never holds on to 16,384 long strings (a false match only
    // records a value).
    const hash = keyHash(key);
    const text = numeric ? undefined : textKey(String(key), hash);
    const slot =
      (Math.imul(hash, 0x9e3779b1) ^ Math.imul(serial, 0x85ebca6b) ^ Math.imul(offset + 1, 0xc2b2ae35)) >>>
      (32 - ONCE_BITS);
    if (
      this.serials[slot] === serial &&
      this.offsets[slot] === offset &&
      this.strings?.[slot] === text &&
      (!numeric || this.numbers[slot] === key)
    ) {
      this.serials[slot] = 0;
      return false;
    }
    this.serials[slot] = serial;
    this.offsets[slot] = offset;
    if (numeric) this.numbers[slot] = key;
    if (text !== undefined || this.strings !== null)
      (this.strings ??= new Array<string | undefined>(ONCE_SLOTS))[slot] = text;
    return true;
  }
}

export class Branch {
  readonly kind = "branch";
  readonly children = new ChildTable();
  exhaustedChildren = 0;
  constructor(
    readonly type: ChoiceType,
    readonly constraints: Constraints,
    readonly size: number,
    /** typeCode | FORCED_BIT of the choice branched on, to notice a different kind drawn at this position. */
    readonly code: number = typeCode(type),
  ) {}
}

/** A kind of choice, stored in runs as its index in DataTree.kinds. */
export interface ChoiceKind {
  readonly type: ChoiceType;
  /** typeCode | FORCED_BIT (choice/storage.ts). */
  readonly code: number;
  readonly constraints: Constraints;
  readonly forced: boolean;
  /** More than one legal value: not forced, and a domain above one. */
  readonly free: boolean;
  /** Domain size, for a Branch on this kind (1 when not free). */
  readonly size: number;
}

/** Choices stored for runs: parallel typed arrays (off the JS heap), positions handed out in order. */
export class Chunk {
  readonly values: Float64Array;
  readonly kindIds: Int32Array;
  /** String and bytes values by position (made on first use). */
  objects: unknown[] | null = null;
  top = 0;
  constructor(
    readonly kinds: readonly ChoiceKind[],
    readonly capacity: number,
  ) {
    this.values = new Float64Array(capacity);
    this.kindIds = new Int32Array(capacity);
  }

  kindAt(p: number): ChoiceKind {
    return this.kinds[this.kindIds[p]];
  }

  valueAt(p: number): ChoiceValue {
    return storedValue(this.kinds[this.kindIds[p]].code, this.values, this.objects, p);
  }
}

const CHUNK_CHOICES = 1 << 14;
/** A branch over more values than this is wide: while generating, it takes at most WIDE_CHILDREN children. */
export const WIDE_DOMAIN = 1 << 16;
export const WIDE_CHILDREN = 4096;
/**
 * While generating, a case leaving the tree at a wide branch is recorded only on its value's second sight once
 * the tree has this many nodes: a run of a few hundred examples is recorded whole, as the shrinker's cache wants
 * it (a shrink candidate that generation already ran is answered without a call).
 */
export const OPEN_AFTER = 4096;
/** Entries of the table of values seen once at wide branches (a power of two: 16,384 × 12 bytes). */
export const ONCE_SLOTS = 1 << ONCE_BITS;
/** While generating, new tails are recorded while the runs hold fewer choices than this (12 bytes each)… */
export const CHOICE_BUDGET = 1 << 21;
/** …and new nodes made while the tree has fewer than this. */
export const NODE_BUDGET = 1 << 18;
const LEAF_STRIDE = 5;
const FIRST_CHUNK_CHOICES = 1 << 10;
const NO_KINDS: ChoiceKind[] = [];
const EMPTY_CHUNK = new Chunk(NO_KINDS, 0);

export class TreeNode {
  /** The run: positions [start, end) of `chunk` (shared with other runs, never copied). */
  chunk: Chunk = EMPTY_CHUNK;
  start = 0;
  end = 0;
  /** Offset in the run of the last position with more than one legal value (−1 if none): exhaustible only below it. */
  lastFree = -1;
  transition: Branch | Conclusion | null = null;
  exhausted = false;
  /** The call (DataTree.insert's `call`) on which the case ending in this node's conclusion ran; −1 if unknown. */
  call = -1;
  /** The node's number in its tree's table of values seen once (DataTree.firstSight); 0 until it needs one. */
  serial = 0;
  constructor(public parent: TreeNode | null) {}

  get runLength(): number {
    return this.end - this.start;
  }

  /** The run's values (a copy, for inspection). */
  get values(): ChoiceValue[] {
    const out: ChoiceValue[] = [];
    for (let i = this.start; i < this.end; i++) out.push(this.chunk.valueAt(i));
    return out;
  }
}

function showValue(v: ChoiceValue): string {
  if (typeof v === "string") return JSON.stringify(v);
  if (v instanceof Uint8Array) return `bytes [${v.join(", ")}]`;
  return Object.is(v, -0) ? "-0" : String(v);
}

function lastFreeIn(chunk: Chunk, start: number, end: number): number {
  for (let i = end - 1; i >= start; i--) if (chunk.kindAt(i).free) return i - start;
  return -1;
}

/**
 * What DataTree.insert did with a case: Kept — new ground, the tree now holds (a copy of) the case's choices;
 * Repeat — the same sequence concluded the same way before; Flaky — different choices or result than
 * before on the same prefix (the test is not deterministic); Unrecorded — new ground the tree kept no copy of
 * (see `frugal`).
 */
export const Inserted = { Kept: 0, Repeat: 1, Flaky: 2, Unrecorded: 3 } as const;
export type Inserted = (typeof Inserted)[keyof typeof Inserted];

/** How a case disagreed with the tree (DataTree.divergence, set by an insert that returned Flaky). */
export interface Divergence {
  /**
   * conclusion: the same choices ended with another status; continued: the case drew a choice where an
   * earlier case had ended; ended: it ended where earlier cases drew more; draw: at `position` it drew
   * another kind of choice (type, constraints, forced) than before, or another value where only one was
   * possible (a forced value).
   */
  readonly kind: "conclusion" | "continued" | "ended" | "draw";
  /** The choice index where the case and the earlier run(s) parted (its length for "conclusion" and "ended"). */
  readonly position: number;
  /** An earlier case through the same choices: how it ended and on which call (−1 if not recorded). */
  readonly previous:
    { readonly status: Status; readonly origin: string | undefined; readonly call: number } | undefined;
  /** For "draw": the choice drawn at `position` before, and now. */
  readonly before: string | undefined;
  readonly now: string | undefined;
}

/** The same constraints (the same object, or equal fields: strategies built per draw make new objects). */
export function sameConstraints(a: Constraints, b: Constraints): boolean {
  if (a === b) return true;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    const x = (a as unknown as Record<string, unknown>)[k];
    const y = (b as unknown as Record<string, unknown>)[k];
    if (Object.is(x, y)) continue;
    // A string's alphabet: equal when its intervals and its order are.
    const ix = (x as { intervals?: unknown } | null)?.intervals;
    const iy = (y as { intervals?: unknown } | null)?.intervals;
    if (!Array.isArray(ix) || !Array.isArray(iy) || ix.length !== iy.length) return false;
    if ((x as { order?: unknown }).order !== (y as { order?: unknown }).order) return false;
    for (let i = 0; i < ix.length; i++) if (ix[i][0] !== iy[i][0] || ix[i][1] !== iy[i][1]) return false;
  }
  return true;
}

function bound(x: number | null, unbounded: string): string {
  return x === null ? unbounded : String(x);
}

/** A kind of choice in words, for the flakiness report ("integer in [0, 10]", "boolean (forced)"). */
export function describeKind(code: number, constraints: Constraints): string {
  const c = constraints as unknown as Record<string, unknown>;
  let text: string;
  switch (TYPE_NAMES[code & 7]) {
    case "integer":
      text = `integer in [${bound(c.min as number | null, "-∞")}, ${bound(c.max as number | null, "∞")}]`;
      break;
    case "float":
      text = `float in [${String(c.min)}, ${String(c.max)}]`;
      break;
    case "boolean":
      text = "boolean";
      break;
    case "string":
      text = `string of length ${String(c.minSize)}..${String(c.maxSize)}`;
      break;
    default:
      text = `bytes of length ${String(c.minSize)}..${String(c.maxSize)}`;
  }
  return (code & FORCED_BIT) !== 0 ? `${text} (forced)` : text;
}

/** Growth of the tree, reported to the event tap so the panel can draw it. */
export interface TreeGrowth {
  readonly newNodes: number;
  /** Choice-sequence depths at which subtrees became exhausted by this recording. */
  readonly exhaustedDepths: readonly number[];
  readonly rootExhausted: boolean;
  /** The test made different choices than before on the same prefix: it is not deterministic. */
  readonly flaky: boolean;
}

export interface CachedResult {
  readonly status: Status;
  readonly origin: string | undefined;
  /** The choices the test would make on this input (the replay of the candidate, aligned). */
  readonly nodes: ChoiceNode[];
}

function transitionExhausted(node: TreeNode): boolean {
  const t = node.transition;
  if (t === null) return false;
  if (t.kind === "conclusion") return true;
  return t.children.size >= t.size && t.exhaustedChildren >= t.size;
}

export class DataTree {
  readonly root = new TreeNode(null);
  nodeCount = 1;
  /** Bumped on every change, so that a cursor's record hint is only trusted if nothing changed since. */
  version = 0;
  /** What the last insert that returned Flaky disagreed with. */
  divergence: Divergence | null = null;
  /** Every kind of choice recorded, by id. */
  readonly kinds: ChoiceKind[] = [];
  private readonly kindsByConstraints = new Map<Constraints, number[]>();
  /** A small most-recently-used cache in front of kindsByConstraints (a property draws few kinds, in turn). */
  private readonly cacheConstraints: (Constraints | null)[] = [null, null, null, null];
  private readonly cacheCodes = [-1, -1, -1, -1];
  private readonly cacheIds = [0, 0, 0, 0];
  private cacheNext = 0;
  private chunk: Chunk = EMPTY_CHUNK;
  /** Choices held by the runs (CHOICE_BUDGET). */
  storedChoices = 0;
  /**
   * Set while generating: novel cases at full wide branches, or past the choice budget, are not recorded (see
   * the file's comment). Off, every case is recorded.
   */
  frugal = false;
  /** Cases not recorded because of `frugal`. */
  unrecorded = 0;

  /** The id of a kind of choice, registering it on first sight. */
  private kindId(code: number, constraints: Constraints): number {
    const cc = this.cacheConstraints;
    for (let k = 0; k < 4; k++) if (cc[k] === constraints && this.cacheCodes[k] === code) return this.cacheIds[k];
    let byCode = this.kindsByConstraints.get(constraints);
    if (byCode === undefined) this.kindsByConstraints.set(constraints, (byCode = []));
    let id = byCode[code];
    if (id === undefined) {
      id = this.kinds.length;
      const type = TYPE_NAMES[code & 7];
      const forced = (code & FORCED_BIT) !== 0;
      const size = forced ? 1 : domainSize(type, constraints);
      this.kinds.push({ type, code, constraints, forced, free: size > 1, size: size > 1 ? size : 1 });
      byCode[code] = id;
    }
    const slot = this.cacheNext;
    this.cacheNext = (slot + 1) & 3;
    cc[slot] = constraints;
    this.cacheCodes[slot] = code;
    this.cacheIds[slot] = id;
    return id;
  }

  /** Copy choices [from, to) of flat `data` into chunk storage, as the run of `node`. */
  private store(node: TreeNode, data: ChoiceData, from: number, to: number): void {
    this.storeRun(data, from, to);
    node.chunk = this.chunk;
    node.start = this.runStart;
    node.end = this.runStart + (to - from);
    node.lastFree = this.runLastFree;
  }

  /** Where the last storeRun put its run (in this.chunk), and its last free offset. */
  private runStart = 0;
  private runLastFree = -1;

  /** Copy choices [from, to) of flat `data` into chunk storage (this.chunk, from runStart). */
  private storeRun(data: ChoiceData, from: number, to: number): void {
    const n = to - from;
    let chunk = this.chunk;
    if (chunk.top + n > chunk.capacity) {
      // Chunks start small (most runs are short) and double up to CHUNK_CHOICES.
      const size = Math.min(CHUNK_CHOICES, Math.max(FIRST_CHUNK_CHOICES, chunk.capacity * 2));
      chunk = this.chunk = new Chunk(this.kinds, Math.max(size, n));
    }
    const start = chunk.top;
    // Values as they are (booleans are 0/1 there too); strings and bytes by reference.
    chunk.values.set(data.values.subarray(from, to), start);
    const ids = chunk.kindIds;
    const kinds = this.kinds;
    const codes = data.codes;
    const cons = data.constraints;
    let lastFree = -1;
    // The last two kinds seen, in locals (runs alternate few kinds: a list's flag and its element).
    let c0: unknown = null;
    let k0 = -1;
    let id0 = 0;
    let c1: unknown = null;
    let k1 = -1;
    let id1 = 0;
    let objects = false;
    for (let j = 0; j < n; j++) {
      const code = codes[from + j];
      const constraints = cons[from + j];
      let id: number;
      if (constraints === c0 && code === k0) id = id0;
      else if (constraints === c1 && code === k1) id = id1;
      else {
        id = this.kindId(code, constraints);
        c1 = c0;
        k1 = k0;
        id1 = id0;
        c0 = constraints;
        k0 = code;
        id0 = id;
      }
      ids[start + j] = id;
      if (kinds[id].free) lastFree = j;
      if ((code & 7) >= 3) objects = true;
    }
    if (objects) {
      const to = (chunk.objects ??= new Array(chunk.capacity));
      const from_ = data.objects as unknown[];
      for (let j = 0; j < n; j++) if ((codes[from + j] & 7) >= 3) to[start + j] = from_[from + j];
    }
    chunk.top = start + n;
    this.storedChoices += n;
    this.runStart = start;
    this.runLastFree = lastFree;
  }

  /**
   * Leaves kept as table entries instead of TreeNodes until something walks into them: a random case
   * usually ends in a leaf nothing ever visits again, so it costs no object. Per leaf: chunk, and
   * start, end, lastFree, status, call (Int32Array, LEAF_STRIDE each).
   */
  private readonly leafChunks: Chunk[] = [];
  private leafInts = new Int32Array(LEAF_STRIDE * 256);

  /**
   * Hang a new child off `branch` (the transition of `parent`) for `key`, holding choices [from, to) of
   * `data` and concluding with `conclusion`.
   */
  private addChild(
    parent: TreeNode,
    branch: Branch,
    key: string | number | boolean,
    data: ChoiceData,
    from: number,
    to: number,
    conclusion: Conclusion,
    depth: number,
    exhaustedDepths: number[] | null,
    call: number,
  ): Inserted {
    if (this.skips(conclusion, to - from)) return Inserted.Unrecorded;
    this.nodeCount++;
    this.storeRun(data, from, to);
    if (this.runLastFree >= 0 && conclusion.origin === undefined) {
      // Not exhausted (a free choice in its run) and a plain conclusion: a table entry is enough.
      this.addLeaf(
        branch,
        key,
        this.chunk,
        this.runStart,
        this.runStart + (to - from),
        this.runLastFree,
        conclusion.status,
        call,
      );
      return Inserted.Kept;
    }
    const child = new TreeNode(parent);
    child.chunk = this.chunk;
    child.start = this.runStart;
    child.end = this.runStart + (to - from);
    child.lastFree = this.runLastFree;
    child.transition = conclusion;
    child.call = call;
    branch.children.set(key, child);
    this.propagate(child, depth, exhaustedDepths);
    return Inserted.Kept;
  }

  /**
   * While generating: whether `key`, drawn at offset `offset` of `node`, a decision point over `size` values
   * with `children` recorded, goes unrecorded — a wide point that is full, or where the value is seen for the
   * first time (firstSight). Failures are always recorded.
   */
  private unrecordedAtWide(
    node: TreeNode,
    offset: number,
    size: number,
    children: number,
    key: Key,
    conclusion: Conclusion,
  ): boolean {
    if (!this.frugal || size <= WIDE_DOMAIN || conclusion.status === Status.Interesting) return false;
    if (children < WIDE_CHILDREN && !this.firstSight(node, offset, key)) return false;
    this.unrecorded++;
    return true;
  }

  /** Values seen once at wide decision points (made when first needed). */
  private seenOnce: SeenOnce | null = null;
  private nodeSerials = 0;

  /**
   * While generating, in a tree past OPEN_AFTER nodes: whether `key`, drawn at offset `offset` of `node` (a wide
   * decision point), is seen there for the first time — it is then noted, and not recorded; a second sight finds
   * it (and clears it: the caller records the value).
   */
  private firstSight(node: TreeNode, offset: number, key: Key): boolean {
    if (this.nodeCount < OPEN_AFTER) return false;
    const serial = node.serial !== 0 ? node.serial : (node.serial = ++this.nodeSerials);
    return (this.seenOnce ??= new SeenOnce()).first(serial, offset, key);
  }

  /** A leaf of `branch` for `key` as a table entry. */
  private addLeaf(
    branch: Branch,
    key: Key,
    chunk: Chunk,
    start: number,
    end: number,
    lastFree: number,
    status: number,
    call: number,
  ): void {
    const id = this.leafChunks.length;
    if ((id + 1) * LEAF_STRIDE > this.leafInts.length) {
      const grown = new Int32Array(this.leafInts.length * 2);
      grown.set(this.leafInts);
      this.leafInts = grown;
    }
    const at = id * LEAF_STRIDE;
    this.leafChunks.push(chunk);
    this.leafInts[at] = start;
    this.leafInts[at + 1] = end;
    this.leafInts[at + 2] = lastFree;
    this.leafInts[at + 3] = status;
    this.leafInts[at + 4] = call;
    branch.children.set(key, id);
  }

  /** Whether a new tail of `n` choices concluding in `conclusion` goes unrecorded (`frugal`: past the choice or node budget). */
  private skips(conclusion: Conclusion, n: number): boolean {
    if (
      !this.frugal ||
      conclusion.status === Status.Interesting ||
      (this.storedChoices + n <= CHOICE_BUDGET && this.nodeCount < NODE_BUDGET)
    )
      return false;
    this.unrecorded++;
    return true;
  }

  /** The child of `parent` (whose transition is `branch`) for `key`, made a TreeNode if it was a table entry. */
  childOf(parent: TreeNode, branch: Branch, key: string | number | boolean): TreeNode | undefined {
    const child = branch.children.get(key);
    return typeof child === "number" ? this.materialize(parent, branch, key, child) : child;
  }

  /** Turn leaf `id` (a child of `parent` under `branch`) into a TreeNode. */
  materialize(parent: TreeNode, branch: Branch, key: string | number | boolean, id: number): TreeNode {
    const at = id * LEAF_STRIDE;
    const node = new TreeNode(parent);
    node.chunk = this.leafChunks[id];
    node.start = this.leafInts[at];
    node.end = this.leafInts[at + 1];
    node.lastFree = this.leafInts[at + 2];
    const status = this.leafInts[at + 3];
    node.transition = PLAIN_CONCLUSIONS[status];
    node.call = this.leafInts[at + 4];
    branch.children.set(key, node);
    return node;
  }

  get exhausted(): boolean {
    return this.root.exhausted;
  }

  /** Record a finished test case (run on call `call`, if known); returns what grew. */
  record(nodes: readonly ChoiceNode[], conclusion: Conclusion, call = -1): TreeGrowth {
    const before = this.nodeCount;
    const exhaustedDepths: number[] = [];
    const result = this.insert(dataOfNodes(nodes), 0, nodes.length, conclusion, null, exhaustedDepths, call);
    return {
      newNodes: this.nodeCount - before,
      exhaustedDepths,
      rootExhausted: this.root.exhausted,
      flaky: result === Inserted.Flaky,
    };
  }

  /**
   * Record `length` choices of flat `data`, choice i at position base + i (the part the tree keeps is
   * copied into its chunks: `data` may be reused afterwards), concluded on call `call`. `from`: the cursor
   * that walked the tree while the case was generated, to start from where it left the tree. `exhaustedDepths`,
   * if given, receives the depths at which subtrees became exhausted. Flaky (the case disagrees with what
   * was recorded, see `divergence`) leaves the tree as it was.
   */
  insert(
    data: ChoiceData,
    base: number,
    length: number,
    conclusion: Conclusion,
    from: TreeCursor | null,
    exhaustedDepths: number[] | null,
    call = -1,
  ): Inserted {
    let node = this.root;
    let offset = 0;
    let i = 0;
    // The cursor left the tree at choice `diverged` (if before the end): at a branch, that child is missing.
    let diverged = -1;
    if (from !== null && from.tree === this && from.version === this.version) {
      node = from.stopNode;
      offset = from.stopOffset;
      i = from.stopIndex;
      if (from.mismatch !== null)
        return this.diverge(
          "draw",
          i,
          node,
          from.mismatch,
          describeKind(data.codes[base + i], data.constraints[base + i]),
        );
      if (!from.alive) diverged = i;
    }
    this.version++;
    const codes = data.codes;
    const cons = data.constraints;
    for (; i < length; i++) {
      const code = codes[base + i];
      const constraints = cons[base + i];
      const runLength = node.end - node.start;
      if (offset < runLength) {
        const p = node.start + offset;
        const kind = node.chunk.kindAt(p);
        if (
          kind.code !== code ||
          (kind.constraints !== constraints && !sameConstraints(kind.constraints, constraints))
        ) {
          return this.diverge(
            "draw",
            i,
            node,
            describeKind(kind.code, kind.constraints),
            describeKind(code, constraints),
          );
        }
        const recorded = node.chunk.valueAt(p);
        const value = data.value(base + i);
        if (choiceEquals(kind.type, recorded, value)) offset++;
        else if (!kind.free) {
          // A forced value (or the one legal value) that differs after the same choices: not deterministic.
          return this.diverge(
            "draw",
            i,
            node,
            `${describeKind(kind.code, kind.constraints)} = ${showValue(recorded)}`,
            `${describeKind(code, constraints)} = ${showValue(value)}`,
          );
        } else {
          // (a split is new ground too: under the budget's pressure, or for a value seen here for the first time
          // at a wide decision point, not made for a case that is not kept)
          if (this.skips(conclusion, length - i)) return Inserted.Unrecorded;
          const key = choiceKey(kind.type, value);
          if (this.unrecordedAtWide(node, offset, kind.size, 1, key, conclusion)) return Inserted.Unrecorded;
          const branch = this.split(node, offset);
          return this.addChild(
            node,
            branch,
            key,
            data,
            base + i + 1,
            base + length,
            conclusion,
            length,
            exhaustedDepths,
            call,
          );
        }
        continue;
      }
      const t = node.transition;
      if (t === null) {
        // A fresh node (or the empty root before the first case): the rest of the case is its run.
        if (runLength === 0) break;
        return this.diverge("continued", i, node); // unreachable: every other node has a transition
      }
      if (t.kind === "conclusion") return this.diverge("continued", i, node); // it ended here before and continues now
      if (t.code !== code || (t.constraints !== constraints && !sameConstraints(t.constraints, constraints))) {
        return this.diverge("draw", i, node, describeKind(t.code, t.constraints), describeKind(code, constraints));
      }
      const key = choiceKey(t.type, data.value(base + i));
      const child = i === diverged ? undefined : t.children.get(key);
      if (child === undefined) {
        if (this.unrecordedAtWide(node, node.end - node.start, t.size, t.children.size, key, conclusion))
          return Inserted.Unrecorded;
        return this.addChild(
          node,
          t,
          key,
          data,
          base + i + 1,
          base + length,
          conclusion,
          length,
          exhaustedDepths,
          call,
        );
      }
      node = typeof child === "number" ? this.materialize(node, t, key, child) : child;
      offset = 0;
    }
    if (node.transition === null && node.end === node.start) {
      // The empty root: the whole case is its run.
      this.store(node, data, base + i, base + length);
      node.transition = conclusion;
      node.call = call;
      this.propagate(node, length, exhaustedDepths);
      return Inserted.Kept;
    }
    if (offset === node.end - node.start && node.transition?.kind === "conclusion") {
      // The same sequence concluded before (a repeat is not growth); flaky if it ended differently.
      return node.transition.status !== conclusion.status ? this.diverge("conclusion", length, node) : Inserted.Repeat;
    }
    return this.diverge("ended", length, node); // ended where it continued before
  }

  /** Note how a case disagreed with the tree (at `node`, choice `position`) and answer Flaky. */
  private diverge(kind: Divergence["kind"], position: number, node: TreeNode, before?: string, now?: string): Inserted {
    this.divergence = { kind, position, previous: this.conclusionBelow(node), before, now };
    return Inserted.Flaky;
  }

  /** A conclusion recorded at or below `node` (the first found), with the call it was recorded on. */
  private conclusionBelow(node: TreeNode): Divergence["previous"] {
    for (let n = node; ;) {
      const t = n.transition;
      if (t === null) return undefined;
      if (t.kind === "conclusion") return { status: t.status, origin: t.origin, call: n.call };
      const first = t.children.values().next();
      if (first.done === true) return undefined;
      const child = first.value;
      if (typeof child === "number") {
        const at = child * LEAF_STRIDE;
        return { status: this.leafInts[at + 3] as Status, origin: undefined, call: this.leafInts[at + 4] };
      }
      n = child;
    }
  }

  /**
   * Split `node`'s run at `offset` into a Branch, which is returned: the run's tail moves into one child
   * (pointing into the same chunk); the caller adds the child for the new value.
   */
  private split(node: TreeNode, offset: number): Branch {
    const at = node.start + offset;
    const tail = new TreeNode(node);
    tail.chunk = node.chunk;
    tail.start = at + 1;
    tail.end = node.end;
    tail.lastFree = node.lastFree > offset ? node.lastFree - offset - 1 : -1;
    tail.transition = node.transition;
    tail.call = node.call;
    // The tail may be exhausted even though the node was not (the node's free positions are now above it).
    tail.exhausted = node.exhausted || (tail.lastFree < 0 && transitionExhausted(tail));
    if (tail.transition?.kind === "branch")
      for (const child of tail.transition.children.values()) if (typeof child !== "number") child.parent = tail;
    const kind = node.chunk.kindAt(at);
    const branch = new Branch(kind.type, kind.constraints, kind.size, kind.code);
    branch.children.set(choiceKey(kind.type, node.chunk.valueAt(at)), tail);
    if (tail.exhausted) branch.exhaustedChildren++;
    node.end = at;
    node.lastFree = node.lastFree < offset ? node.lastFree : lastFreeIn(node.chunk, node.start, at);
    node.transition = branch;
    node.exhausted = false;
    this.nodeCount++;
    return branch;
  }

  private propagate(node: TreeNode, depth: number, exhaustedDepths: number[] | null): void {
    let n: TreeNode | null = node;
    let d = depth;
    while (n !== null && !n.exhausted && n.lastFree < 0 && transitionExhausted(n)) {
      n.exhausted = true;
      exhaustedDepths?.push(d);
      d -= n.end - n.start + 1;
      const parent: TreeNode | null = n.parent;
      if (parent !== null && parent.transition?.kind === "branch") parent.transition.exhaustedChildren++;
      n = parent;
    }
    // Stopped at a run with a free choice whose branch a child just completed: the node itself is not exhausted,
    // but the prefixes that end after its last free choice are (a viewer with a node per choice marks them).
    if (
      exhaustedDepths !== null &&
      n !== null &&
      n !== node &&
      !n.exhausted &&
      n.lastFree >= 0 &&
      transitionExhausted(n)
    ) {
      for (let k = n.end - n.start; k > n.lastFree; k--) exhaustedDepths.push(d - (n.end - n.start) + k);
    }
  }

  /**
   * What the test would do on these choices, if the tree has seen it: the replay (misfits and missing values
   * become the simplest legal value, forced positions keep their value) walked down to a Conclusion.
   */
  lookup(choices: readonly ChoiceValue[]): CachedResult | undefined {
    let node = this.root;
    let offset = 0;
    const nodes: ChoiceNode[] = [];
    for (let i = 0; ; i++) {
      let type: ChoiceType;
      let constraints: Constraints;
      let free: boolean;
      const inRun = offset < node.end - node.start;
      const at = node.start + offset;
      if (inRun) {
        const kind = node.chunk.kindAt(at);
        type = kind.type;
        constraints = kind.constraints;
        free = kind.free;
      } else {
        const t = node.transition;
        if (t === null) return undefined;
        if (t.kind === "conclusion") return { status: t.status, origin: t.origin, nodes };
        type = t.type;
        constraints = t.constraints;
        free = t.size !== 1;
      }
      let value: ChoiceValue;
      if (!free && inRun) value = node.chunk.valueAt(at);
      else if (i < choices.length && permitted(type, choices[i], constraints)) value = choices[i];
      else value = simplest(type, constraints);
      nodes.push({ type, value, constraints, forced: !free });
      if (inRun) {
        if (!choiceEquals(type, node.chunk.valueAt(at), value)) return undefined;
        offset++;
        continue;
      }
      const child = this.childOf(node, node.transition as Branch, choiceKey(type, value));
      if (child === undefined) return undefined;
      node = child;
      offset = 0;
    }
  }
}

/**
 * A walk down the tree in step with a test case being generated, used to steer away from exhausted
 * subtrees. Once the case leaves the recorded part of the tree the cursor goes dead and costs nothing; it
 * remembers where it left (stopNode, stopOffset, stopIndex), which is where recording the case starts.
 */
/** Filtered cases remembered by value at most (TreeCursor.repeatsFiltered): memory stays bounded in long runs. */
const FILTERED_KEYS = 100_000;

/** Whether `keys` holds `key` (a filtered case's accepted key: TreeCursor.repeatsFiltered); adds it if not. */
export function repeatsFiltered(keys: Set<string>, key: string): boolean {
  if (keys.has(key)) return true;
  if (keys.size < FILTERED_KEYS) keys.add(key);
  return false;
}

export class TreeCursor {
  private node: TreeNode | null;
  private offset = 0;
  /** Choices advanced past so far. */
  private index = 0;
  /** Where the walk is, or where it left the tree: node, offset in its run, choice index. */
  stopNode: TreeNode;
  stopOffset = 0;
  stopIndex = 0;
  /** The child found by the last leadsToExhausted on a branch, reused by the advance that follows. */
  private peekKey: string | number | boolean | undefined = undefined;
  private peekChild: TreeNode | number | undefined = undefined;
  version: number;
  /**
   * The case's flat choices (the value being advanced past is already in it),
   * so that advancing also checks each choice is of the kind recorded there; null to compare values only.
   */
  private data: ChoiceData | null = null;
  /** Set when the walk stopped because the case drew another kind of choice than recorded: the recorded kind. */
  mismatch: string | null = null;
  constructor(
    readonly tree: DataTree,
    /**
     * The accepted keys (TestCase.acceptedKey) of the cases that went through a filter: a case whose filters reached
     * a value already tested after rejecting other attempts is a duplicate the tree cannot see (its choices differ).
     * Shared with the generation log (generationLog.ts), which asks the same question before the tree steers.
     */
    private readonly filteredKeys = new Set<string>(),
  ) {
    this.node = tree.root;
    this.stopNode = tree.root;
    this.version = tree.version;
  }

  /** Start again from the root, for the next case (one cursor serves a whole generate phase), whose choices are `data`. */
  reset(data: ChoiceData | null = null): void {
    this.node = this.stopNode = this.tree.root;
    this.offset = this.index = this.stopOffset = this.stopIndex = 0;
    this.version = this.tree.version;
    this.peekKey = undefined;
    this.peekChild = undefined;
    this.data = data;
    this.mismatch = null;
  }

  /** Whether the choice being advanced past has another kind than `code`/`constraints` (recorded there); if so the walk stops. */
  private kindDiffers(code: number, constraints: Constraints): boolean {
    const data = this.data;
    if (data === null) return false;
    const at = this.index;
    const c = data.constraints[at];
    if (data.codes[at] === code && (c === constraints || sameConstraints(constraints, c))) return false;
    this.mismatch = describeKind(code, constraints);
    this.node = null;
    return true;
  }

  get alive(): boolean {
    return this.node !== null;
  }

  /** Whether choosing `value` next leads only to test cases that have all been run already. */
  leadsToExhausted(type: ChoiceType, value: ChoiceValue): boolean {
    const node = this.node;
    if (node === null) return false;
    if (this.offset < node.end - node.start) {
      if (!choiceEquals(type, node.chunk.valueAt(node.start + this.offset), value)) return false;
      // Following the run: exhausted if no later position of the run is free and what follows is exhausted.
      return node.lastFree <= this.offset && transitionExhausted(node);
    }
    const t = node.transition;
    if (t === null || t.kind === "conclusion") return false;
    if (t.exhaustedChildren === 0) return false; // nothing below is exhausted: no lookup needed
    const key = choiceKey(type, value);
    const child = t.children.get(key);
    this.peekKey = key;
    this.peekChild = child;
    return child !== undefined && typeof child !== "number" && child.exhausted; // table leaves are never exhausted
  }

  /** Whether a case that went through a filter drew values already tested (`key`: its accepted key); remembers it if not. */
  repeatsFiltered(key: string): boolean {
    return repeatsFiltered(this.filteredKeys, key);
  }

  /** Whether the choices so far are exactly a case already run to its conclusion. */
  atConclusion(): boolean {
    const node = this.node;
    return node !== null && this.offset === node.end - node.start && node.transition?.kind === "conclusion";
  }

  /** Advance past the chosen value. */
  advance(type: ChoiceType, value: ChoiceValue): void {
    const node = this.node;
    if (node === null) return;
    if (this.offset < node.end - node.start) {
      const p = node.start + this.offset;
      if (choiceEquals(type, node.chunk.valueAt(p), value)) {
        const kind = node.chunk.kindAt(p);
        if (this.kindDiffers(kind.code, kind.constraints)) return;
        this.offset++;
        this.stopOffset = this.offset;
        this.index++;
        this.stopIndex = this.index;
      } else this.node = null;
      return;
    }
    const t = node.transition;
    if (t === null || t.kind === "conclusion") {
      this.node = null;
      return;
    }
    if (this.kindDiffers(t.code, t.constraints)) return;
    const key = choiceKey(type, value);
    let found: TreeNode | number | undefined;
    if (this.peekKey !== undefined && key === this.peekKey) found = this.peekChild;
    else found = t.children.get(key);
    this.peekKey = undefined;
    this.peekChild = undefined;
    if (found === undefined) {
      this.node = null;
      return;
    }
    const child = typeof found === "number" ? this.tree.materialize(node, t, key, found) : found;
    this.node = child;
    this.offset = 0;
    this.index++;
    this.stopNode = child;
    this.stopOffset = 0;
    this.stopIndex = this.index;
  }
}
