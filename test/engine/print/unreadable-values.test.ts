// The printer under values it cannot (fully) read: it never throws, degrades value by value with a
// `/* could not print: why */ undefined` placeholder, prints any nesting depth, reads exotic objects by their
// internal slots, and never emits code that changes a prototype. What it can print still evaluates back.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  check,
  find,
  permitted,
  property,
  PropertyFailure,
  simplest,
  st,
  toLiteral,
} from "../../../src/engine/index.ts";
import type { Strategy } from "../../../src/engine/index.ts";
import { domainSize } from "../../../src/engine/choice/domain.ts";
import { formatArgs } from "../../../src/engine/print/printer.ts";
import { Random } from "../../../src/engine/util/random.ts";
import { TestCase } from "../../../src/engine/core/testCase.ts";

const QUIET = { database: null, deadline: null, seed: 1 } as const;

function evaluate(code: string): unknown {
  return (0, eval)(`"use strict"; (${code})`) as unknown;
}

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

test("a revoked Proxy prints as a placeholder, alone or among other values that still print", () => {
  assert.equal(toLiteral(revoked()), "/* could not print: revoked Proxy */ undefined");
  const literal = toLiteral([1, revoked(), { a: revoked(), b: "kept" }]);
  assert.equal(
    literal,
    '[1, /* could not print: revoked Proxy */ undefined, { a: /* could not print: revoked Proxy */ undefined, b: "kept" }]',
  );
  assert.deepStrictEqual(evaluate(literal), [1, undefined, { a: undefined, b: "kept" }]);
  assert.equal(formatArgs([1, revoked(), "x"]), '1, /* could not print: revoked Proxy */ undefined, "x"');
  const fn = Proxy.revocable(() => 0, {});
  fn.revoke();
  assert.match(toLiteral(fn.proxy), /could not print/);
});

test("a throwing getter or Proxy trap degrades that property only", () => {
  const value = {
    a: 1,
    get b(): never {
      throw new Error("boom */ and a second line\n");
    },
    c: 3,
  };
  const literal = toLiteral(value);
  assert.equal(
    literal,
    '{ a: 1, b: /* could not print: reading "b" threw Error: boom *\\/ and a second line  */ undefined, c: 3 }',
  );
  assert.deepStrictEqual(evaluate(literal), { a: 1, b: undefined, c: 3 });
  const trap = new Proxy(
    {},
    {
      ownKeys: () => {
        throw new TypeError("no keys");
      },
    },
  );
  assert.equal(toLiteral([trap, 2]), "[/* could not print: TypeError: no keys */ undefined, 2]");
  // A getter that works is read as the data it returns.
  assert.equal(
    toLiteral({
      get g() {
        return [1];
      },
    }),
    "{ g: [1] }",
  );
  // An error whose message getter throws keeps its type.
  const error = new RangeError("m");
  Object.defineProperty(error, "message", {
    get: () => {
      throw new Error("no");
    },
  });
  assert.equal(toLiteral(error), 'new RangeError("")');
});

test("objects with a built-in prototype but not its internal slots print as the objects they are", () => {
  // Each of these throws from a method a printer would call (getTime, the Map iterator, valueOf, …).
  assert.equal(toLiteral(Object.create(Date.prototype)), "{} /* Date */");
  assert.equal(toLiteral(Object.create(Map.prototype)), "{} /* Map */");
  assert.equal(toLiteral(Object.create(Set.prototype)), "{} /* Set */");
  assert.equal(toLiteral(Object.create(RegExp.prototype)), "{} /* RegExp */");
  assert.equal(toLiteral(Object.create(Number.prototype)), "{} /* Number */");
  assert.equal(toLiteral(Object.create(DataView.prototype)), "{} /* DataView */");
  assert.equal(toLiteral(Object.create(Uint8Array.prototype)), "{} /* Uint8Array */");
  assert.equal(toLiteral(Object.assign(Object.create(Date.prototype) as object, { x: 1 })), "{ x: 1 } /* Date */");
});

test("subclasses that override the accessors and iterators a printer would call still print their contents", () => {
  class Hostile extends Map<number, number> {
    override get size(): number {
      throw new Error("size");
    }
    override entries(): never {
      throw new Error("entries");
    }
    override [Symbol.iterator](): never {
      throw new Error("iterator");
    }
  }
  assert.equal(toLiteral(new Hostile([[1, 2]])), "new Map([[1, 2]]) /* Hostile */");
  class Items extends Set<number> {
    override values(): never {
      throw new Error("values");
    }
    override [Symbol.iterator](): never {
      throw new Error("iterator");
    }
  }
  assert.equal(toLiteral(new Items([3])), "new Set([3]) /* Items */");
  class Day extends Date {
    override toISOString(): never {
      throw new Error("iso");
    }
  }
  assert.equal(toLiteral(new Day(0)), 'new Date("1970-01-01T00:00:00.000Z") /* Day */');
  class Bytes extends Uint8Array {
    override [Symbol.iterator](): never {
      throw new Error("iterator");
    }
  }
  assert.equal(toLiteral(new Bytes([1, 2])), "new Uint8Array([1, 2]) /* Bytes */");
  class Count extends Number {}
  assert.equal(toLiteral(new Count(3)), "Object(3) /* Count */");
});

test("very deep nesting prints without a stack overflow and evaluates back", () => {
  let list: { next: unknown } | null = null;
  for (let i = 0; i < 20_000; i++) list = { next: list };
  const literal = toLiteral(list);
  let n = 0;
  for (
    let node = evaluate(literal) as { next: unknown } | null;
    node !== null;
    node = node.next as { next: unknown } | null
  )
    n++;
  assert.equal(n, 20_000);
  let nested: unknown = 0;
  for (let i = 0; i < 20_000; i++) nested = [nested];
  const back = evaluate(formatArgs([nested]));
  let depth = 0;
  for (let x = back; Array.isArray(x); x = x[0]) depth++;
  assert.equal(depth, 20_000);
  // Shallow values print exactly as before: the nesting is only broken up every 200 levels.
  let shallow: unknown = 1;
  for (let i = 0; i < 199; i++) shallow = [shallow];
  assert.ok(!toLiteral(shallow).includes("=>"));
});

test("__proto__ fields on built-in bases are defined, never assigned onto the prototype", () => {
  const date = new Date(0) as Date & Record<string, unknown>;
  date.before = 1;
  Object.defineProperty(date, "__proto__", {
    value: { polluted: true },
    enumerable: true,
    writable: true,
    configurable: true,
  });
  date.after = 2;
  const literal = toLiteral(date);
  assert.doesNotMatch(literal, /Object\.assign\([^)]*\{[^}]*\["__proto__"\]/, "no Object.assign of a __proto__ key");
  const back = evaluate(literal) as Date & Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(back), Date.prototype);
  assert.ok(back instanceof Date && back.getTime() === 0);
  assert.deepEqual(Object.keys(back), ["before", "__proto__", "after"]);
  assert.deepEqual(Object.getOwnPropertyDescriptor(back, "__proto__")?.value, { polluted: true });
  for (const base of [new Error("e"), /r/g, Object(5)]) {
    Object.defineProperty(base, "__proto__", { value: 7, enumerable: true, writable: true, configurable: true });
    const again = evaluate(toLiteral(base)) as object;
    assert.equal(
      Object.getPrototypeOf(again),
      Object.getPrototypeOf(base) === Number.prototype ? Number.prototype : Object.getPrototypeOf(base),
    );
  }
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test("best-effort values print: private fields, functions, BigInt, sparse arrays, symbol keys, cycles from st.just", () => {
  class Secret {
    #hidden = 1;
    shown = 2;
    peek(): number {
      return this.#hidden;
    }
  }
  assert.equal(toLiteral(new Secret()), "{ shown: 2 } /* Secret */");
  assert.equal(toLiteral(2n ** 70n), "1180591620717411303424n");
  assert.equal(toLiteral([1, , 3]), "[1, , 3]");
  assert.match(
    toLiteral(function named() {}),
    /function values cannot be printed: named/,
  );
  const sym = Symbol.for("k");
  assert.deepStrictEqual(evaluate(toLiteral({ [sym]: 1 })), { [sym]: 1 });
  // A cyclic value from st.just prints in the failure report and evaluates back to the same cycle.
  const cyclic: Record<string, unknown> = { n: 1 };
  cyclic.self = cyclic;
  try {
    check(
      property(st.just(cyclic), () => assert.fail("always")),
      QUIET,
    );
    assert.fail("expected a failure");
  } catch (e) {
    assert.ok(e instanceof PropertyFailure, String(e));
    const back = evaluate(e.repro) as Record<string, unknown>;
    assert.equal(back.self, back);
  }
});

// ------------------------------------------------------------------------------------------------ signed zeros

/** `count` values of `s`, one per seed, drawn straight through a generating TestCase. */
function drawMany<T>(s: Strategy<T>, count: number): T[] {
  const out: T[] = [];
  for (let seed = 0; seed < count; seed++) out.push(s.draw(new TestCase([], new Random(seed), 8192)));
  return out;
}

test("a zero bound of st.floats is signed, as in Hypothesis: min 0 excludes -0, max -0 excludes 0", () => {
  // min -0, max -0 is -0 only (it printed as 0, which evaluates to a value outside the bounds).
  assert.ok(drawMany(st.floats({ min: -0, max: -0 }), 500).every((x) => Object.is(x, -0)));
  assert.ok(drawMany(st.floats({ min: 0, max: 0 }), 500).every((x) => Object.is(x, 0)));
  assert.ok(drawMany(st.floats({ min: 0 }), 3000).every((x) => x > 0 || Object.is(x, 0)));
  assert.ok(drawMany(st.floats({ min: 0, max: 1, allowInfinity: false }), 3000).every((x) => !Object.is(x, -0)));
  assert.ok(drawMany(st.floats({ max: -0 }), 3000).every((x) => x < 0 || Object.is(x, -0)));
  assert.ok(
    drawMany(st.floats({ min: -1, max: -0, allowInfinity: false }), 3000).every(
      (x) => x >= -1 && (x < 0 || Object.is(x, -0)),
    ),
  );
  // min -0 or max 0 admits both zeros.
  const both = drawMany(st.floats({ min: -0, max: 0 }), 500);
  assert.ok(both.some((x) => Object.is(x, 0)) && both.some((x) => Object.is(x, -0)));
  // [0, -0] contradict each other: read as zero of either sign (a sorted pair of zeros can come out that way).
  const contradictory = drawMany(st.floats({ min: 0, max: -0 }), 500);
  assert.ok(contradictory.every((x) => x === 0) && contradictory.some((x) => Object.is(x, -0)));
});

test("signed zero bounds hold for the choice itself: legality, the simplest value, the domain, shrinking", () => {
  const c = (min: number, max: number) => ({ min, max, allowNaN: false });
  assert.equal(permitted("float", -0, c(0, 1)), false);
  assert.equal(permitted("float", 0, c(-1, -0)), false);
  assert.equal(permitted("float", -0, c(-0, 0)) && permitted("float", 0, c(-0, 0)), true);
  assert.ok(Object.is(simplest("float", c(-0, -0)), -0));
  assert.ok(Object.is(simplest("float", c(-5, -0)), -0));
  assert.ok(Object.is(simplest("float", c(0, 5)), 0));
  assert.ok(Object.is(simplest("float", c(0, -0)), 0));
  assert.deepEqual(
    [
      domainSize("float", c(-0, -0)),
      domainSize("float", c(0, 0)),
      domainSize("float", c(-0, 0)),
      domainSize("float", c(0, -0)),
    ],
    [1, 1, 2, 2],
  );
  // The minimal example respects the bounds and prints as the value it is.
  const found = find(st.floats({ max: -0 }), () => true, QUIET);
  assert.ok(Object.is(found, -0));
  assert.equal(toLiteral(found), "-0");
  assert.equal(
    find(st.floats({ min: -2, max: -0 }), (x) => x <= -1, QUIET),
    -1,
  );
});

// ------------------------------------------------------------------------------- extra properties on collections

test("an array's extra own properties print, so the literal evaluates back deep-equal", () => {
  const tagged = Object.assign([1, 2], { tag: "x" });
  assert.equal(toLiteral(tagged), 'Object.assign([1, 2], { tag: "x" })');
  // A RegExp match array carries index, input and groups.
  const match = /(?<year>\d{4})/.exec("in 2024") as RegExpExecArray;
  const sparse: unknown[] = [1, , 3];
  const mostlyHoles: unknown[] = new Array(30);
  mostlyHoles[3] = 1;
  const withProto = [1];
  Object.defineProperty(withProto, "__proto__", {
    value: { a: 1 },
    writable: true,
    enumerable: true,
    configurable: true,
  });
  const cyclic: unknown[] & { self?: unknown } = [1];
  cyclic.self = cyclic;
  const values: unknown[] = [
    tagged,
    match,
    Object.assign(sparse, { tag: "holes" }),
    Object.assign(mostlyHoles, { x: 2 }),
    Object.assign([1], { [Symbol.for("k")]: 2 }),
    Object.assign([], { "4294967295": "not an index", "-1": "nor this" }),
    withProto,
    cyclic,
  ];
  for (const value of values) {
    const literal = toLiteral(value);
    assert.deepStrictEqual(evaluate(literal), value, literal);
  }
  // __proto__ is defined on the array, never assigned (which would replace the array's prototype).
  assert.ok(Array.isArray(evaluate(toLiteral(withProto))));
  assert.equal(Object.getPrototypeOf(evaluate(toLiteral(withProto))), Array.prototype);
});

test("typed arrays, Maps, Sets, buffers and boxed primitives keep their extra own properties too", () => {
  const self = new Map<unknown, unknown>();
  self.set(1, self);
  const values: unknown[] = [
    Object.assign(new Uint8Array([1, 2]), { tag: "x" }),
    Object.assign(new Float64Array([-0, NaN]), { [Symbol.for("t")]: 1 }),
    Object.assign(new Map([[1, 2]]), { m: 1 }),
    Object.assign(new Set([1]), { s: [2] }),
    Object.assign(new String("ab"), { k: 1 }),
    Object.assign(Object(1), { n: 2 }),
    Object.assign(new ArrayBuffer(2), { b: 1 }),
    Object.assign(new DataView(new ArrayBuffer(1)), { d: 1 }),
    Object.assign(self, { me: self }),
  ];
  for (const value of values) {
    const literal = toLiteral(value);
    assert.deepStrictEqual(evaluate(literal), value, literal);
  }
  assert.equal(toLiteral(values[0]), 'Object.assign(new Uint8Array([1, 2]), { tag: "x" })');
  // A String object's characters are its own index properties: not printed twice.
  assert.equal(toLiteral(values[4]), 'Object.assign(Object("ab"), { k: 1 })');
});

test("st.integers never gives -0, even with a -0 bound or shrink target (integers have one zero)", () => {
  for (const options of [{ min: -0 }, { max: -0 }, { shrinkTowards: -0 }, { min: -0, max: -0 }]) {
    assert.ok(
      drawMany(st.integers(options), 1000).every((x) => !Object.is(x, -0)),
      JSON.stringify(options),
    );
    const found = find(st.integers(options), () => true, QUIET);
    assert.equal(toLiteral(found), "0");
  }
});
