/**
 * "Simpler" for whole sequences: shortlex on the choices' complexity indices — shorter first, then index by
 * index. It means exactly this everywhere (shrinker, database, panel); compareNodes also says what decided a
 * comparison (the length, or the first differing position), which the panel shows without recomputing it.
 */
import type { ChoiceNode } from "./types.ts";
import { choiceToIndex, compareChoice, indexNumber } from "./complexityIndex.ts";

export interface SortKey {
  readonly length: number;
  readonly indices: readonly bigint[];
}

/** Shortlex key: (length, indices). "Simpler" means exactly "smaller sortKey" everywhere in Shrinkscope. */
export function sortKey(nodes: readonly ChoiceNode[]): SortKey {
  return { length: nodes.length, indices: nodes.map((n) => choiceToIndex(n.type, n.value, n.constraints)) };
}

/** How two sequences compare and what decided it: the length, or the first differing position. */
export type SortKeyComparison =
  | { readonly order: -1 | 0 | 1; readonly by: "length"; readonly lengths: readonly [number, number] }
  | {
      readonly order: -1 | 1;
      readonly by: "position";
      readonly position: number;
      readonly indices: readonly [number, number];
    }
  | { readonly order: 0; readonly by: "equal" };

/** Compare two node sequences shortlex, reporting the deciding position (used by the shrinker and the panel). */
export function compareNodes(a: readonly ChoiceNode[], b: readonly ChoiceNode[]): SortKeyComparison {
  if (a.length !== b.length) {
    return { order: a.length < b.length ? -1 : 1, by: "length", lengths: [a.length, b.length] };
  }
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x.type !== y.type || x.constraints !== y.constraints) {
      // Different draws at the same position: compare exact indices under each node's own constraints.
      const ix = choiceToIndex(x.type, x.value, x.constraints);
      const iy = choiceToIndex(y.type, y.value, y.constraints);
      if (ix !== iy) return { order: ix < iy ? -1 : 1, by: "position", position: i, indices: [Number(ix), Number(iy)] };
      continue;
    }
    const c = compareChoice(x.type, x.value, y.value, x.constraints);
    if (c !== 0) {
      return {
        order: c < 0 ? -1 : 1,
        by: "position",
        position: i,
        indices: [indexNumber(x.type, x.value, x.constraints), indexNumber(y.type, y.value, y.constraints)],
      };
    }
  }
  return { order: 0, by: "equal" };
}
