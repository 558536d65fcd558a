/**
 * Which objects a value reaches more than once, and which it reaches again while still inside them (cycles):
 * those need a name in the printed expression, and cyclic ones must exist before their contents are built.
 */
import { readShape, type Extras, type Shape } from "./shapes.ts";

export interface Graph {
  readonly shapes: ReadonlyMap<object, Shape>;
  /** How many times each object is reached; more than once means it needs a name. */
  readonly refs: ReadonlyMap<object, number>;
  /** Objects reached again while still being visited: they must exist before their contents are built. */
  readonly cycleTargets: ReadonlySet<object>;
  /** Whether two roots (arguments) reach a common object. */
  readonly crossesRoots: boolean;
}

export function isRef(value: unknown): value is object {
  return (typeof value === "object" && value !== null) || typeof value === "function";
}

export function children(shape: Shape): readonly unknown[] {
  switch (shape.kind) {
    case "leaf":
      return [];
    case "array":
      return withExtras(
        shape.items.map(([, v]) => v),
        shape.extras,
      );
    case "record":
      return shape.entries.map(([, v]) => v);
    case "map":
      return withExtras(
        shape.entries.flatMap(([k, v]) => [k, v]),
        shape.extras,
      );
    case "set":
      return withExtras(shape.items, shape.extras);
  }
}

function withExtras(contents: readonly unknown[], extras: Extras): readonly unknown[] {
  return extras.length === 0 ? contents : [...contents, ...extras.map(([, v]) => v)];
}

/**
 * A depth-first walk in exactly the order the Emitter builds expressions, so an object that is on the walk's
 * stack when reached again is exactly one that would be referenced before its declaration finished.
 */
export function analyze(roots: readonly unknown[]): Graph {
  const shapes = new Map<object, Shape>();
  const refs = new Map<object, number>();
  const rootOf = new Map<object, number>();
  const onStack = new Set<object>();
  const cycleTargets = new Set<object>();
  let crossesRoots = false;
  /** The walk's path: each object with its children and the next child to visit. */
  const path: { readonly value: object; readonly kids: readonly unknown[]; next: number }[] = [];
  const enter = (value: unknown, root: number): void => {
    if (!isRef(value)) return;
    const seen = refs.get(value);
    if (seen !== undefined) {
      refs.set(value, seen + 1);
      if (onStack.has(value)) cycleTargets.add(value);
      if (rootOf.get(value) !== root) crossesRoots = true;
      return;
    }
    refs.set(value, 1);
    rootOf.set(value, root);
    const shape = readShape(value);
    shapes.set(value, shape);
    onStack.add(value);
    path.push({ value, kids: children(shape), next: 0 });
  };
  for (let root = 0; root < roots.length; root++) {
    enter(roots[root], root);
    while (path.length > 0) {
      const top = path[path.length - 1];
      if (top.next < top.kids.length) enter(top.kids[top.next++], root);
      else {
        path.pop();
        onStack.delete(top.value);
      }
    }
  }
  return { shapes, refs, cycleTargets, crossesRoots };
}
