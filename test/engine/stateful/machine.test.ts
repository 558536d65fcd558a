// Rule-based state machines (machine.ts): bundles, consumes, preconditions, initialize, invariants, teardown,
// stepCount, bad specs, and the ledger fixture's minimal steps and executable repro.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  assume,
  bundle,
  check,
  consumes,
  InMemoryDatabase,
  InvalidArgument,
  machine,
  PropertyFailure,
  st,
} from "../../../src/engine/index.ts";
import type {
  EngineEvent,
  MachineSettings,
  Presentation,
  ResultEvent,
  ShrinkTargetEvent,
  TestCaseEvent,
} from "../../../src/engine/index.ts";
import { failure } from "../helpers.ts";
import { LRU_MINIMAL, LruMachine, lruSpec } from "./lru-machine.ts";

const base: MachineSettings = { database: null, seed: 7 };

// ------------------------------------------------------------------------------------------------ the ledger fixture

class AccountRef {
  constructor(readonly name: string) {}
}

class Ledger {
  balances = new Map<string, number>();
  open(name: string): void {
    if (!this.balances.has(name)) this.balances.set(name, 100);
  }
  transfer(src: string, dst: string, amount: number): void {
    this.balances.set(src, this.balances.get(src)! - amount);
    // The bug: a transfer to the same account credits it twice.
    this.balances.set(dst, this.balances.get(dst)! + amount + (src === dst ? amount : 0));
  }
  total(): number {
    let t = 0;
    for (const v of this.balances.values()) t += v;
    return t;
  }
}

const ledgerCounts = { constructed: 0, tornDown: 0 };

class LedgerMachine {
  ledger = new Ledger();
  model = new Map<string, number>();
  constructor() {
    ledgerCounts.constructed++;
  }
  open({ name }: { name: string }): AccountRef {
    this.ledger.open(name);
    if (!this.model.has(name)) this.model.set(name, 100);
    return new AccountRef(name);
  }
  transfer({ src, dst, amount }: { src: AccountRef; dst: AccountRef; amount: number }): void {
    this.ledger.transfer(src.name, dst.name, amount);
  }
  totalsMatch(): void {
    let sum = 0;
    for (const v of this.model.values()) sum += v;
    assert.equal(this.ledger.total(), sum);
  }
  teardown(): void {
    ledgerCounts.tornDown++;
  }
  toString(): string {
    return `balances ${JSON.stringify([...this.ledger.balances])}`;
  }
}

const accounts = bundle<AccountRef>("accounts");
const ledgerSpec = {
  rules: {
    open: { args: { name: st.sampledFrom(["a", "b", "c", "d"]) }, target: accounts },
    transfer: { args: { src: accounts, dst: accounts, amount: st.integers({ min: 0, max: 100 }) } },
  },
  invariants: ["totalsMatch" as const],
};

const LEDGER_MINIMAL = [
  "const state = new LedgerMachine();",
  'const accounts_0 = state.open({ name: "a" });',
  "state.transfer({ src: accounts_0, dst: accounts_0, amount: 1 });",
  "state.totalsMatch();",
  "state.teardown();",
].join("\n");

test("the ledger shrinks to open a, transfer a → a 1, on every seed tried, and its repro throws the original assertion", () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    const f = failure(machine(LedgerMachine, ledgerSpec, { database: null, seed }));
    assert.equal(f.repro, LEDGER_MINIMAL, `seed ${seed}`);
    assert.ok(f.cause instanceof assert.AssertionError);
    assert.match(f.message, /Explanation: assertion failed in invariant totalsMatch/);
    // The message prints the steps with the free argument (the account's name) on its own line, marked.
    assert.match(
      f.message,
      /const accounts_0 = state\.open\(\{\n {4}name: "a" \/\/ or any other generated value\n {2}\}\);/,
    );
    assert.match(f.message, /balances \[\["a",101\]\]/, "the machine's toString() at the failing step");
    assert.deepEqual(
      f.steps?.map((s) => (s as { kind: string }).kind),
      ["rule", "rule", "invariant", "teardown"],
    );
    let thrown: unknown;
    try {
      new Function("LedgerMachine", f.repro)(LedgerMachine);
    } catch (e) {
      thrown = e;
    }
    assert.ok(thrown instanceof assert.AssertionError);
    assert.equal((thrown as Error).message, (f.cause as Error).message);
  }
});

test("teardown runs once per construction over a failing run with shrinking, and check() presents the steps too", () => {
  ledgerCounts.constructed = 0;
  ledgerCounts.tornDown = 0;
  const f = failure(() => check(machine(LedgerMachine, ledgerSpec), base));
  assert.ok(f.statistics.shrinkCalls > 0);
  assert.ok(ledgerCounts.constructed > f.statistics.shrinkCalls);
  assert.equal(ledgerCounts.tornDown, ledgerCounts.constructed);
  assert.equal(f.repro, LEDGER_MINIMAL);
});

// ------------------------------------------------------------------------------------------------ rules

test("a rule whose bundle is empty is never chosen; bundle values are ones the target rule returned", () => {
  const made = new Set<object>();
  class M {
    make(): object {
      const o = {};
      made.add(o);
      return o;
    }
    use({ x }: { x: object }): void {
      assert.ok(made.has(x));
    }
  }
  const things = bundle<object>("things");
  let uses = 0;
  class Counting extends M {
    override use(a: { x: object }): void {
      uses++;
      super.use(a);
    }
  }
  machine(
    Counting,
    { rules: { use: { args: { x: things } }, make: { target: things } } },
    { ...base, maxExamples: 50 },
  )();
  assert.ok(uses > 0);
});

test("consumes draws and removes: a consumed value is never drawn again", () => {
  let next = 0;
  class M {
    live = new Set<number>();
    push(): number {
      this.live.add(next);
      return next++;
    }
    pop({ v }: { v: number }): void {
      assert.ok(this.live.delete(v), `value ${v} was drawn after it was consumed`);
    }
  }
  const values = bundle<number>("values");
  let pops = 0;
  class Counting extends M {
    override pop(a: { v: number }): void {
      pops++;
      super.pop(a);
    }
  }
  machine(
    Counting,
    { rules: { push: { target: values }, pop: { args: { v: consumes(values) } } } },
    { ...base, maxExamples: 50 },
  )();
  assert.ok(pops > 0);
});

test("preconditions gate rules", () => {
  let calls = 0;
  class M {
    n = 0;
    inc(): void {
      this.n++;
    }
    dec(): void {
      calls++;
      assert.ok(this.n > 0, "dec ran below zero");
      this.n--;
    }
  }
  machine(M, { rules: { inc: {}, dec: { precondition: (s) => s.n > 0 } } }, { ...base, maxExamples: 50 })();
  assert.ok(calls > 0);
});

test("a machine no rule of which can run from the initial state fails, naming each rule and why (a false precondition, an empty bundle), and the panel gets one gave-up result", () => {
  const items = bundle<number>("items");
  let ran = 0;
  class Stuck {
    make(): number {
      ran++;
      return 1;
    }
    use(_: { x: number }): void {
      ran++;
    }
  }
  const events: EngineEvent[] = [];
  const spec = { rules: { make: { target: items, precondition: () => false }, use: { args: { x: items } } } };
  assert.throws(
    () => check(machine(Stuck, spec), { ...base, onEvent: (e) => events.push(e) }),
    (e: unknown) =>
      e instanceof InvalidArgument &&
      /^machine: no rule of Stuck could run from the initial state of any sequence/.test(e.message) &&
      e.message.includes(
        'rule "make": its precondition is false there; rule "use" draws from bundle "items", empty there',
      ),
  );
  assert.equal(ran, 0);
  const results = events.filter((e): e is ResultEvent => e.type === "result");
  assert.deepEqual(
    results.map((r) => r.outcome),
    ["gave-up"],
  );
  assert.match(results[0]!.message!, /no rule of Stuck could run/);
});

test("a machine that reaches a state where no rule can run passes: the sequence ends there (also when only some sequences start stuck)", () => {
  let longest = 0;
  class Capped {
    n = 0;
    inc(): void {
      this.n++;
      longest = Math.max(longest, this.n);
    }
  }
  machine(Capped, { rules: { inc: { precondition: (s) => s.n < 3 } } }, base)();
  assert.equal(longest, 3);
  // Sequences whose initialize rule closes every rule have zero steps; the others run: the run tested something.
  let steps = 0;
  class Gated {
    on = false;
    start({ on }: { on: boolean }): void {
      this.on = on;
    }
    go(): void {
      steps++;
    }
  }
  machine(
    Gated,
    { initialize: { start: { args: { on: st.booleans() } } }, rules: { go: { precondition: (s) => s.on } } },
    base,
  )();
  assert.ok(steps > 0);
});

test("a failure found in a machine no rule of which can run is reported as the failure, not as the machine testing nothing", () => {
  class Broken {
    x = 0;
    set({ x }: { x: number }): void {
      this.x = x;
    }
    never(): void {}
    small(): void {
      assert.ok(this.x < 5, "x too big");
    }
  }
  const f = failure(() =>
    check(
      machine(Broken, {
        initialize: { set: { args: { x: st.integers({ min: 0, max: 10 }) } } },
        rules: { never: { precondition: () => false } },
        invariants: ["small"],
      }),
      base,
    ),
  );
  assert.match(f.message, /Explanation: assertion failed in invariant small/);
  assert.match(f.repro, /state\.set\(\{ x: 5 \}\);/);
});

test("initialize rules run once, first, in order, with their arguments; invariants run on the initial state", () => {
  const log: string[] = [];
  class M {
    a({ v }: { v: number }): void {
      log.push(`a${v}`);
    }
    b(): void {
      log.push("b");
    }
    step(): void {
      log.push("step");
    }
    inv(): void {
      log.push("inv");
    }
  }
  machine(
    M,
    { initialize: { a: { args: { v: st.just(3) } }, b: {} }, rules: { step: {} }, invariants: ["inv"] },
    { ...base, maxExamples: 20 },
  )();
  const runs = log.join(" ").split(/ (?=a3)/);
  for (const run of runs) {
    const parts = run.split(" ");
    assert.deepEqual(parts.slice(0, 3), ["a3", "b", "inv"]);
    assert.ok(parts.slice(3).every((p, i) => p === (i % 2 === 0 ? "step" : "inv")));
  }
  // An invariant false from the start fails with no steps.
  class Broken {
    step(): void {}
    inv(): void {
      throw new Error("broken from the start");
    }
  }
  const f = failure(machine(Broken, { rules: { step: {} }, invariants: ["inv"] }, base));
  assert.equal(f.repro, "const state = new Broken();\nstate.inv();");
  assert.match(f.message, /Explanation: assertion failed in invariant inv/);
});

test("a rule that throws: the steps end at that rule and the explanation names it", () => {
  class Stack {
    items: number[] = [];
    push({ v }: { v: number }): void {
      this.items.push(v);
    }
    pop(): number {
      if (this.items.length >= 2) throw new Error("pop on two items");
      return this.items.pop() ?? 0;
    }
  }
  const f = failure(machine(Stack, { rules: { push: { args: { v: st.integers() } }, pop: {} } }, base));
  assert.equal(
    f.repro,
    ["const state = new Stack();", "state.push({ v: 0 });", "state.push({ v: 0 });", "state.pop();"].join("\n"),
  );
  assert.match(f.message, /Explanation: assertion failed in rule pop/);
  assert.equal((f.cause as Error).message, "pop on two items");
  assert.throws(() => new Function("Stack", f.repro)(Stack), /pop on two items/);
});

test("stepCount bounds the steps of a sequence, and lengths use most of it", () => {
  const lengths: number[] = [];
  class M {
    n = 0;
    constructor() {
      lengths.push(0);
    }
    step(_a: { x: number }): void {
      lengths[lengths.length - 1]++;
    }
  }
  // A rule with an argument: without one, the eleven sequences of 0..10 steps are the whole space, all run (mean
  // 5 exactly), and the mean moved with whatever else ran — a variation that was the case itself again, say.
  machine(M, { rules: { step: { args: { x: st.integers() } } } }, { ...base, stepCount: 10, maxExamples: 100 })();
  assert.equal(lengths.length, 100);
  assert.ok(lengths.length > 0);
  assert.ok(lengths.every((n) => n <= 10));
  const mean = lengths.reduce((a, b) => a + b, 0) / lengths.length;
  assert.ok(mean >= 5, `mean length ${mean} should use most of stepCount`);
  // A bug needing 11 steps is out of reach with stepCount 10.
  class Eleven {
    n = 0;
    step(): void {
      if (++this.n > 10) throw new Error("eleven");
    }
  }
  machine(Eleven, { rules: { step: {} } }, { ...base, stepCount: 10, maxExamples: 200 })();
  assert.throws(
    () => machine(Eleven, { rules: { step: {} } }, { ...base, stepCount: 20, maxExamples: 200 })(),
    PropertyFailure,
  );
});

// ------------------------------------------------------------------------------------------------ bad specs

test("bad specs are InvalidArgument naming machine", () => {
  class M {
    x = 1;
    step(): void {}
  }
  const bad = (f: () => unknown, pattern: RegExp) =>
    assert.throws(
      f,
      (e: unknown) => e instanceof InvalidArgument && /^machine: /.test(e.message) && pattern.test(e.message),
    );
  // @ts-expect-error: "nope" is not a method of M
  bad(() => machine(M, { rules: { nope: {} } }), /"nope" is not a method/);
  // @ts-expect-error: x is a field, not a method
  bad(() => machine(M, { rules: { step: {} }, invariants: ["x"] }), /"x" is not a method/);
  bad(() => machine(M, { rules: {} }), /rules is empty/);
  // @ts-expect-error: an argument must be a strategy or a bundle
  bad(() => machine(M, { rules: { step: { args: { v: 5 } } } }), /must be a strategy or a bundle/);
  bad(() => machine(M, { rules: { step: {} } }, { stepCount: 0 }), /stepCount must be a positive integer/);
  bad(() => machine(M, { rules: { step: {} } }, { stepCount: -3 }), /stepCount/);
  // @ts-expect-error: a target must be a bundle
  bad(() => machine(M, { rules: { step: { target: st.integers() } } }), /target must be a bundle/);
  // The constructor is a function on every prototype, but not a rule or an invariant.
  bad(() => machine(M, { rules: { constructor: {} } as never }), /"constructor" is not a method/);
  bad(() => machine(M, { rules: { step: {} }, invariants: ["constructor" as never] }), /"constructor" is not a method/);
  // Explicit examples are argument lists; a machine's cases are steps (they once crashed inside the engine).
  bad(() => machine(M, { rules: { step: {} } }, { examples: [[1]] }), /examples are not supported by a machine/);
  assert.throws(
    () => check(machine(M, { rules: { step: {} } }), { examples: [[]] }),
    /check: examples are not supported by a machine/,
  );
  // The args object is checked against the method's parameter at compile time (these run fine: values are drawn).
  class Typed {
    put(_: { key: string; value: number }): void {}
  }
  // @ts-expect-error: value must be a number strategy, not a string one
  machine(Typed, { rules: { put: { args: { key: st.text(), value: st.text() } } } });
  // @ts-expect-error: a missing argument
  machine(Typed, { rules: { put: { args: { key: st.text() } } } });
  // @ts-expect-error: a bundle of the wrong type
  machine(Typed, { rules: { put: { args: { key: bundle<number>("nums"), value: st.integers() } } } });
  machine(Typed, { rules: { put: { args: { key: st.text(), value: st.integers() } } } });
});

test("state leaked outside the instance is reported as flaky, with a hint about teardown, never as a minimum", () => {
  let counter = 0; // module-level state the machine forgets to reset
  class Leaky {
    step(): void {
      if (++counter > 30) throw new Error(`leaked ${counter}`);
    }
  }
  const f = failure(machine(Leaky, { rules: { step: {} } }, { database: null, seed: 3 }));
  assert.equal(f.flaky, true);
  assert.match(f.message, /Flaky machine: .*teardown\(\)/);
  // Both outcomes, and what is shown is a machine's steps, not "arguments".
  assert.match(f.message, /Flaky: after the same .*, call \d+ .*, but call \d+ /);
  assert.match(f.message, /Shown: the steps of call \d+/);
  assert.doesNotMatch(f.message, /TestCase/);
});

// ------------------------------------------------------------------------------------------------ the LRU fixture

// LruMachine, lruSpec and LRU_MINIMAL: test/engine/stateful/lru-machine.ts (the panel records the same machine).

test("the LRU and the ledger reach one normal form from 20 seeds, within 150 and 40 machine runs of shrinking on average", () => {
  for (const [name, Class, spec, want, budget] of [
    ["lru", LruMachine, lruSpec, LRU_MINIMAL, 150],
    ["ledger", LedgerMachine, ledgerSpec, LEDGER_MINIMAL, 40],
  ] as const) {
    let runs = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const f = failure(machine(Class as new () => object, spec as never, { database: null, seed }));
      assert.equal(f.repro, want, `${name}, seed ${seed}`);
      runs += f.statistics.shrinkCalls;
      if (seed === 1) {
        // The repro is executable and throws the original assertion.
        assert.throws(
          () => new Function(Class.name, f.repro)(Class),
          (e: unknown) => e instanceof assert.AssertionError && e.message === (f.cause as Error).message,
        );
      }
    }
    assert.ok(runs / 20 <= budget, `${name}: ${runs / 20} machine runs while shrinking, on average`);
  }
});

test("relabelling: the normal form with its keys swapped everywhere, replayed from the database, shrinks back to it", () => {
  const f0 = failure(machine(LruMachine, lruSpec, { database: null, seed: 1 }));
  // put 1, put 0, get 1, put 2: each key is the integer drawn right after a step's flag and rule index.
  const swapped = f0.choices.slice();
  for (const s of f0.steps!.filter((s) => s.kind === "rule")) {
    const at = s.start! + 2;
    if (swapped[at] === 0 || swapped[at] === 1) swapped[at] = 1 - (swapped[at] as number);
  }
  assert.notDeepEqual(swapped, f0.choices);
  const db = new InMemoryDatabase();
  db.save("lru-relabel", swapped);
  const f = failure(
    machine(LruMachine, lruSpec, { database: db, key: "lru-relabel", seed: 1, phases: ["reuse", "shrink"] }),
  );
  assert.equal(f.repro, LRU_MINIMAL);
  assert.ok(f.statistics.shrinks > 0, "it was shrunk, not found minimal");
});

// ------------------------------------------------------------------------------------------------ swarm, async, settings

test("swarm flags: a bug needing ten dec in a row and no inc or reset is found on nearly every seed within 100 examples", () => {
  class Counter {
    n = 0;
    run = 0;
    inc(): void {
      this.n++;
      this.run = 0;
    }
    dec(): void {
      this.n--;
      this.run++;
    }
    reset(): void {
      this.n = 0;
      this.run = 0;
    }
    notTenDown(): void {
      assert.ok(this.run < 10, "ten dec in a row");
    }
  }
  let found = 0;
  for (let seed = 1; seed <= 20; seed++) {
    try {
      machine(
        Counter,
        { rules: { inc: {}, dec: {}, reset: {} }, invariants: ["notTenDown"] },
        { database: null, seed, maxExamples: 100 },
      )();
    } catch (e) {
      assert.ok(e instanceof PropertyFailure);
      assert.equal(e.steps!.filter((s) => s.kind === "rule").length, 10);
      assert.ok(e.steps!.filter((s) => s.kind === "rule").every((s) => s.name === "dec"));
      found++;
    }
  }
  assert.ok(found >= 19, `found on ${found} of 20 seeds`);
});

test("async rules and invariants are awaited, in order, and an async failure shrinks and presents its steps", async () => {
  const log: string[] = [];
  class AsyncBox {
    items: number[] = [];
    async add({ v }: { v: number }): Promise<number> {
      await new Promise((r) => setImmediate(r));
      this.items.push(v);
      log.push(`add${v}`);
      return v;
    }
    async check(): Promise<void> {
      await Promise.resolve();
      assert.ok(this.items.length < 3, `three items: ${this.items.join(",")}`);
    }
    async teardown(): Promise<void> {
      await Promise.resolve();
      log.push("teardown");
    }
  }
  const p = machine(
    AsyncBox,
    { rules: { add: { args: { v: st.integers({ min: 0, max: 5 }) } } }, invariants: ["check"] },
    { database: null, seed: 2, deadline: null },
  )();
  // No deadline: a sequence of setImmediate-awaited steps can take over 200 ms on a loaded machine, and the
  // test is about awaiting and presenting, not timing (it failed with DeadlineExceeded at load 13).
  assert.ok(p instanceof Promise);
  const f = await p.then(
    () => assert.fail("expected a failure"),
    (e: unknown) => e as PropertyFailure,
  );
  assert.ok(f instanceof PropertyFailure);
  // Each async call is awaited in the repro, which (in an async function) reproduces the failure.
  assert.equal(
    f.repro,
    [
      "const state = new AsyncBox();",
      "await state.add({ v: 0 });",
      "await state.add({ v: 0 });",
      "await state.add({ v: 0 });",
      "await state.check();",
      "await state.teardown();",
    ].join("\n"),
  );
  const AsyncFunction = (async () => {}).constructor as new (...a: string[]) => (...args: unknown[]) => Promise<void>;
  await assert.rejects(new AsyncFunction("AsyncBox", f.repro)(AsyncBox), /three items: 0,0,0/);
  assert.match(f.message, /Explanation: assertion failed in invariant check/);
  // Every sequence was torn down after its last call: no add after a teardown within one sequence.
  assert.ok(log.filter((l) => l === "teardown").length > 1);
});

test("stepCount comes from check()'s settings too, and bounds every sequence", () => {
  const lengths: number[] = [];
  class M {
    constructor() {
      lengths.push(0);
    }
    step(): void {
      lengths[lengths.length - 1]++;
    }
  }
  check(machine(M, { rules: { step: {} } }, { ...base, maxExamples: 50 }), { stepCount: 3 });
  assert.ok(lengths.every((n) => n <= 3));
  assert.ok(lengths.some((n) => n === 3));
});

test("with events on, each machine case and shrink target carries its steps, and the result its presentation", () => {
  const events: EngineEvent[] = [];
  failure(machine(LedgerMachine, ledgerSpec, { database: null, seed: 4, onEvent: (e) => events.push(e) }));
  const cases = events.filter((e): e is TestCaseEvent => e.type === "test-case");
  assert.ok(cases.length > 0 && cases.every((c) => c.presentation?.kind === "steps"));
  const withSteps = cases.find((c) => c.presentation?.kind === "steps" && c.presentation.steps.length > 2)!;
  assert.ok(withSteps);
  const p = withSteps.presentation as Extract<Presentation, { kind: "steps" }>;
  for (const s of p.steps)
    assert.ok(s.start! < s.end! && s.end! <= withSteps.choices.length, "each step covers its own choices");
  const targets = events.filter((e): e is ShrinkTargetEvent => e.type === "shrink-target");
  assert.ok(targets.length > 0 && targets.every((t) => t.presentation?.kind === "steps"));
  const result = events.find((e): e is ResultEvent => e.type === "result")!;
  assert.equal(result.presentation?.kind, "steps");
  const rp = result.presentation as Extract<Presentation, { kind: "steps" }>;
  assert.equal(rp.className, "LedgerMachine");
  assert.deepEqual(rp.failedIn, { kind: "invariant", name: "totalsMatch" });
  assert.equal(rp.explanation, "Explanation: assertion failed in invariant totalsMatch");
  assert.equal(rp.steps.map((s) => s.code).join("\n"), LEDGER_MINIMAL.split("\n").slice(1).join("\n"));
  assert.equal(result.repro, LEDGER_MINIMAL);
});

test("a precondition that throws is named in the Explanation, not blamed on the constructor", () => {
  class M {
    n = 0;
    inc(): void {
      this.n++;
    }
    dec(): void {
      this.n--;
    }
  }
  const f = failure(
    machine(
      M,
      {
        rules: {
          inc: {},
          dec: {
            precondition: (s) => {
              if (s.n > 2) throw new Error("precondition broke");
              return true;
            },
          },
        },
      },
      base,
    ),
  );
  assert.match(f.message, /Explanation: the precondition of rule dec threw/);
  assert.equal((f.cause as Error).message, "precondition broke");
});

// ------------------------------------------------------------------------------------------------ faults and concurrency

test("a constructor or a teardown that throws is a failure that says so, never a pass", () => {
  class BadInit {
    constructor() {
      throw new Error("cannot construct");
    }
    step(): void {}
  }
  const a = failure(machine(BadInit, { rules: { step: {} } }, base));
  assert.match(a.message, /Explanation: the machine's constructor or teardown threw/);
  assert.equal((a.cause as Error).message, "cannot construct");
  class BadTeardown {
    step(): void {}
    teardown(): void {
      throw new Error("cannot tear down");
    }
  }
  const b = failure(machine(BadTeardown, { rules: { step: {} } }, base));
  assert.equal((b.cause as Error).message, "cannot tear down");
  assert.equal(b.repro, "const state = new BadTeardown();\nstate.teardown();");
});

test("a rule whose result cannot be read (its `then` getter throws) fails with that error, and teardown still runs after every sequence", () => {
  const counts = { built: 0, tornDown: 0 };
  class Unreadable {
    constructor() {
      counts.built++;
    }
    poke(): unknown {
      return {
        get then(): never {
          throw new Error("then cannot be read");
        },
      };
    }
    teardown(): void {
      counts.tornDown++;
    }
  }
  const f = failure(machine(Unreadable, { rules: { poke: {} } }, base));
  assert.equal((f.cause as Error).message, "then cannot be read");
  assert.match(f.message, /Explanation: assertion failed in rule poke/);
  assert.equal(counts.tornDown, counts.built);
});

test("a rule whose promise never settles fails its case with a TimeoutError after `timeout`, and the run ends", async () => {
  class Hangs {
    n = 0;
    async step(): Promise<void> {
      if (++this.n >= 3) await new Promise(() => {});
    }
  }
  const f = await (
    machine(Hangs, { rules: { step: {} } }, { ...base, timeout: 50, maxShrinkCalls: 20 })() as Promise<void>
  ).then(
    () => assert.fail("expected a failure"),
    (e: unknown) => e as PropertyFailure,
  );
  assert.ok(f instanceof PropertyFailure);
  assert.equal((f.cause as Error).name, "TimeoutError");
});

test("machines running at the same time (Promise.all) each shrink and present their own steps", async () => {
  const make = (limit: number) =>
    class Box {
      items: number[] = [];
      async add({ v }: { v: number }): Promise<void> {
        await new Promise((r) => setImmediate(r));
        this.items.push(v);
      }
      check(): void {
        assert.ok(this.items.length < limit, `${limit} items`);
      }
    };
  const A = make(2);
  const B = make(3);
  const spec = { rules: { add: { args: { v: st.integers({ min: 0, max: 9 }) } } }, invariants: ["check" as const] };
  const settled = await Promise.allSettled([
    machine(A, spec, { database: null, seed: 1 })(),
    machine(B, spec, { database: null, seed: 1 })(),
  ]);
  const [fa, fb] = settled.map((r) =>
    r.status === "rejected" ? (r.reason as PropertyFailure) : assert.fail("expected failures"),
  );
  assert.equal(fa!.steps!.filter((s) => s.kind === "rule").length, 2);
  assert.equal(fb!.steps!.filter((s) => s.kind === "rule").length, 3);
  assert.match((fa!.cause as Error).message, /^2 items/);
  assert.match((fb!.cause as Error).message, /^3 items/);
});

test("a method whose name is not an identifier is called with brackets in the repro, which runs", () => {
  class Odd {
    n = 0;
    ["add one"](): void {
      this.n++;
    }
    "under-three"(): void {
      assert.ok(this.n < 3, "three");
    }
  }
  const f = failure(machine(Odd, { rules: { "add one": {} }, invariants: ["under-three"] }, base));
  assert.equal(
    f.repro,
    [
      "const state = new Odd();",
      'state["add one"]();',
      'state["add one"]();',
      'state["add one"]();',
      'state["under-three"]();',
    ].join("\n"),
  );
  assert.throws(() => new Function("Odd", f.repro)(Odd), /three/);
});

test("a precondition is truthy or not, as in an if: a count enables its rule; a promise is InvalidArgument", () => {
  class Queue {
    items: number[] = [];
    push(): void {
      this.items.push(1);
    }
    pop(): void {
      this.items.pop();
    }
    small(): void {
      assert.ok(this.items.length < 2, "at most one item");
    }
  }
  let pops = 0;
  class Counted extends Queue {
    override pop(): void {
      pops++;
      super.pop();
    }
  }
  // The rule whose precondition returns a number runs (before, only `true` enabled it, and pop never ran).
  check(
    machine(Counted, {
      rules: { push: { precondition: (s) => s.items.length < 1 }, pop: { precondition: (s) => s.items.length } },
      invariants: ["small"],
    }),
    base,
  );
  assert.ok(pops > 0, "pop ran");
  assert.throws(
    () => check(machine(Queue, { rules: { push: {}, pop: { precondition: async () => true } } }), base),
    (e: unknown) => e instanceof InvalidArgument && /rule "pop": its precondition returned a promise/.test(e.message),
  );
});

test("a sequence over the deadline prints its steps and says the deadline judges the whole sequence", () => {
  class Slow {
    n = 0;
    step(): void {
      const end = performance.now() + 5;
      while (performance.now() < end) {
        // a step slow by design
      }
      this.n++;
    }
  }
  const f = failure(() => check(machine(Slow, { rules: { step: {} } }), { database: null, seed: 1, deadline: 20 }));
  assert.match(f.message, /^Machine failed after \d+ test cases?/);
  assert.match(f.message, /Steps \(TypeScript\):\n {2}const state = new Slow\(\);\n {2}state\.step\(\);/);
  assert.match(
    f.message,
    /Explanation: the sequence of \d+ steps ran over time \(DeadlineExceeded\): a machine's deadline and timeout judge a whole sequence, not each step/,
  );
  assert.doesNotMatch(f.message, /TestCase|choiceCount/, "the engine's own objects are not printed");
  assert.equal(f.presentation.kind, "steps");
});

test("step arguments that share an object print as one literal keeping the sharing, so the repro fails too", () => {
  const a = { name: "a" };
  const b = { name: "b" };
  class Bank {
    move({ from, to }: { from: { name: string }; to: { name: string } }): void {
      assert.ok(from !== to, "a move to the same account");
    }
  }
  const f = failure(() =>
    check(
      machine(Bank, { rules: { move: { args: { from: st.sampledFrom([a, b]), to: st.sampledFrom([a, b]) } } } }),
      base,
    ),
  );
  assert.equal(
    f.repro,
    'const state = new Bank();\nstate.move((() => { const r1 = { name: "a" }; return { from: r1, to: r1 }; })());',
  );
  // The printed steps fail as the run did.
  assert.throws(() => new Function("Bank", f.repro)(Bank), /a move to the same account/);
});

test("a constructor that returns a promise (or another object) is InvalidArgument naming it, not an engine TypeError", () => {
  class Async {
    n = 0;
    constructor() {
      return Promise.resolve(this) as unknown as Async;
    }
    inc(): void {
      this.n++;
    }
  }
  assert.throws(
    () => check(machine(Async, { rules: { inc: {} } }), base),
    (e: unknown) =>
      e instanceof InvalidArgument &&
      /^machine: new Async\(\) returned a promise: a machine's state is built synchronously/.test(e.message),
  );
});

test("a rule that consumes two values of one bundle waits until the bundle holds two", () => {
  const items = bundle<number>("items");
  let pairs = 0;
  class Pairs {
    add({ v }: { v: number }): number {
      return v;
    }
    pair(_: { a: number; b: number }): void {
      pairs++;
    }
  }
  check(
    machine(Pairs, {
      rules: {
        add: { args: { v: st.integers() }, target: items },
        pair: { args: { a: consumes(items), b: consumes(items) } },
      },
    }),
    base,
  );
  assert.ok(pairs > 0, "pair ran");
});

test("values a rule draws with st.data() are listed with the steps, and the data argument prints as a placeholder", () => {
  class Cart {
    items: number[] = [];
    add({ data }: { data: st.DataObject }): void {
      const n = data.draw(st.integers({ min: 0, max: 100 }), "quantity");
      this.items.push(n);
      assert.ok(n < 50, "too many");
    }
  }
  const f = failure(() => check(machine(Cart, { rules: { add: { args: { data: st.data() } } } }), base));
  assert.match(
    f.message,
    /state\.add\(\{ data: \/\* st\.data\(\): its draws are listed below the steps \*\/ undefined \}\);/,
  );
  assert.match(f.message, /Drawn in the steps \(st\.data\(\)\):\n {2}draw 1 \(quantity\): 50/);
  assert.doesNotMatch(f.message, /function values cannot be printed/);
});

test("shrinking a machine whose accepted candidate loses a step never crashes the sibling sort (stale span indices)", () => {
  // A TypeError ("reading 'start'") escaped from the shrinker instead of the failure on 15 of seeds 1..100.
  class Counters {
    v = [0, 0];
    r0({ a }: { a: number }) {
      this.v[1] = a;
    }
    r1() {
      this.v[0] += 1;
    }
    r2() {
      this.v[0] += 1;
    }
    inv() {
      if (this.v[0] - this.v[1] === 2) throw new Error(`bug ${this.v}`);
    }
  }
  const spec = {
    rules: {
      r0: { args: { a: st.integers({ min: 0, max: 4 }) }, precondition: (m: Counters) => m.v[0] >= m.v[1] },
      r1: { precondition: (m: Counters) => m.v[0] > 0 },
      r2: { precondition: (m: Counters) => m.v[0] !== m.v[1] },
    },
    invariants: ["inv" as const],
  };
  for (const seed of [14, 25, 31, 37, 38, 46, 55, 57, 58, 62, 70, 71, 84, 89, 95]) {
    const f = failure(() => check(machine(Counters, spec), { seed, database: null }));
    assert.match(f.message, /bug 2,0/, `seed ${seed}`);
  }
});

test("a later step of one rule folds into an earlier one, past a step whose precondition or assume() needs the total", () => {
  // inc(1); mark(); inc(2) was the end on 11-17 of 50 seeds (assume or precondition alike): lowering inc(1) to a
  // no-op first, the generic way, makes mark() illegal. Minimal: inc(3); mark().
  for (const how of ["assume", "precondition"] as const) {
    class Marks {
      x = 0;
      m = 0;
      inc({ a }: { a: number }) {
        this.x += a;
      }
      mark() {
        if (how === "assume") assume(this.x >= 1);
        this.m += 1;
      }
      inv() {
        if (this.x >= 3 && this.m >= 1) throw new Error(`bug: x=${this.x}`);
      }
    }
    const spec = {
      rules: {
        inc: { args: { a: st.integers({ min: 0, max: 4 }) } },
        mark: how === "precondition" ? { precondition: (s: Marks) => s.x >= 1 } : {},
      },
      invariants: ["inv" as const],
    };
    for (let seed = 1; seed <= 20; seed++) {
      const f = failure(() => check(machine(Marks, spec), { seed, database: null }));
      const calls = f.message.match(/state\.(inc|mark)\(/g) ?? [];
      assert.equal(calls.length, 2, `${how}, seed ${seed}:\n${f.message}`);
      assert.match(f.message, /state\.inc\(\{ a: 3 \}\);\s+state\.mark\(\);/, `${how}, seed ${seed}`);
    }
  }
});
