import assert from "node:assert/strict";
import { test } from "node:test";
import type { EngineEvent } from "../../../src/engine/index.ts";
import { assume, bundle, check, find, machine, property, st } from "../../../src/engine/index.ts";
import { failure } from "../helpers.ts";

const QUIET = { database: null, deadline: null } as const;
const FREE = "// or any other generated value";

/** The "Minimal failing arguments" block of a failure message, without its heading. */
function argumentBlock(message: string): string[] {
  const lines = message.split("\n");
  const at = lines.findIndex((l) => l.startsWith("Minimal failing arguments"));
  const out: string[] = [];
  for (let i = at + 1; i < lines.length && lines[i] !== ""; i++) out.push(lines[i]!);
  return out;
}

test("explain marks exactly the free argument of a two-argument property, one argument per line", () => {
  for (const seed of [1, 2, 3]) {
    const f = failure(() =>
      check(
        property(st.integers(), st.integers(), (a, _b) => {
          if (a > 10) throw new Error("a is too big");
        }),
        { ...QUIET, seed },
      ),
    );
    assert.deepEqual(argumentBlock(f.message), ["  11,", `  0 ${FREE}`], f.message);
    // The repro stays the one-line call arguments; the presentation carries the marks.
    assert.equal(f.repro, "11, 0");
    assert.deepEqual(f.presentation, {
      kind: "arguments",
      text: "11, 0",
      args: [
        { text: "11", free: false },
        { text: "0", free: true },
      ],
    });
  }
});

test("nothing free: the one-line form, no marks", () => {
  const f = failure(() =>
    check(
      property(st.integers(), st.integers(), (a, b) => {
        if (a > 10 && b > 3) throw new Error("both");
      }),
      { ...QUIET, seed: 1 },
    ),
  );
  assert.deepEqual(argumentBlock(f.message), ["  11, 4"]);
  assert.deepEqual(f.presentation, { kind: "arguments", text: "11, 4" });
});

test("a === b: borrowing the other argument's value shows neither is free (random values would rarely hit it)", () => {
  for (const seed of [1, 2, 3, 4]) {
    const f = failure(() =>
      check(
        property(st.integers(), st.integers(), (a, b) => {
          if (a !== b + 1) throw new Error("not successive");
        }),
        { ...QUIET, seed },
      ),
    );
    assert.ok(!f.message.includes(FREE), f.message);
  }
  const eq = failure(() =>
    check(
      property(st.integers(), st.integers(), (a, b) => {
        if (a === b) throw new Error("equal");
      }),
      { ...QUIET, seed: 1 },
    ),
  );
  assert.ok(!eq.message.includes(FREE), eq.message);
});

test("an argument whose variations change its length (a list) is explained too", () => {
  const f = failure(() =>
    check(
      property(st.lists(st.integers()), st.text(), (_xs, s) => {
        if (s.length > 2) throw new Error("long text");
      }),
      { ...QUIET, seed: 2 },
    ),
  );
  assert.deepEqual(argumentBlock(f.message), [`  [], ${FREE}`, '  "000"']);
});

test("a variation that fails another way does not make an argument free", () => {
  const f = failure(() =>
    check(
      property(st.integers({ min: 0, max: 100 }), st.integers({ min: 0, max: 100 }), (a, b) => {
        if (a > 10) {
          if (b > 50) throw new TypeError("another failure");
          throw new Error("a is too big");
        }
      }),
      { ...QUIET, seed: 1 },
    ),
  );
  assert.equal(f.repro, "11, 0");
  assert.ok(!f.message.includes(FREE), f.message);
});

test("the explain phase is not counted as examples, is announced, and every free argument is marked", () => {
  const events: EngineEvent[] = [];
  const strategies = Array.from({ length: 10 }, () => st.integers());
  const f = failure(() =>
    check(
      property(...(strategies as [ReturnType<typeof st.integers>]), () => {
        throw new Error("always");
      }),
      { ...QUIET, seed: 1, onEvent: (e) => events.push(e) },
    ),
  );
  assert.match(f.message, /^Property failed after 1 test case;/);
  assert.ok(events.some((e) => e.type === "phase" && e.phase === "explain"));
  assert.equal(
    f.statistics.examples,
    events.filter(
      (e) => e.type === "test-case" && e.origin !== "shrink" && e.origin !== "final" && e.origin !== "explain",
    ).length,
  );
  assert.equal(argumentBlock(f.message).filter((l) => l.endsWith(FREE)).length, 10);
});

test("the explain phase's calls are bounded: thirty free arguments cost at most 2000 calls", () => {
  let calls = 0;
  const strategies = Array.from({ length: 30 }, () => st.integers());
  const f = failure(() =>
    check(
      property(...(strategies as [ReturnType<typeof st.integers>]), () => {
        calls++;
        throw new Error("always");
      }),
      { ...QUIET, seed: 1 },
    ),
  );
  // Besides the explain phase: the examples (generation and shrinking) and at most five final replays.
  assert.ok(calls <= 2000 + f.statistics.examples + f.statistics.shrinkCalls + 5, `${calls} calls`);
  // The budget ran out partway: what was decided is marked, nothing more.
  const marked = argumentBlock(f.message).filter((l) => l.endsWith(FREE)).length;
  assert.ok(marked >= 10 && marked < 30, `${marked} marked`);
});

test('phases without "explain" print the one-line form', () => {
  const f = failure(() =>
    check(
      property(st.integers(), st.integers(), (a) => {
        if (a > 10) throw new Error("big");
      }),
      { ...QUIET, seed: 1, phases: ["generate", "shrink"] },
    ),
  );
  assert.deepEqual(argumentBlock(f.message), ["  11, 0"]);
});

class Account {
  constructor(readonly name: string) {}
}

/** A ledger whose transfer to the same account credits it twice: the account's name does not matter, the amount does. */
class Ledger {
  balances = new Map<string, number>();
  open({ name }: { name: string }): Account {
    if (!this.balances.has(name)) this.balances.set(name, 100);
    return new Account(name);
  }
  transfer({ src, dst, amount }: { src: Account; dst: Account; amount: number }): void {
    this.balances.set(src.name, this.balances.get(src.name)! - amount);
    this.balances.set(dst.name, this.balances.get(dst.name)! + amount + (src === dst ? amount : 0));
  }
  conserved(): void {
    const total = [...this.balances.values()].reduce((a, b) => a + b, 0);
    assert.equal(total, 100 * this.balances.size);
  }
}
const accounts = bundle<Account>("accounts");
const ledgerSpec = {
  rules: {
    open: { args: { name: st.sampledFrom(["a", "b", "c"]) }, target: accounts },
    transfer: { args: { src: accounts, dst: accounts, amount: st.integers({ min: 0, max: 100 }) } },
  },
  invariants: ["conserved" as const],
};

test("explain marks a machine's free step argument (the name), not the one that matters (the amount)", () => {
  for (const seed of [1, 2, 3]) {
    const f = failure(() => check(machine(Ledger, ledgerSpec), { ...QUIET, seed }));
    assert.ok(f.presentation.kind === "steps");
    const byName = Object.fromEntries(
      f.presentation.steps.filter((s) => s.kind === "rule").map((s) => [s.name, s.free ?? []]),
    );
    assert.deepEqual(byName, { open: ["name"], transfer: [] }, `seed ${seed}`);
    // The printed steps put the free argument on its own line, marked; the repro keeps one statement per line.
    assert.ok(f.message.includes(`  const accounts_0 = state.open({\n    name: "a" ${FREE}\n  });`), f.message);
    assert.ok(f.message.includes("  state.transfer({ src: accounts_0, dst: accounts_0, amount: 1 });"), f.message);
    assert.ok(f.repro.includes('const accounts_0 = state.open({ name: "a" });'), f.repro);
  }
});

test("each variation is run once: no input is called twice in the explain phase (a list last, variations equal to the minimal case)", () => {
  const seen = new Map<string, number>();
  let phase = "";
  const f = failure(() =>
    check(
      property(st.integers(), st.lists(st.integers()), (a, xs) => {
        if (phase === "explain") {
          const k = JSON.stringify([a, xs]);
          seen.set(k, (seen.get(k) ?? 0) + 1);
        }
        if (a > 10) throw new Error("big");
      }),
      { ...QUIET, seed: 1, onEvent: (e) => (e.type === "phase" ? (phase = e.phase) : undefined) },
    ),
  );
  assert.deepEqual(argumentBlock(f.message), ["  11,", `  [] ${FREE}`]);
  const repeated = [...seen].filter(([, n]) => n > 1);
  assert.deepEqual(repeated, [], `${repeated.length} inputs called more than once`);
  assert.ok(seen.size > 50, `${seen.size} variations`);
});

test("each variation is run once when a list that is not last changes its length: drawn first, spliced, then called", () => {
  for (const seed of [1, 2, 3]) {
    let phase = "";
    let calls = 0;
    const seen = new Set<string>();
    const f = failure(() =>
      check(
        property(st.lists(st.integers()), st.integers(), (xs, a) => {
          if (phase === "explain") {
            calls++;
            seen.add(JSON.stringify([xs, a]));
          }
          if (a > 10) throw new Error("big");
        }),
        { ...QUIET, seed, onEvent: (e) => (e.type === "phase" ? (phase = e.phase) : undefined) },
      ),
    );
    assert.deepEqual(argumentBlock(f.message), [`  [], ${FREE}`, "  11"]);
    assert.equal(calls, seen.size, `seed ${seed}: ${calls - seen.size} inputs called twice`);
    // About one call per variation: 100 failing the same way mark the list free (two calls each before).
    assert.ok(calls <= 120, `seed ${seed}: ${calls} calls`);
  }
});

test("find() has no explain phase: no one reads which parts of a found value are free", () => {
  const phases: string[] = [];
  const xs = find(st.lists(st.integers()), (xs) => xs.length > 2, {
    ...QUIET,
    seed: 1,
    onEvent: (e) => (e.type === "phase" ? phases.push(e.phase) : undefined),
  });
  assert.deepEqual(xs, [0, 0, 0]);
  assert.ok(phases.includes("shrink") && !phases.includes("explain"), phases.join(", "));
});

test("an argument whose variations the property rejects (assume) is not called free: pasted with one, the repro would not fail", () => {
  // `a: 1 // or any other generated value` was printed although a = 0 is rejected by assume(a >= 1).
  for (const seed of [1, 2, 3]) {
    const f = failure(() =>
      check(
        property(st.integers({ min: 0, max: 4 }), st.integers({ min: 0, max: 4 }), (a, b) => {
          assume(a >= 1);
          if (a + b >= 3) throw new Error("sum");
        }),
        { seed, database: null },
      ),
    );
    assert.deepEqual(f.args, [1, 2], `seed ${seed}`);
    assert.doesNotMatch(f.message, new RegExp(`1,? ${FREE}`), `seed ${seed}: a is not free\n${f.message}`);
  }
});
