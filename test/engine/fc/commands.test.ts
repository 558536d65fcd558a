/**
 * fc.commands with fc.modelRun / fc.asyncModelRun, and fc.gen(): model-based tests and draws inside the predicate,
 * shrinking on the choices like any other argument.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "../../../src/engine/fc.ts";
import { configure } from "../../../src/engine/index.ts";
import { failure, failureOf } from "../helpers.ts";

configure({ database: null });

type Model = { size: number };
/** A stack that loses its third element: the bug a model-based test finds. */
class LossyStack {
  private items: number[] = [];
  push(v: number) {
    if (this.items.length !== 2) this.items.push(v);
  }
  pop() {
    return this.items.pop();
  }
  get size() {
    return this.items.length;
  }
}
class Push implements fc.Command<Model, LossyStack> {
  constructor(readonly value: number) {}
  check = () => true;
  run(m: Model, r: LossyStack) {
    r.push(this.value);
    m.size++;
    assert.equal(r.size, m.size);
  }
  toString = () => `push(${this.value})`;
}
class Pop implements fc.Command<Model, LossyStack> {
  check = (m: Readonly<Model>) => m.size > 0;
  run(m: Model, r: LossyStack) {
    r.pop();
    m.size--;
    assert.equal(r.size, m.size);
  }
  toString = () => "pop";
}
const allCommands = [fc.nat(9).map((v) => new Push(v)), fc.constant(new Pop())];
const setup = () => ({ model: { size: 0 }, real: new LossyStack() });

test("fc.modelRun finds the bug and shrinks to the fewest commands, listing those that ran", () => {
  const f = failure(() =>
    fc.assert(fc.property(fc.commands(allCommands, { maxCommands: 30 }), (cmds) => fc.modelRun(setup, cmds))),
  );
  const [cmds] = f.args as [Push[]];
  assert.equal(cmds.length, 3, "three pushes, nothing else");
  assert.ok(
    cmds.every((c) => c instanceof Push && c.value === 0),
    "each at its simplest value",
  );
  assert.match(f.message, /Commands run: push\(0\), push\(0\), push\(0\)/);
  // Pinned from bench:migration: the list printed each command's fields and a thrower for each method (855
  // characters for five commands); it prints as fast-check prints it.
  assert.match(f.message, /Minimal failing arguments \(TypeScript\):\n {2}\[push\(0\),push\(0\),push\(0\)\]\n/);
});

test("a command list prints each command by its toString, skipped ones too", () => {
  const skipped = [new Pop(), new Push(1)];
  const f = failure(() =>
    fc.assert(
      fc.property(fc.commands([fc.constant(skipped[0]!), fc.constant(skipped[1]!)], { maxCommands: 5 }), (cmds) => {
        fc.modelRun(setup, cmds);
        const list = [...cmds];
        assert.ok(list.length < 2 || !list.some((c) => c instanceof Push));
      }),
    ),
  );
  assert.match(f.message, /\n {2}\[pop,push\(1\)\]\n/);
  const [drawn] = fc.sample(fc.commands([fc.constant(new Push(2))], { maxCommands: 2 }), { numRuns: 1, seed: 3 }) as [
    Iterable<Push>,
  ];
  assert.equal(fc.stringify(drawn), `[${[...drawn].map(String).join(",")}]`);
  assert.ok(fc.hasToStringMethod(drawn));
});

test("a command whose check() says no is skipped, and maxCommands bounds the list", () => {
  const lengths: number[] = [];
  fc.assert(
    fc.property(fc.commands([fc.constant(new Pop())], { maxCommands: 4 }), (cmds) => {
      lengths.push([...cmds].length);
      fc.modelRun(setup, cmds); // every pop is skipped on an empty model
    }),
    { numRuns: 30 },
  );
  assert.ok(Math.max(...lengths) <= 4);
});

test("fc.asyncModelRun awaits setup, checks and runs", async () => {
  const asyncSetup = async () => setup();
  const asyncCommands = allCommands.map((a) =>
    a.map((c): fc.AsyncCommand<Model, LossyStack, true> => ({
      check: async (m) => c.check(m),
      run: async (m, r) => c.run(m, r),
      toString: () => c.toString(),
    })),
  );
  const f = await failureOf(() =>
    fc.assert(
      fc.asyncProperty(fc.commands(asyncCommands, { maxCommands: 30 }), (cmds) => fc.asyncModelRun(asyncSetup, cmds)),
    ),
  );
  assert.equal((f.args[0] as unknown[]).length, 3);
});

test("fc.gen() draws inside the predicate, and its draws shrink and print", () => {
  const f = failure(() =>
    fc.assert(
      fc.property(fc.gen(), (g) => {
        const n = g(fc.nat, 20);
        const xs = g(fc.array, fc.nat(), { minLength: n, maxLength: n });
        return xs.length < 3;
      }),
    ),
  );
  assert.match(f.message, /draw 1: 3/);
  assert.match(f.message, /draw 2: \[0, 0, 0\]/);
});

test("misuse says what is wrong", () => {
  assert.throws(() => fc.commands([]), /fc\.commands: give an array of command arbitraries/);
  assert.throws(() => fc.modelRun(5 as never, []), /fc\.modelRun: the first argument must be a function/);
});
