// The demo: a property with a classic bug fails, and you watch Shrinkscope shrink it to a minimal example.
// Run with `npm run demo` (builds first). Pass a seed to replay: `npm run demo:terminal -- 1234` (`npm run demo`
// would hand it to the VS Code part, which runs after this one).
// `npm run demo:terminal -- --machine` runs a state machine instead: an LRU cache whose get forgets to refresh
// recency, shrunk from dozens of steps to the four that explain it.
import assert from "node:assert/strict";
import { check, machine, property, st } from "shrinkscope";

/** Sorted unique values — with the bug everyone writes once: sort() compares as strings. */
function uniqueSorted(xs) {
  return Array.from(new Set(xs)).sort();
}

const isAscending = (xs) => xs.every((x, i) => i === 0 || xs[i - 1] < x);

const tty = process.stdout.isTTY;
let cases = 0;
let phase = "";
const show = (v) => (v instanceof Uint8Array ? `bytes(${v.length})` : typeof v === "string" ? JSON.stringify(v) : String(v));
const status = () => `  ${phase.padEnd(8)} test cases: ${cases}`;

function onEvent(e) {
  switch (e.type) {
    case "run-start":
      console.log(`Shrinkscope demo — seed ${e.seed}`);
      console.log(useMachine ? "Machine: a capacity-2 LRU cache keeps the same keys as a model of one, after every step\n" : "Property: uniqueSorted(xs) is strictly ascending, for every list of integers xs\n");
      break;
    case "phase":
      if (tty) process.stdout.write("\r\x1b[K");
      phase = e.phase;
      console.log(`▸ phase: ${e.phase}`);
      break;
    case "test-case":
      cases++;
      if (tty && cases % 5 === 0) process.stdout.write(`\r\x1b[K${status()}`);
      if (e.origin === "generate" && e.status === "interesting") {
        if (tty) process.stdout.write("\r\x1b[K");
        console.log(`  ✗ failing case found after ${cases} test cases: ${e.choices.length} choices${e.presentation?.kind === "steps" ? `, ${e.presentation.steps.length} steps` : ` [${e.choices.map((c) => show(c.value)).join(", ")}]`}`);
      }
      break;
    case "shrink-target":
      if (tty) process.stdout.write("\r\x1b[K");
      if (e.presentation?.kind === "steps") {
        // A machine: the steps themselves, the calls without `state.` (short enough to follow by eye).
        const steps = e.presentation.steps.map((s) => `${s.name}(${s.args.replace(/^\{ | \}$/g, "")})`);
        console.log(`  ↓ ${e.pass.padEnd(17)} ${String(steps.length).padStart(3)} steps  ${steps.length > 8 ? `${steps.slice(0, 8).join("; ")}; …` : steps.join("; ")}`);
      } else console.log(`  ↓ ${e.pass.padEnd(17)} ${String(e.choices.length).padStart(3)} choices  [${e.choices.map((c) => show(c.value)).join(", ")}]`);
      break;
    case "result":
      if (tty) process.stdout.write("\r\x1b[K");
      console.log(`\n${e.outcome.toUpperCase()} in ${e.statistics.timeMs} ms: ${e.statistics.examples} test cases, ${e.statistics.shrinkCalls} shrink calls.\n`);
      break;
  }
}

/** A capacity-2 LRU cache — with a bug: a hit does not refresh the key's recency. */
class LruCache {
  entries = new Map();
  put(key, value) {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > 2) this.entries.delete(this.entries.keys().next().value);
  }
  get(key) {
    return this.entries.get(key);
  }
}

/** The model: what an LRU cache of capacity 2 holds. */
class LruModel extends LruCache {
  get(key) {
    const v = this.entries.get(key);
    if (v !== undefined) this.put(key, v);
    return v;
  }
}

class CacheMachine {
  real = new LruCache();
  model = new LruModel();
  put({ key, value }) {
    this.real.put(key, value);
    this.model.put(key, value);
  }
  get({ key }) {
    this.real.get(key);
    this.model.get(key);
  }
  keysMatch() {
    assert.deepEqual(new Set(this.real.entries.keys()), new Set(this.model.entries.keys()));
  }
  toString() {
    return `cache keys ${JSON.stringify([...this.real.entries.keys()])}, model keys ${JSON.stringify([...this.model.entries.keys()])}`;
  }
}

const args = process.argv.slice(2);
const useMachine = args.includes("--machine");
const seedArg = args.find((a) => a !== "--machine");
if (seedArg !== undefined && !(/^\d+$/.test(seedArg) && Number.isSafeInteger(Number(seedArg)))) {
  console.error(`demo: a seed is a whole number below 2^53, not ${JSON.stringify(seedArg)} (usage: npm run demo:terminal -- [SEED] [--machine])`);
  process.exit(2);
}
const seed = seedArg !== undefined ? Number(seedArg) : undefined;
const key = st.integers({ min: 0, max: 9 }).map(String);
try {
  check(
    useMachine
      ? machine(CacheMachine, { rules: { put: { args: { key, value: st.integers({ min: 0, max: 100 }) } }, get: { args: { key } } }, invariants: ["keysMatch"] })
      : property(st.lists(st.integers()), (xs) => {
          const out = uniqueSorted(xs);
          if (!isAscending(out)) throw new Error(`not ascending: ${JSON.stringify(out)}`);
        }),
    { onEvent, database: null, ...(seed !== undefined ? { seed } : {}) },
  );
  console.log("The property passed (try another seed).");
} catch (failure) {
  console.log(failure.message);
  process.exitCode = 0;
}
