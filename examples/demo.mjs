// The demo: a property with a classic bug fails, and you watch Shrinkscope shrink it to a minimal example.
// Run with `npm run demo` (builds first). Pass a seed to replay: `npm run demo:terminal -- 1234` (`npm run demo`
// would hand it to the VS Code part, which runs after this one).
// `npm run demo:terminal -- --machine` runs a state machine instead: an LRU cache whose get forgets to refresh
// recency, shrunk from dozens of steps to the four that explain it. `--verbose` shows each shrink's raw choices.
import assert from "node:assert/strict";
import { check, machine, property, st } from "shrinkscope";

/** Sorted unique values — with the bug everyone writes once: sort() compares as strings. */
function uniqueSorted(xs) {
  return Array.from(new Set(xs)).sort();
}

const isAscending = (xs) => xs.every((x, i) => i === 0 || xs[i - 1] < x);

// What a person watches: a live line while cases run, then each accepted shrink as the value it now is and
// the pass that made it — paced on a terminal, and cut to the first and last few so it fits a screen — ending
// on the minimal example and the seed. `--verbose` prints every shrink's raw choices instead.
const tty = process.stdout.isTTY === true && process.env.CI === undefined;
const width = () => Math.max(40, (process.stdout.columns || 100) - 1);
const clip = (text) => (text.length > width() - 4 ? `${text.slice(0, width() - 5)}…` : text);
const show = (v) =>
  v instanceof Uint8Array ? `bytes(${v.length})` : typeof v === "string" ? JSON.stringify(v) : String(v);
/** The first and the last shrinks printed; those between show on the live line only. */
const HEAD = 4;
const TAIL = 6;
/** Pause after each shrink on a terminal, so the values can be followed, within a total. */
const PACE_MS = 70;
const PACE_TOTAL_MS = 3000;
const pause = new Int32Array(new SharedArrayBuffer(4));
let paced = 0;
let cases = 0;
let phase = "";
let shrinks = 0;
let foundAt = 0;
/** Shrinks past the head, newest last (the tail printed at the end). */
let held = [];

const live = (text) => tty && process.stdout.write(`\r\x1b[K${clip(text)}`);
const line = (text) => {
  if (tty) process.stdout.write("\r\x1b[K");
  console.log(text);
};
const rawChoices = (e) => `[${e.choices.map((c) => show(c.value)).join(", ")}]`;
/** A case as a person reads it: a property's arguments, or a machine's steps as calls. */
function valueOf(e) {
  const p = e.presentation;
  if (p?.kind === "steps") {
    // put({ key: "6", value: 77 }) as put("6", 77): short enough to see the steps change.
    const steps = p.steps.map((s) => `${s.name}(${s.args.replace(/^\{ | \}$/g, "").replace(/\b\w+: /g, "")})`);
    return `${String(steps.length).padStart(2)} steps: ${steps.join("; ")}`;
  }
  return p?.kind === "arguments" ? p.text : rawChoices(e);
}
const shrinkLine = (pass, value) => `  ↓ ${pass.padEnd(20)} ${value}`;

function onEvent(e) {
  switch (e.type) {
    case "run-start":
      console.log(`Shrinkscope demo — seed ${e.seed}`);
      console.log(
        useMachine
          ? "Machine: a capacity-2 LRU cache keeps the same keys as a model of one, after every step\n"
          : "Property: uniqueSorted(xs) is strictly ascending, for every list of integers xs\n",
      );
      break;
    case "phase":
      phase = e.phase;
      if (e.phase === "shrink") line(`▸ shrinking: each line is a smaller failing example, and the pass that found it`);
      else if (e.phase === "generate") line("▸ generating random test cases");
      break;
    case "test-case":
      cases++;
      if (phase === "generate" && cases % 7 === 0) live(`  test cases: ${cases}`);
      if (e.origin === "generate" && e.status === "interesting") {
        foundAt = cases;
        line(
          `  ✗ test case ${cases} fails${e.presentation?.kind === "steps" ? ` after ${e.presentation.steps.length} steps` : ""}`,
        );
      }
      break;
    case "shrink-target": {
      shrinks++;
      const value = valueOf(e);
      if (verbose) line(`  ↓ ${e.pass.padEnd(20)} ${String(e.choices.length).padStart(3)} choices  ${rawChoices(e)}`);
      else if (shrinks <= HEAD) line(clip(shrinkLine(e.pass, value)));
      else {
        held.push(shrinkLine(e.pass, value));
        live(`  … ${shrinks} shrinks so far, now ${value}`);
      }
      if (tty && paced < PACE_TOTAL_MS) {
        Atomics.wait(pause, 0, 0, PACE_MS);
        paced += PACE_MS;
      }
      break;
    }
    case "result":
      if (!verbose && held.length > 0) {
        if (held.length > TAIL) line(`  … ${held.length - TAIL} more shrink${held.length - TAIL === 1 ? "" : "s"} …`);
        for (const l of held.slice(-TAIL)) line(clip(l));
      } else line("");
      const took = `${e.statistics.timeMs - paced} ms${paced > 0 ? ` (and ${paced} ms paused, for reading)` : ""}`;
      if (e.outcome === "failed")
        console.log(
          `\nFAILED in ${took}: found at test case ${foundAt}, then ${shrinks} shrinks in ${e.statistics.shrinkCalls} calls of the ${useMachine ? "machine" : "property"}.\n`,
        );
      else console.log(`\n${e.outcome.toUpperCase()} in ${took}: ${e.statistics.examples} test cases.\n`);
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
const verbose = args.includes("--verbose");
const seedArg = args.find((a) => a !== "--machine" && a !== "--verbose");
if (seedArg !== undefined && !(/^\d+$/.test(seedArg) && Number.isSafeInteger(Number(seedArg)))) {
  console.error(
    `demo: a seed is a whole number below 2^53, not ${JSON.stringify(seedArg)} (usage: npm run demo:terminal -- [SEED] [--machine] [--verbose])`,
  );
  process.exit(2);
}
const seed = seedArg !== undefined ? Number(seedArg) : undefined;
const key = st.integers({ min: 0, max: 9 }).map(String);
try {
  check(
    useMachine
      ? machine(CacheMachine, {
          rules: { put: { args: { key, value: st.integers({ min: 0, max: 100 }) } }, get: { args: { key } } },
          invariants: ["keysMatch"],
        })
      : property(st.lists(st.integers()), (xs) => {
          const out = uniqueSorted(xs);
          if (!isAscending(out)) throw new Error(`not ascending: ${JSON.stringify(out)}`);
        }),
    { onEvent, database: null, ...(seed !== undefined ? { seed } : {}) },
  );
  console.log("The property passed (try another seed).");
} catch (failure) {
  console.log(failure.message);
  console.log(`\nThe same run again: npm run demo:terminal -- ${failure.seed}${useMachine ? " --machine" : ""}`);
  process.exitCode = 0;
}
