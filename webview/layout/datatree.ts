/**
 * The DataTree as an icicle: depth runs left to right in columns of one width, and each node's height is its
 * share of the cases that went through it, so a column always adds up to the cases of the node in view. A run of
 * any size fills the view at a size a person reads; zooming (focusing a node) re-lays out the tree below it in
 * the same space, so text keeps its size instead of shrinking with the tree.
 *
 * What is drawn, within a budget of rectangles, shallowest columns first:
 * - a node whose height would be under MIN_HEIGHT px, or beyond the budget, is not drawn: its cases join its
 *   parent's "rest" band (with the cases that ended at the parent and those the model folded to bound memory);
 * - the target's path (the current best failing case) gets at least TARGET_HEIGHT px per node (all of its parent,
 *   if that is less), taken from its siblings, so it is always drawn and labelled down to the last column;
 * - a node is labelled when it is tall enough for a line of text (LABEL_HEIGHT), with its case count below when
 *   there is room for a second line.
 * Pure: the same model and options give the same layout (unit-tested in Node; views/datatree.ts draws it).
 */
import type { StatusName } from "../../src/shared/protocol.ts";
import type { StatusCounts, TreeModel, TreeNode } from "../models/datatree.ts";

/** Shorter than this, a node is not drawn (its cases go to the parent's rest band). */
export const MIN_HEIGHT = 2;
/** Tall enough for a one-line label, and for a second line with the count. */
export const LABEL_HEIGHT = 14;
export const SUB_HEIGHT = 28;
/** Each node of the target's path is at least this tall. */
export const TARGET_HEIGHT = 16;
/** Columns are at least this wide; as many as fit the width are drawn. */
export const MIN_COLUMN = 72;
/** A generous width of a character of the 11 px label font (bold, digits), to cut labels to their rectangle. */
const CHAR_W = 7.2;

export interface IcicleOptions {
  readonly width: number;
  readonly height: number;
  /** The model node in view (its subtree fills the height); the root when absent or no longer stored. */
  readonly focus?: number;
  /** Rectangles drawn at most (default 400). */
  readonly maxVisible?: number;
}

export interface IcicleRect {
  /** Stable across updates, for the draw step's join: "n<id>" for a node, "r<parent id>" for a rest band. */
  readonly id: string;
  readonly kind: "node" | "rest";
  /** The model node (a rest band's: its parent). */
  readonly nodeId: number;
  readonly depth: number;
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
  /** The value of the choice (cut to the width), "all cases" for the root, "+N" for a rest band; "" when too short. */
  readonly label: string;
  /** The second line, when there is room: the case count. */
  readonly sub: string;
  readonly title: string;
  readonly count: number;
  readonly statuses: Readonly<StatusCounts>;
  /** A leaf: the status its cases concluded with. Otherwise the most frequent status below. */
  readonly status: StatusName | undefined;
  readonly leaf: boolean;
  readonly exhausted: boolean;
  readonly onTarget: boolean;
  /** Has children: clicking zooms into it. */
  readonly zoomable: boolean;
}

export interface IcicleLayout {
  readonly rects: readonly IcicleRect[];
  readonly columns: number;
  readonly columnWidth: number;
  /** From the root to the node in view: what the breadcrumb shows (and zooms out to). */
  readonly path: readonly { readonly nodeId: number; readonly label: string }[];
  /** The node in view (the focus, or the root when it is gone). */
  readonly focus: number;
  /** Stored nodes below the focus not drawn (too short, past the budget or the last column). */
  readonly hiddenNodes: number;
  readonly version: number;
}

const STATUSES: readonly StatusName[] = ["valid", "invalid", "overrun", "interesting"];

function dominant(s: StatusCounts): StatusName | undefined {
  let best: StatusName | undefined;
  let max = 0;
  for (const k of STATUSES) if (s[k] > max) ((max = s[k]), (best = k));
  return best;
}

export function countsText(count: number, s: StatusCounts): string {
  const parts = STATUSES.filter((k) => s[k] > 0).map((k) => `${s[k]} ${k === "interesting" ? "failing" : k}`);
  return `${count} case${count === 1 ? "" : "s"}${parts.length > 0 ? `: ${parts.join(", ")}` : ""}`;
}

/** `text` cut to what `width` px holds, with "…" when cut; "" when not even one character fits. */
export function fit(text: string, width: number): string {
  const n = Math.floor((width - 6) / CHAR_W);
  if (n <= 0) return "";
  return text.length <= n ? text : n === 1 ? "…" : `${text.slice(0, n - 1)}…`;
}

/** Columns drawn in `width` px: as many of MIN_COLUMN as fit, at least one. */
export function columnsFor(width: number): number {
  return Math.max(1, Math.floor(Math.max(MIN_COLUMN, width) / MIN_COLUMN));
}

function find(root: TreeNode, id: number | undefined): TreeNode {
  if (id === undefined || id === root.id) return root;
  const stack = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.id === id) return n;
    for (const c of n.children.values()) stack.push(c);
  }
  return root;
}

function nodeLabel(n: TreeNode): string {
  return n.choice === null ? "all cases" : n.choice.label;
}

function nodeTitle(n: TreeNode, exhausted: boolean): string {
  const c = n.choice;
  return [
    c === null ? "root: every test case" : `${c.type} ${c.label} · index ${c.index}${c.forced ? " · forced" : ""}`,
    ...(c !== null && c.constraints !== "" ? [c.constraints] : []),
    countsText(n.count, n.statuses),
    ...(n.ended > 0 ? [`${n.ended} ended here (${n.leaf})`] : []),
    `depth ${n.depth}${exhausted ? " · exhausted: every case below has been tried" : ""}`,
    ...(n.children.size > 0 ? ["click to zoom in"] : []),
  ].join("\n");
}

interface Job {
  readonly node: TreeNode;
  readonly y0: number;
  readonly y1: number;
  readonly col: number;
  readonly exhausted: boolean;
  readonly onTarget: boolean;
}

/**
 * Lay out the subtree of the focus node in `width` × `height` px.
 *
 * @example
 * const lay = layoutIcicle(model, { width: 600, height: 300 });
 * for (const r of lay.rects) drawRect(r.x, r.y, r.w, r.h, r.label);
 */
export function layoutIcicle(model: TreeModel, options: IcicleOptions): IcicleLayout {
  const width = Math.max(MIN_COLUMN, options.width);
  const height = Math.max(LABEL_HEIGHT, options.height);
  const budget = Math.max(1, options.maxVisible ?? 400);
  const columns = columnsFor(width);
  const colW = width / columns;
  const focus = find(model.root, options.focus);

  const path: { nodeId: number; label: string }[] = [];
  let inherited = false;
  for (let n: TreeNode | null = focus; n !== null; n = n.parent) {
    path.unshift({ nodeId: n.id, label: nodeLabel(n) });
    inherited ||= n.exhausted;
  }
  // The target's keys below the focus, if the focus is on its path.
  let targetKeys: readonly string[] | undefined;
  if (model.target !== undefined && focus.depth <= model.target.length) {
    const up: string[] = [];
    for (let n: TreeNode = focus; n.parent !== null; n = n.parent) up.unshift(n.key);
    if (up.every((k, i) => model.target![i] === k)) targetKeys = model.target.slice(focus.depth);
  }

  const rects: IcicleRect[] = [];
  let hiddenNodes = 0;
  const queue: Job[] = [
    { node: focus, y0: 0, y1: height, col: 0, exhausted: inherited, onTarget: targetKeys !== undefined },
  ];
  let scheduled = 1;
  for (let qi = 0; qi < queue.length; qi++) {
    const { node: n, y0, y1, col, exhausted, onTarget } = queue[qi]!;
    const h = y1 - y0;
    const x = col * colW;
    const leaf = n.children.size === 0;
    const labelText = h >= LABEL_HEIGHT ? fit(nodeLabel(n), colW - 2) : "";
    rects.push({
      id: `n${n.id}`,
      kind: "node",
      nodeId: n.id,
      depth: n.depth,
      x,
      y: y0,
      w: colW - 1,
      h,
      label: labelText,
      sub: h >= SUB_HEIGHT ? fit(`${n.count} case${n.count === 1 ? "" : "s"}`, colW - 2) : "",
      title: nodeTitle(n, exhausted),
      count: n.count,
      statuses: n.statuses,
      status: leaf && n.leaf !== undefined ? n.leaf : dominant(n.statuses),
      leaf,
      exhausted,
      onTarget,
      zoomable: !leaf,
    });
    if (leaf) continue;
    const kids = [...n.children.values()];
    if (col + 1 >= columns) {
      for (const c of kids) hiddenNodes += c.stored;
      continue;
    }
    // Children in choice order (simplest first), each its share of the node's cases; the rest (cases that ended
    // here, folded ones, and children too short to draw) in one band at the bottom.
    kids.sort((a, b) => a.choice!.index - b.choice!.index || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const depthOnPath = n.depth - focus.depth;
    const targetKey =
      onTarget && targetKeys !== undefined && depthOnPath < targetKeys.length ? targetKeys[depthOnPath] : undefined;
    const target = targetKey === undefined ? undefined : n.children.get(targetKey);
    const total = Math.max(1, n.count);
    let scale = h / total;
    let targetH = target === undefined ? 0 : target.count * scale;
    if (target !== undefined && targetH < TARGET_HEIGHT) {
      // Every node of the path gets TARGET_HEIGHT (the whole parent, if that is less): the siblings share the rest.
      targetH = Math.min(h, TARGET_HEIGHT);
      scale = (h - targetH) / Math.max(1, total - target.count);
    }
    let y = y0;
    let rest = n.count;
    const restStatuses = { ...n.statuses };
    const chosen: Job[] = [];
    for (const c of kids) {
      const ch = c === target ? targetH : c.count * scale;
      if (c === target || (ch >= MIN_HEIGHT && scheduled < budget)) {
        chosen.push({
          node: c,
          y0: y,
          y1: y + ch,
          col: col + 1,
          exhausted: exhausted || c.exhausted,
          onTarget: c === target,
        });
        scheduled++;
        y += ch;
        rest -= c.count;
        for (const k of STATUSES) restStatuses[k] -= c.statuses[k];
      } else hiddenNodes += c.stored;
    }
    queue.push(...chosen);
    const restH = y0 + h - y;
    if (rest > 0 && restH > 0) {
      const folded = n.folded;
      const branches = kids.length - chosen.length;
      rects.push({
        id: `r${n.id}`,
        kind: "rest",
        nodeId: n.id,
        depth: n.depth + 1,
        x: x + colW,
        y,
        w: colW - 1,
        h: restH,
        label: restH >= LABEL_HEIGHT ? fit(`+${rest}`, colW - 2) : "",
        sub:
          restH >= SUB_HEIGHT
            ? fit(n.ended > 0 && branches === 0 && folded === null ? "ended here" : "not drawn", colW - 2)
            : "",
        title: [
          countsText(rest, restStatuses),
          ...(n.ended > 0 ? [`${n.ended} ended at the node on the left (${n.leaf})`] : []),
          ...(branches > 0
            ? [`${branches} branch${branches === 1 ? "" : "es"} too small to draw here: zoom into the node on the left`]
            : []),
          ...(folded !== null
            ? [`${folded.count} case${folded.count === 1 ? "" : "s"} folded to bound the panel's memory`]
            : []),
        ].join("\n"),
        count: rest,
        statuses: restStatuses,
        status: dominant(restStatuses),
        leaf: false,
        exhausted,
        onTarget: false,
        zoomable: false,
      });
    }
  }
  return {
    rects,
    columns,
    columnWidth: colW,
    path,
    focus: focus.id,
    hiddenNodes: Math.max(0, hiddenNodes),
    version: model.version,
  };
}

/**
 * The node to show when the user has not chosen one: the root, or — when the target's path is deeper than the
 * columns — its ancestor from which the path's end is in the last column.
 */
export function followTarget(model: TreeModel, columns: number): number {
  const target = model.target;
  if (target === undefined) return model.root.id;
  let n = model.root;
  const depth = Math.max(0, target.length - (columns - 1));
  for (let i = 0; i < depth; i++) {
    const c = n.children.get(target[i]!);
    if (c === undefined) break;
    n = c;
  }
  return n.id;
}

/** What the view asks to see: its size, the node the user zoomed into (undefined: follow the target), a budget. */
export interface TreeParams {
  readonly width: number;
  readonly height: number;
  readonly chosen: number | undefined;
  readonly maxVisible: number;
}

/**
 * One drawing of the tree, laid out wherever the model lives (the panel folds in a worker, webview/fold.ts):
 * plain data, so it crosses postMessage. `model` tells runs apart (a new run forgets the user's zoom).
 */
export interface TreeFrame {
  readonly model: number;
  readonly params: TreeParams;
  readonly layout: IcicleLayout;
  readonly cases: number;
  readonly engineNodes: number;
  readonly exhausted: boolean;
  readonly nodeCount: number;
  readonly foldedNodes: number;
  readonly droppedCases: number;
}

/** Lay out `model` as `params` ask; `modelId` names the model (a run's). */
export function treeFrame(model: TreeModel, params: TreeParams, modelId: number): TreeFrame {
  const focus = params.chosen ?? followTarget(model, columnsFor(params.width));
  const layout = layoutIcicle(model, {
    width: params.width,
    height: params.height,
    focus,
    maxVisible: params.maxVisible,
  });
  return {
    model: modelId,
    params,
    layout,
    cases: model.cases,
    engineNodes: model.engineNodes,
    exhausted: model.root.exhausted,
    nodeCount: model.nodeCount,
    foldedNodes: model.foldedNodes,
    droppedCases: model.droppedCases,
  };
}
