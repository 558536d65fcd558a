// A rule-based state machine that FAILS on purpose: it finds the bug in LruCache and prints the minimal steps.
// Run it with `npm run build && node --import tsx --test examples/machines/lru.test.ts`.
//
// The bug: LruCache.get(key) forgets to make the key the most recently used, so the next put() over capacity
// evicts the key that was just read instead of the least recently used one. The machine runs the cache (capacity
// 2) beside a model (a Map refreshed on every get), and after every step the invariant keysMatch compares the key
// sets of the two.
//
// With the seed below, Shrinkscope's PropertyFailure ends on these four steps, printed as executable TypeScript
// (bench/stateful.mjs counts on how many of 20 seeds it does): two puts fill the cache, the get should save "0",
// and the third put evicts it anyway.
//
//   const state = new LruMachine();
//   state.put({
//     key: "0",
//     value: 0 // or any other generated value
//   });
//   state.put({
//     key: "1",
//     value: 0 // or any other generated value
//   });
//   state.get({ key: "0" });
//   state.put({
//     key: "2",
//     value: 0 // or any other generated value
//   });
//   state.keysMatch();
//
//   Explanation: assertion failed in invariant keysMatch
//   State at the failing step:
//     cache ["1","2"], model ["0","2"] (least recently used first)
//
// The same fixture, with fast-check's fc.commands beside it, is benchmarked by bench/stateful.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { machine, st } from "shrinkscope";

/** Entries in a Map, least recently used first (a Map iterates in insertion order). */
class LruCache<V> {
  private entries = new Map<string, V>();
  constructor(readonly capacity: number) {}
  put(key: string, value: V): void {
    if (this.entries.has(key)) this.entries.delete(key);
    else if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
  }
  get(key: string): V | undefined {
    // The bug: reading a key does not make it the most recently used.
    return this.entries.get(key);
  }
  keys(): string[] {
    return [...this.entries.keys()];
  }
}

/** The model: the same contract written the plain way, a Map refreshed on every put and every get of a present key. */
class LruModel<V> {
  private map = new Map<string, V>();
  constructor(readonly capacity: number) {}
  put(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) this.map.delete([...this.map.keys()][0]!);
  }
  get(key: string): V | undefined {
    if (!this.map.has(key)) return undefined;
    const value = this.map.get(key)!;
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }
  keys(): string[] {
    return [...this.map.keys()];
  }
}

class LruMachine {
  cache = new LruCache<number>(2);
  model = new LruModel<number>(2);
  put({ key, value }: { key: string; value: number }): void {
    this.cache.put(key, value);
    this.model.put(key, value);
  }
  get({ key }: { key: string }): void {
    this.cache.get(key);
    this.model.get(key);
  }
  keysMatch(): void {
    assert.deepEqual(this.cache.keys().sort(), this.model.keys().sort());
  }
  toString(): string {
    return `cache ${JSON.stringify(this.cache.keys())}, model ${JSON.stringify(this.model.keys())} (least recently used first)`;
  }
}

const key = st.integers({ min: 0, max: 9 }).map(String);

test(
  "the cache keeps the same keys as its model",
  machine(
    LruMachine,
    {
      rules: {
        put: { args: { key, value: st.integers({ min: 0, max: 100 }) } },
        get: { args: { key } },
      },
      invariants: ["keysMatch"],
    },
    // A fixed seed and no example database, so every run prints the same; stepCount 50 is the default.
    { database: null, seed: 1, deadline: null },
  ),
);
