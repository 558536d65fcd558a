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
 *   root ─ run [3, true] ─ Branch on integer {0..9}
 *                             ├─ 4 → run [false] → Conclusion(valid)
 *                             └─ 7 → run []      → Conclusion(interesting)
 *
 * Exhaustion: a node is exhausted when every continuation below it has been tried — its transition is a
 * Conclusion, or a Branch whose every legal value has an exhausted child, and each choice of its run had only
 * one legal value (a forced choice, or a domain of one). Exhaustion propagates to the root; an exhausted root
 * means the property's whole input space has been run.
 */
import type { ChoiceNode, ChoiceType, ChoiceValue, Constraints } from "./choices.ts";
import { choiceEquals, choiceKey, domainSize, permitted, simplest } from "./choices.ts";

export const Status = { Overrun: 0, Invalid: 1, Valid: 2, Interesting: 3 } as const;
export type Status = (typeof Status)[keyof typeof Status];
export const STATUS_NAMES = ["overrun", "invalid", "valid", "interesting"] as const;

export interface Conclusion {
  readonly kind: "conclusion";
  readonly status: Status;
  /** For interesting cases: which failure (error type and location), so the shrinker keeps to one bug. */
  readonly origin: string | undefined;
}

export class Branch {
  readonly kind = "branch";
  readonly children = new Map<string | number | boolean, TreeNode>();
  exhaustedChildren = 0;
  constructor(
    readonly type: ChoiceType,
    readonly constraints: Constraints,
    readonly size: number,
  ) {}
}

export class TreeNode {
  types: ChoiceType[] = [];
  constraints: Constraints[] = [];
  values: ChoiceValue[] = [];
  /** Per run position: whether it had more than one legal value (not forced, domain above one). */
  free: boolean[] = [];
  /** Index of the last free run position (−1 if none): the run is exhaustible only below it. */
  lastFree = -1;
  transition: Branch | Conclusion | null = null;
  exhausted = false;
  constructor(public parent: TreeNode | null) {}

  pushRun(type: ChoiceType, constraints: Constraints, value: ChoiceValue, free: boolean): void {
    this.types.push(type);
    this.constraints.push(constraints);
    this.values.push(value);
    this.free.push(free);
    if (free) this.lastFree = this.values.length - 1;
  }
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

function isFree(n: ChoiceNode): boolean {
  return !n.forced && domainSize(n.type, n.constraints) > 1;
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

  get exhausted(): boolean {
    return this.root.exhausted;
  }

  /** Record a finished test case; returns what grew. */
  record(nodes: readonly ChoiceNode[], conclusion: Conclusion): TreeGrowth {
    let node = this.root;
    let offset = 0;
    const before = this.nodeCount;
    const flaky = (): TreeGrowth => ({ newNodes: this.nodeCount - before, exhaustedDepths: [], rootExhausted: this.root.exhausted, flaky: true });
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i];
      if (offset < node.values.length) {
        if (choiceEquals(n.type, node.values[offset], n.value)) offset++;
        else {
          node = this.split(node, offset, n);
          offset = 0;
        }
        continue;
      }
      const t = node.transition;
      if (t === null) {
        // A node made by this recording (or the empty root): its run simply grows.
        node.pushRun(n.type, n.constraints, n.value, isFree(n));
        offset++;
        continue;
      }
      if (t.kind === "conclusion") return flaky(); // it ended here before and continues now
      const key = choiceKey(n.type, n.value);
      let child = t.children.get(key);
      if (child === undefined) {
        child = new TreeNode(node);
        t.children.set(key, child);
        this.nodeCount++;
      }
      node = child;
      offset = 0;
    }
    if (offset < node.values.length || node.transition !== null) {
      // Ended where it continued before; or the same sequence concluded before (a repeat is not growth).
      if (node.transition?.kind === "conclusion" && offset === node.values.length) {
        return { newNodes: 0, exhaustedDepths: [], rootExhausted: this.root.exhausted, flaky: node.transition.status !== conclusion.status };
      }
      return flaky();
    }
    node.transition = conclusion;
    const exhaustedDepths: number[] = [];
    this.propagate(node, nodes.length, exhaustedDepths);
    return { newNodes: this.nodeCount - before, exhaustedDepths, rootExhausted: this.root.exhausted, flaky: false };
  }

  /**
   * Split `node`'s run at `offset` into a Branch: the run's tail moves into one child, and a new empty child
   * is made for `next`'s value, which is returned.
   */
  private split(node: TreeNode, offset: number, next: ChoiceNode): TreeNode {
    const tail = new TreeNode(node);
    tail.types = node.types.slice(offset + 1);
    tail.constraints = node.constraints.slice(offset + 1);
    tail.values = node.values.slice(offset + 1);
    tail.free = node.free.slice(offset + 1);
    tail.lastFree = tail.free.lastIndexOf(true);
    tail.transition = node.transition;
    // The tail may be exhausted even though the node was not (the node's free positions are now above it).
    tail.exhausted = node.exhausted || (tail.lastFree < 0 && transitionExhausted(tail));
    if (tail.transition?.kind === "branch") for (const child of tail.transition.children.values()) child.parent = tail;
    const type = node.types[offset];
    const constraints = node.constraints[offset];
    const branch = new Branch(type, constraints, node.free[offset] ? domainSize(type, constraints) : 1);
    branch.children.set(choiceKey(type, node.values[offset]), tail);
    if (tail.exhausted) branch.exhaustedChildren++;
    node.types.length = offset;
    node.constraints.length = offset;
    node.values.length = offset;
    node.free.length = offset;
    node.lastFree = node.free.lastIndexOf(true);
    node.transition = branch;
    node.exhausted = false;
    const child = new TreeNode(node);
    branch.children.set(choiceKey(next.type, next.value), child);
    this.nodeCount += 2;
    return child;
  }

  private propagate(node: TreeNode, depth: number, exhaustedDepths: number[]): void {
    let n: TreeNode | null = node;
    let d = depth;
    while (n !== null && !n.exhausted && n.lastFree < 0 && transitionExhausted(n)) {
      n.exhausted = true;
      exhaustedDepths.push(d);
      d -= n.values.length + 1;
      const parent: TreeNode | null = n.parent;
      if (parent !== null && parent.transition?.kind === "branch") parent.transition.exhaustedChildren++;
      n = parent;
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
      if (offset < node.values.length) {
        type = node.types[offset];
        constraints = node.constraints[offset];
        free = node.free[offset];
      } else {
        const t = node.transition;
        if (t === null) return undefined;
        if (t.kind === "conclusion") return { status: t.status, origin: t.origin, nodes };
        type = t.type;
        constraints = t.constraints;
        free = t.size !== 1;
      }
      let value: ChoiceValue;
      if (!free && offset < node.values.length) value = node.values[offset];
      else if (i < choices.length && permitted(type, choices[i], constraints)) value = choices[i];
      else value = simplest(type, constraints);
      nodes.push({ type, value, constraints, forced: !free });
      if (offset < node.values.length) {
        if (!choiceEquals(type, node.values[offset], value)) return undefined;
        offset++;
        continue;
      }
      const branch = node.transition as Branch;
      const child = branch.children.get(choiceKey(type, value));
      if (child === undefined) return undefined;
      node = child;
      offset = 0;
    }
  }
}

/**
 * A walk down the tree in step with a test case being generated, used to steer away from exhausted
 * subtrees. Once the case leaves the recorded part of the tree the cursor goes dead and costs nothing.
 */
export class TreeCursor {
  private node: TreeNode | null;
  private offset = 0;
  constructor(tree: DataTree) {
    this.node = tree.root;
  }

  get alive(): boolean {
    return this.node !== null;
  }

  /** Whether choosing `value` next leads only to test cases that have all been run already. */
  leadsToExhausted(type: ChoiceType, value: ChoiceValue): boolean {
    const node = this.node;
    if (node === null) return false;
    if (this.offset < node.values.length) {
      if (!choiceEquals(type, node.values[this.offset], value)) return false;
      // Following the run: exhausted if no later position of the run is free and what follows is exhausted.
      return node.lastFree <= this.offset && transitionExhausted(node);
    }
    const t = node.transition;
    if (t === null || t.kind === "conclusion") return false;
    const child = t.children.get(choiceKey(type, value));
    return child !== undefined && child.exhausted;
  }

  /** Whether the choices so far are exactly a case already run to its conclusion. */
  atConclusion(): boolean {
    const node = this.node;
    return node !== null && this.offset === node.values.length && node.transition?.kind === "conclusion";
  }

  /** Advance past the chosen value. */
  advance(type: ChoiceType, value: ChoiceValue): void {
    const node = this.node;
    if (node === null) return;
    if (this.offset < node.values.length) {
      if (choiceEquals(type, node.values[this.offset], value)) this.offset++;
      else this.node = null;
      return;
    }
    const t = node.transition;
    if (t === null || t.kind === "conclusion") {
      this.node = null;
      return;
    }
    const child = t.children.get(choiceKey(type, value));
    this.node = child ?? null;
    this.offset = 0;
  }
}
