// The LRU state-machine fixture, for bench/stateful.mjs: a capacity-2 LRU cache, a model, the
// Shrinkscope machine, and the equivalent fast-check fc.commands definition on the SAME classes.
//
// The system: LruCache(2) with put(key, value), get(key), keys(). The bug: get() forgets to refresh the key's
// recency, so the next put over capacity evicts the key just read instead of the least recently used one. The
// model is written independently (a Map refreshed on get), and the invariant keysMatch compares the key SETS.
//
// Normal form (the seed-minimal answer): put "0", put "1", get "0", put "2", then the invariant fails (the model
// keeps {"0", "2"}, the cache {"1", "2"}).
//   Shrinkscope: LRU_NORMAL_FORM (its PropertyFailure.repro)
//   fast-check:  put("0",0),put("1",0),get("0"),put("2",0)
// FixedLruCache / FixedLruMachine are the same without the bug, for the steps-per-second runs.
import assert from "node:assert/strict";
import fc from "fast-check";
import { machine, st } from "../../dist/engine.mjs";
import { makeCounts } from "./counts.mjs";

export const counts = makeCounts();
export const CAPACITY = 2;

// ------------------------------------------------------------------------------------------------ the systems

/** Entries in a Map, least recently used first (a Map iterates in insertion order). */
export class LruCache {
  constructor(capacity = CAPACITY) {
    this.capacity = capacity;
    this.entries = new Map();
  }
  put(key, value) {
    if (this.entries.has(key)) this.entries.delete(key);
    else if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value);
    this.entries.set(key, value);
  }
  get(key) {
    // The bug: reading a key does not make it the most recently used.
    return this.entries.get(key);
  }
  keys() {
    return [...this.entries.keys()];
  }
}

export class FixedLruCache extends LruCache {
  get(key) {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key);
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }
}

// ------------------------------------------------------------------------------------------------ the model

/** The correct behaviour, written independently: a Map refreshed on every put and every get of a present key. */
export class LruModel {
  constructor(capacity = CAPACITY) {
    this.capacity = capacity;
    this.map = new Map();
  }
  put(key, value) {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) this.map.delete([...this.map.keys()][0]);
  }
  get(key) {
    if (!this.map.has(key)) return undefined;
    const value = this.map.get(key);
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }
  keys() {
    return [...this.map.keys()];
  }
}

function keysMatch(cache, model) {
  const got = cache.keys().sort();
  const want = model.keys().sort();
  if (got.length !== want.length || got.some((k, i) => k !== want[i])) counts.failed();
  assert.deepEqual(got, want);
}

// ------------------------------------------------------------------------------------------------ Shrinkscope

export class LruMachine {
  static System = LruCache;
  cache = new this.constructor.System(CAPACITY);
  model = new LruModel(CAPACITY);
  constructor() {
    counts.constructions++;
  }
  put({ key, value }) {
    counts.ruleCalls++;
    this.cache.put(key, value);
    this.model.put(key, value);
  }
  get({ key }) {
    counts.ruleCalls++;
    this.cache.get(key);
    this.model.get(key);
  }
  keysMatch() {
    keysMatch(this.cache, this.model);
  }
  toString() {
    return `cache ${JSON.stringify(this.cache.keys())}, model ${JSON.stringify(this.model.keys())} (least recently used first)`;
  }
}

export class FixedLruMachine extends LruMachine {
  static System = FixedLruCache;
}

const K = st.integers({ min: 0, max: 9 }).map(String);
export const lruSpec = {
  rules: {
    put: { args: { key: K, value: st.integers({ min: 0, max: 100 }) } },
    get: { args: { key: K } },
  },
  invariants: ["keysMatch"],
};

export const LRU_NORMAL_FORM = [
  "const state = new LruMachine();",
  'state.put({ key: "0", value: 0 });',
  'state.put({ key: "1", value: 0 });',
  'state.get({ key: "0" });',
  'state.put({ key: "2", value: 0 });',
  "state.keysMatch();",
].join("\n");

/** The Shrinkscope property: the buggy machine, or with { fixed: true } the one without the bug. */
export function lruMachine(settings, { fixed = false } = {}) {
  return machine(fixed ? FixedLruMachine : LruMachine, lruSpec, settings);
}

// ------------------------------------------------------------------------------------------------ fast-check

class PutCommand {
  constructor(key, value) {
    this.key = key;
    this.value = value;
  }
  check() {
    return true;
  }
  run(model, real) {
    counts.ruleCalls++;
    real.put(this.key, this.value);
    model.put(this.key, this.value);
    keysMatch(real, model);
  }
  toString() {
    return `put(${JSON.stringify(this.key)},${this.value})`;
  }
}

class GetCommand {
  constructor(key) {
    this.key = key;
  }
  check() {
    return true;
  }
  run(model, real) {
    counts.ruleCalls++;
    real.get(this.key);
    model.get(this.key);
    keysMatch(real, model);
  }
  toString() {
    return `get(${JSON.stringify(this.key)})`;
  }
}

const fcKey = fc.integer({ min: 0, max: 9 }).map(String);
export const fcLruCommands = [
  fc.tuple(fcKey, fc.integer({ min: 0, max: 100 })).map(([k, v]) => new PutCommand(k, v)),
  fcKey.map((k) => new GetCommand(k)),
];

export const LRU_FC_NORMAL_FORM = 'put("0",0),put("1",0),get("0"),put("2",0)';

/**
 * The fast-check property (fc.commands + fc.modelRun): at most stepCount commands per run; size "max" lets the
 * lengths reach stepCount (fast-check's default size stops at 10 commands).
 */
export function lruFastCheck({ fixed = false, stepCount = 50, size = "max" } = {}) {
  const System = fixed ? FixedLruCache : LruCache;
  const setup = () => {
    counts.constructions++;
    return { model: new LruModel(CAPACITY), real: new System(CAPACITY) };
  };
  return fc.property(fc.commands(fcLruCommands, { maxCommands: stepCount, size }), (cmds) => {
    fc.modelRun(setup, cmds);
  });
}

export const fixture = {
  name: "lru",
  counts,
  shrinkscope: lruMachine,
  normalForm: LRU_NORMAL_FORM,
  fastcheck: lruFastCheck,
  fcNormalForm: LRU_FC_NORMAL_FORM,
};
