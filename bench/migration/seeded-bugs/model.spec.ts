// A model-based test of a bounded cache with an eviction bug (see collections.spec.ts).
import fc from "fast-check";
import { describe, it } from "vitest";

/** A least-recently-used cache; `get` forgets to refresh the entry, so the wrong key is evicted. */
class LruCache {
  private readonly entries = new Map<string, number>();
  constructor(private readonly capacity: number) {}
  get(key: string): number | undefined {
    return this.entries.get(key);
  }
  set(key: string, value: number): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }
}

type Model = { order: string[]; values: Map<string, number> };
const CAPACITY = 2;

class SetCommand implements fc.Command<Model, LruCache> {
  constructor(
    readonly key: string,
    readonly value: number,
  ) {}
  check = () => true;
  run(m: Model, r: LruCache): void {
    r.set(this.key, this.value);
    m.order = [...m.order.filter((k) => k !== this.key), this.key];
    m.values.set(this.key, this.value);
    if (m.order.length > CAPACITY) m.values.delete(m.order.shift()!);
  }
  toString = () => `set(${JSON.stringify(this.key)}, ${this.value})`;
}

class GetCommand implements fc.Command<Model, LruCache> {
  constructor(readonly key: string) {}
  check = () => true;
  run(m: Model, r: LruCache): void {
    const expected = m.values.get(this.key);
    const actual = r.get(this.key);
    if (actual !== expected) throw new Error(`get(${this.key}): expected ${expected}, got ${actual}`);
    if (m.values.has(this.key)) m.order = [...m.order.filter((k) => k !== this.key), this.key];
  }
  toString = () => `get(${JSON.stringify(this.key)})`;
}

describe("model", () => {
  it("the cache agrees with its model", () => {
    const key = fc.constantFrom("a", "b", "c");
    fc.assert(
      fc.property(
        fc.commands([
          fc.tuple(key, fc.nat({ max: 9 })).map(([k, v]) => new SetCommand(k, v)),
          key.map((k) => new GetCommand(k)),
        ]),
        (cmds) => {
          fc.modelRun(() => ({ model: { order: [], values: new Map() }, real: new LruCache(CAPACITY) }), cmds);
        },
      ),
    );
  });
});
