// The LRU state-machine fixture, shared by the engine's machine tests and the panel's recorded
// streams (test/webview/streams.ts): a capacity-2 LRU cache whose get() forgets to refresh the key's recency,
// run beside a model that does, with an invariant on the two key sets. Its normal form is LRU_MINIMAL.
import assert from "node:assert/strict";
import { st } from "../../../src/engine/index.ts";

class Lru {
  entries = new Map<string, number>();
  put(k: string, v: number): void {
    this.entries.delete(k);
    this.entries.set(k, v);
    if (this.entries.size > 2) this.entries.delete(this.entries.keys().next().value!);
  }
  /** The bug: a hit does not refresh the key's recency. */
  get(k: string): number | undefined {
    return this.entries.get(k);
  }
}

class LruModel extends Lru {
  override get(k: string): number | undefined {
    const v = this.entries.get(k);
    if (v !== undefined) this.put(k, v);
    return v;
  }
}

export class LruMachine {
  real = new Lru();
  model = new LruModel();
  put({ key, value }: { key: string; value: number }): void {
    this.real.put(key, value);
    this.model.put(key, value);
  }
  get({ key }: { key: string }): void {
    this.real.get(key);
    this.model.get(key);
  }
  keysMatch(): void {
    assert.deepEqual(new Set(this.real.entries.keys()), new Set(this.model.entries.keys()));
  }
  /** The state a failure reports ("make the model talk"): both key lists, least recently used first. */
  toString(): string {
    return `cache ${JSON.stringify([...this.real.entries.keys()])}, model ${JSON.stringify([...this.model.entries.keys()])}`;
  }
}

const lruKey = st.integers({ min: 0, max: 9 }).map(String);
export const lruSpec = {
  rules: { put: { args: { key: lruKey, value: st.integers({ min: 0, max: 100 }) } }, get: { args: { key: lruKey } } },
  invariants: ["keysMatch" as const],
};
export const LRU_MINIMAL = [
  "const state = new LruMachine();",
  'state.put({ key: "0", value: 0 });',
  'state.put({ key: "1", value: 0 });',
  'state.get({ key: "0" });',
  'state.put({ key: "2", value: 0 });',
  "state.keysMatch();",
].join("\n");
