import assert from "node:assert/strict";
import { describe, it } from "node:test";
import ts from "typescript";
import { formatArgs, toLiteral } from "../../../src/engine/print/printer.ts";

// Indirect eval runs in global scope; the directive makes it strict code, as the module a user pastes into is.
function evaluate(code: string): unknown {
  return (0, eval)(`"use strict"; (${code})`) as unknown;
}

function isRef(value: unknown): value is object {
  return (typeof value === "object" && value !== null) || typeof value === "function";
}

function syntaxErrors(code: string): string[] {
  const result = ts.transpileModule(`const x = ${code};\n`, {
    reportDiagnostics: true,
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, strict: true },
  });
  return (result.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

/** Calls `visit` on every object reachable from `value`, and reports whether any is reachable twice. */
function walkObjects(value: unknown, visit: (object: object) => void = () => {}): { shared: boolean } {
  const seen = new Set<object>();
  let shared = false;
  const walk = (v: unknown): void => {
    if (!isRef(v)) return;
    if (seen.has(v)) {
      shared = true;
      return;
    }
    seen.add(v);
    visit(v);
    if (Array.isArray(v)) v.forEach(walk);
    else if (v instanceof Map) for (const [k, x] of v) (walk(k), walk(x));
    else if (v instanceof Set) v.forEach(walk);
    else if (!ArrayBuffer.isView(v)) for (const k of Reflect.ownKeys(v)) walk((v as Record<PropertyKey, unknown>)[k]);
  };
  walk(value);
  return { shared };
}

function hasSharing(value: unknown): boolean {
  return walkObjects(value).shared;
}

/** Node 20's deepStrictEqual never equates two invalid Dates (it compares their times with !==). */
function hasInvalidDate(value: unknown): boolean {
  let found = false;
  walkObjects(value, (v) => {
    if (v instanceof Date && Number.isNaN(v.getTime())) found = true;
  });
  return found;
}

/**
 * deepStrictEqual cannot tell `[a, a]` from `[a, copyOfA]`; this walks both values in parallel and checks that the
 * object graphs are isomorphic: same aliasing, same order of keys, entries and holes. It also compares the
 * contents of Dates and typed arrays, so it is a full check where deepStrictEqual cannot be used.
 */
function assertSameGraph(original: unknown, copy: unknown): void {
  const forward = new Map<object, object>();
  const backward = new Map<object, object>();
  const walk = (a: unknown, b: unknown, path: string): void => {
    if (!isRef(a)) {
      assert.ok(Object.is(a, b), `${path}: ${String(b)} is not ${String(a)}`);
      return;
    }
    assert.ok(isRef(b), `${path}: expected an object`);
    if (forward.has(a) || backward.has(b)) {
      assert.equal(forward.get(a), b, `${path}: sharing not preserved`);
      assert.equal(backward.get(b), a, `${path}: objects merged`);
      return;
    }
    forward.set(a, b);
    backward.set(b, a);
    assert.equal(Object.getPrototypeOf(b), Object.getPrototypeOf(a), `${path}: prototype`);
    if (Array.isArray(a)) {
      const other = b as unknown[];
      assert.equal(other.length, a.length, `${path}: length`);
      for (let i = 0; i < a.length; i++) {
        assert.equal(i in other, i in a, `${path}[${i}]: hole`);
        walk(a[i], other[i], `${path}[${i}]`);
      }
    } else if (a instanceof Map) {
      const entries = [...(b as Map<unknown, unknown>)];
      assert.equal(entries.length, a.size, `${path}: size`);
      [...a].forEach(([k, v], i) => {
        walk(k, entries[i]?.[0], `${path}.key(${i})`);
        walk(v, entries[i]?.[1], `${path}.get(${i})`);
      });
    } else if (a instanceof Set) {
      const items = [...(b as Set<unknown>)];
      assert.equal(items.length, a.size, `${path}: size`);
      [...a].forEach((v, i) => walk(v, items[i], `${path}.item(${i})`));
    } else if (a instanceof Date) {
      assert.ok(Object.is((b as Date).getTime(), a.getTime()), `${path}: time`);
    } else if (ArrayBuffer.isView(a)) {
      const bytes = (view: ArrayBufferView): number[] => [
        ...new Uint8Array(view.buffer, view.byteOffset, view.byteLength),
      ];
      assert.deepEqual(bytes(b as ArrayBufferView), bytes(a), `${path}: bytes`);
    } else {
      const keys = Reflect.ownKeys(a).filter((k) => Object.prototype.propertyIsEnumerable.call(a, k));
      const otherKeys = Reflect.ownKeys(b).filter((k) => Object.prototype.propertyIsEnumerable.call(b, k));
      assert.deepEqual(otherKeys, keys, `${path}: keys`);
      for (const k of keys) {
        walk((a as Record<PropertyKey, unknown>)[k], (b as Record<PropertyKey, unknown>)[k], `${path}.${String(k)}`);
      }
    }
  };
  walk(original, copy, "value");
}

/** Prints, checks the properties every output must have, evaluates it back and checks it equals the original. */
function roundTrip<T>(value: T): { literal: string; back: T } {
  const literal = toLiteral(value);
  assert.doesNotMatch(literal, /[\n\r\u2028\u2029]/, "single line");
  assert.ok(!literal.includes("*/"), `${literal} would close a block comment`);
  assert.doesNotMatch(literal, /\p{Cs}/u, "lone surrogate in the output");
  let back: T;
  try {
    back = evaluate(literal) as T;
  } catch (error) {
    assert.fail(`${literal} does not evaluate: ${String(error)}`);
  }
  if (!hasInvalidDate(value)) assert.deepStrictEqual(back, value, literal);
  assertSameGraph(value, back);
  assert.equal(literal.startsWith("(() => {"), hasSharing(value), `IIFE exactly when sharing: ${literal}`);
  return { literal, back };
}

describe("toLiteral: numbers and other primitives", () => {
  it("prints numbers so they round-trip, including -0 and the non-finite ones", () => {
    const numbers = [
      0,
      -0,
      1,
      -1,
      0.1,
      -1.5e-7,
      1e21,
      5e-324,
      -Number.MAX_VALUE,
      2 ** 53 + 2,
      NaN,
      Infinity,
      -Infinity,
    ];
    for (const n of numbers) {
      const { back } = roundTrip(n);
      assert.ok(Object.is(back, n), String(n));
    }
    assert.equal(toLiteral(-0), "-0");
    assert.equal(toLiteral(NaN), "NaN");
    assert.equal(toLiteral(-Infinity), "-Infinity");
  });

  it("keeps negative numbers and -0 valid and exact inside other expressions", () => {
    assert.equal(toLiteral([-1, -0]), "[-1, -0]");
    const { back } = roundTrip([-1, -0, { a: -0 }, new Map([["k", -0]])]);
    assert.ok(Object.is(back[1], -0));
    assert.ok(Object.is((back[2] as { a: number }).a, -0));
    assert.ok(Object.is((back[3] as Map<string, number>).get("k"), -0));
  });

  it("prints bigints, booleans, null and undefined", () => {
    assert.equal(toLiteral(123n), "123n");
    assert.equal(toLiteral(-5n), "-5n");
    assert.equal(toLiteral(true), "true");
    assert.equal(toLiteral(null), "null");
    assert.equal(toLiteral(undefined), "undefined");
    for (const v of [0n, -5n, 2n ** 100n, -(2n ** 64n), false, true, null, undefined]) roundTrip(v);
  });

  it("prints well-known and registered symbols as themselves, others by description", () => {
    assert.equal(evaluate(toLiteral(Symbol.iterator)), Symbol.iterator);
    assert.equal(evaluate(toLiteral(Symbol.for("app.key"))), Symbol.for("app.key"));
    assert.equal(toLiteral(Symbol('a"b')), 'Symbol("a\\"b")');
    assert.equal(toLiteral(Symbol()), "Symbol()");
    const back = evaluate(toLiteral(Symbol("desc")));
    assert.equal(typeof back, "symbol");
    assert.equal((back as symbol).description, "desc");
  });
});

describe("toLiteral: strings", () => {
  const tricky = [
    "",
    "plain",
    'say "hi"',
    "back\\slash",
    "\n\r\t\b\f\v",
    "\0",
    "\0" + "1",
    "\0" + "9",
    "\0a",
    "a\0",
    "\x01\x1f\x7f\x80\x85\x9f",
    "\u2028",
    "line\u2029sep",
    "\ud800",
    "a\udfffb",
    "\udc00\ud800",
    "\ud83d\ude00 emoji",
    "\ud83d",
    "x\ud83d",
    "*/",
    "/*",
    "**//",
    "a*/b*/",
    "${x}",
    "`",
    "`${`${a}`}`",
    "'",
    "</script>",
    "\u00ad\u200b\u200e\u202e\u2066\ufeff",
    "é ü 中文 \u{10ffff}",
  ];

  it("round-trips every problematic character exactly", () => {
    for (const s of tricky) roundTrip(s);
  });

  it("uses the expected escapes", () => {
    assert.equal(toLiteral("\0" + "1"), '"\\x001"');
    assert.equal(toLiteral("\0a"), '"\\0a"');
    assert.equal(toLiteral("\n\r\t"), '"\\n\\r\\t"');
    assert.equal(toLiteral('"\\'), '"\\"\\\\"');
    assert.equal(toLiteral("\u2028"), '"\\u2028"');
    assert.equal(toLiteral("\x1b"), '"\\u001b"');
    assert.equal(toLiteral("\ud800"), '"\\ud800"');
    assert.equal(toLiteral("a\udfffb"), '"a\\udfffb"');
    assert.equal(toLiteral("\ud83d\ude00"), '"\ud83d\ude00"');
    assert.equal(toLiteral("*/"), '"*\\/"');
    assert.equal(toLiteral("a/b"), '"a/b"');
    assert.equal(toLiteral("${x}`"), '"${x}`"');
  });

  it("escapes inside keys and nested values too", () => {
    roundTrip({ "*/": "*/", "\ud800": ["\0" + "7"], "\n": new Map([["\u2028", "\udfff"]]) });
  });
});

describe("toLiteral: arrays and objects", () => {
  it("prints simple values as plain single-line literals", () => {
    assert.equal(toLiteral([1, 2]), "[1, 2]");
    assert.equal(toLiteral([]), "[]");
    assert.equal(toLiteral({}), "{}");
    assert.equal(toLiteral({ a: 1, b: "x" }), '{ a: 1, b: "x" }');
    assert.equal(
      toLiteral({ "a b": 1, 0: 2, "01": 3, class: 4, $x: 5, "": 6 }),
      '{ 0: 2, "a b": 1, "01": 3, class: 4, $x: 5, "": 6 }',
    );
    assert.equal(toLiteral([[1], { a: [] }]), "[[1], { a: [] }]");
  });

  it("preserves holes in sparse arrays, including trailing ones", () => {
    assert.equal(toLiteral([1, , 3]), "[1, , 3]");
    assert.equal(toLiteral([1, ,]), "[1, ,]");
    assert.equal(toLiteral([,]), "[,]");
    const cases: unknown[][] = [[1, , 3], [1, ,], [, 1], [,], [, ,], new Array(5), [undefined, , undefined]];
    const huge: unknown[] = [];
    huge[1000] = "x";
    huge[3] = -0;
    cases.push(huge);
    for (const array of cases) {
      const { back } = roundTrip(array);
      assert.equal(back.length, array.length);
      for (let i = 0; i < Math.min(array.length, 2000); i++) assert.equal(i in back, i in array);
    }
    assert.ok(toLiteral(huge).length < 100, "a mostly-empty array prints its elements, not its holes");
    // Too long for deepStrictEqual, which walks every index.
    const longest = Object.assign(new Array(2 ** 32 - 1), { 7: 1 });
    assert.equal(toLiteral(longest), "Object.assign(new Array(4294967295), { 7: 1 })");
    const back = evaluate(toLiteral(longest)) as unknown[];
    assert.equal(back.length, longest.length);
    assert.deepEqual(Object.keys(back), ["7"]);
  });

  it("makes __proto__ an own property, not the prototype", () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const { literal, back } = roundTrip(value);
    assert.match(literal, /\["__proto__"\]/);
    assert.equal(Object.getPrototypeOf(back), Object.prototype);
    assert.ok(Object.hasOwn(back, "__proto__"));
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it("prints null-prototype objects", () => {
    const bare = Object.create(null) as Record<string, unknown>;
    assert.equal(toLiteral(bare), "Object.create(null)");
    bare.a = 1;
    Object.defineProperty(bare, "__proto__", { value: 2, enumerable: true, writable: true, configurable: true });
    const { back } = roundTrip(bare);
    assert.equal(Object.getPrototypeOf(back), null);
    assert.equal(back["__proto__"], 2);
  });

  it("prints symbol keys", () => {
    roundTrip({ [Symbol.for("k")]: 1, [Symbol.iterator]: [2], plain: 3 });
  });
});

describe("toLiteral: built-in objects", () => {
  it("prints Maps and Sets, nested and empty", () => {
    assert.equal(toLiteral(new Map([[1, "a"]])), 'new Map([[1, "a"]])');
    assert.equal(toLiteral(new Set([1, 2])), "new Set([1, 2])");
    assert.equal(toLiteral(new Map()), "new Map()");
    roundTrip(
      new Map<unknown, unknown>([
        ["s", new Set([1, new Set(["x"]), [2]])],
        [{ k: 1 }, new Map([[NaN, -0]])],
      ]),
    );
    roundTrip(new Set([NaN, undefined, null, "", 0n, [], {}]));
  });

  it("prints Dates, including invalid and extreme ones", () => {
    assert.equal(toLiteral(new Date(0)), 'new Date("1970-01-01T00:00:00.000Z")');
    assert.equal(toLiteral(new Date(NaN)), "new Date(NaN)");
    for (const t of [0, 1.7e12, -1, 8.64e15, -8.64e15, -62198755200000, NaN]) roundTrip(new Date(t));
  });

  it("prints typed arrays, buffers and data views", () => {
    assert.equal(toLiteral(new Uint8Array([1, 2])), "new Uint8Array([1, 2])");
    roundTrip(new Uint8Array([]));
    roundTrip(new Uint8Array([0, 255, 7]));
    roundTrip(new Int8Array([-128, 127]));
    roundTrip(new Uint8ClampedArray([0, 255]));
    roundTrip(new Int32Array([-(2 ** 31)]));
    roundTrip(new Float32Array([0.1, -0, NaN, Infinity]));
    const floats = roundTrip(new Float64Array([-0, NaN, 5e-324])).back;
    assert.ok(Object.is(floats[0], -0));
    roundTrip(new BigInt64Array([-(2n ** 63n), 1n]));
    roundTrip(new BigUint64Array([2n ** 64n - 1n]));
    roundTrip(new Uint8Array([9, 8, 7, 6]).subarray(1, 3));
    roundTrip(Buffer.from("hi"));
    roundTrip(new Uint8Array([1, 2, 3]).buffer);
    roundTrip(new DataView(new Uint8Array([4, 5]).buffer));
  });

  it("prints regular expressions through escaped strings", () => {
    for (const re of [
      /a\/b*\//gi,
      /[*/]/,
      new RegExp("\n\u2028"),
      /\p{L}+/u,
      /x/y,
      /(?<n>a)\k<n>/dgimsy,
      new RegExp(""),
    ]) {
      roundTrip(re);
    }
    const sticky = /a/g;
    sticky.lastIndex = 3;
    assert.equal(roundTrip(sticky).back.lastIndex, 3);
  });

  it("prints errors with their built-in type and message", () => {
    assert.equal(toLiteral(new TypeError("bad")), 'new TypeError("bad")');
    for (const error of [new Error("msg"), new TypeError("t"), new RangeError("multi\nline */"), new SyntaxError("")]) {
      roundTrip(error);
    }
    const coded = Object.assign(new Error("io"), { code: "ENOENT" });
    assert.equal(toLiteral(coded), 'Object.assign(new Error("io"), { code: "ENOENT" })');
    roundTrip(coded);
  });

  it("prints boxed primitives", () => {
    for (const boxed of [Object(1), Object(-0), Object("s"), Object(false), Object(3n)] as object[]) roundTrip(boxed);
  });
});

describe("toLiteral: best-effort values", () => {
  it("prints functions as a stub that throws, naming the function", () => {
    function handler(): number {
      return 1;
    }
    const literal = toLiteral(handler);
    assert.deepEqual(syntaxErrors(literal), []);
    const stub = evaluate(literal) as () => unknown;
    assert.throws(stub, /function values cannot be printed: handler/);
    assert.deepEqual(syntaxErrors(toLiteral({ f: () => 0, g: handler })), []);
  });

  it("prints class instances as their own properties plus a class-name comment", () => {
    class Point {
      constructor(
        readonly x: number,
        readonly y: number,
      ) {}
    }
    const literal = toLiteral([new Point(1, -0)]);
    assert.equal(literal, "[{ x: 1, y: -0 } /* Point */]");
    assert.deepStrictEqual(evaluate(literal), [{ x: 1, y: -0 }]);
    class Bag extends Map<string, number> {}
    assert.equal(toLiteral(new Bag([["a", 1]])), 'new Map([["a", 1]]) /* Bag */');
  });
});

describe("toLiteral: shared references and cycles", () => {
  it("names an object reached twice and reuses the name", () => {
    const r = [1, 2];
    assert.equal(toLiteral([r, r]), "(() => { const r1 = [1, 2]; return [r1, r1]; })()");
    const { back } = roundTrip([r, r]);
    assert.equal(back[0], back[1]);
  });

  it("preserves sharing at every depth and inside Maps and Sets", () => {
    const leafObject = { n: 1 };
    const date = new Date(5);
    const inner = { a: leafObject, b: [leafObject], d: date };
    const value = {
      first: inner,
      second: inner,
      map: new Map<unknown, unknown>([
        [leafObject, date],
        ["k", inner],
      ]),
      set: new Set([leafObject]),
    };
    const { back } = roundTrip(value);
    assert.equal(back.first, back.second);
    assert.equal(back.first.a, back.first.b[0]);
    assert.equal([...back.map.keys()][0], back.first.a);
    assert.equal(back.map.get(back.first.a), back.first.d);
    assert.ok(back.set.has(back.first.a));
  });

  it("rebuilds a self-referencing object", () => {
    const self: Record<string, unknown> = { x: 1 };
    self.self = self;
    assert.equal(toLiteral(self), "(() => { const r1 = {}; Object.assign(r1, { x: 1, self: r1 }); return r1; })()");
    const { back } = roundTrip(self);
    assert.equal(back.self, back);
  });

  it("rebuilds cyclic arrays, including sparse ones", () => {
    const array: unknown[] = [1];
    array.push(array, [array]);
    const { back } = roundTrip(array);
    assert.equal(back[1], back);
    assert.equal((back[2] as unknown[])[0], back);
    const sparse: unknown[] = [];
    sparse[3] = sparse;
    const sparseBack = roundTrip(sparse).back;
    assert.equal(sparseBack[3], sparseBack);
    assert.ok(!(0 in sparseBack));
  });

  it("rebuilds Maps and Sets that contain themselves, keeping entry order", () => {
    const map = new Map<unknown, unknown>([["before", 1]]);
    map.set(map, map);
    map.set("after", new Set([map]));
    const { back } = roundTrip(map);
    assert.deepEqual([...back.keys()].slice(0, 1), ["before"]);
    assert.equal(back.get(back), back);
    assert.ok((back.get("after") as Set<unknown>).has(back));
    const set = new Set<unknown>([0]);
    set.add(set);
    const setBack = roundTrip(set).back;
    assert.ok(setBack.has(setBack));
  });

  it("rebuilds mutual cycles and cycles through unshared objects", () => {
    const a: Record<string, unknown> = { name: "a" };
    const b: Record<string, unknown> = { name: "b", a };
    a.b = b;
    b.b = b;
    const back = roundTrip({ a, b }).back;
    assert.equal(back.a.b, back.b);
    assert.equal(back.b.a, back.a);
    assert.equal(back.b.b, back.b);
    const loop: Record<string, unknown> = {};
    loop.via = { deeper: [{ back: loop }] };
    const loopBack = roundTrip([loop]).back[0] as { via: { deeper: { back: unknown }[] } };
    assert.equal(loopBack.via.deeper[0]?.back, loopBack);
  });

  it("rebuilds cycles through __proto__ keys and null-prototype objects", () => {
    const value: Record<string, unknown> = { first: 1 };
    Object.defineProperty(value, "__proto__", { value, enumerable: true, writable: true, configurable: true });
    value.last = 2;
    const back = roundTrip(value).back;
    assert.equal(back["__proto__"], back);
    assert.equal(Object.getPrototypeOf(back), Object.prototype);
    const bare = Object.create(null) as Record<string, unknown>;
    bare.me = bare;
    Object.defineProperty(bare, "__proto__", { value: bare, enumerable: true, writable: true, configurable: true });
    const bareBack = roundTrip(bare).back;
    assert.equal(bareBack["__proto__"], bareBack);
  });

  it("produces valid TypeScript syntax", () => {
    const self: Record<string, unknown> = {};
    self.self = self;
    const shared = [1];
    const samples: unknown[] = [
      [-1, -0, NaN, -Infinity, 1e21],
      "\0" + "1\u2028\ud800*/${x}`",
      [1, , 3, ,],
      { __proto__x: 1, ["__proto__"]: 2, "a b": 3, 0: 4 },
      new Map<unknown, unknown>([[new Set([1]), new Date(0)]]),
      [new Uint8Array([1]), /a\/b/g, new TypeError("t"), Symbol("s"), 5n, -5n, undefined],
      [shared, shared],
      self,
      Object.create(null),
    ];
    for (const sample of samples) {
      const literal = toLiteral(sample);
      assert.deepEqual(syntaxErrors(literal), [], literal);
    }
  });
});

describe("formatArgs", () => {
  function roundTripArgs(args: unknown[]): { printed: string; back: unknown[] } {
    const printed = formatArgs(args);
    const back = evaluate(`[${printed}]`) as unknown[];
    assert.deepStrictEqual(back, args, printed);
    assertSameGraph(args, back);
    assert.deepEqual(syntaxErrors(`f(${printed})`), [], printed);
    return { printed, back };
  }

  it("prints a plain comma-separated list", () => {
    assert.equal(formatArgs([1, "a", [2]]), '1, "a", [2]');
    assert.equal(formatArgs([]), "");
    roundTripArgs([1, "a", [2], -0, new Map([[1, new Set([2])]])]);
  });

  it("keeps sharing inside one argument local to that argument", () => {
    const r = [1];
    const { printed } = roundTripArgs([0, [r, r]]);
    assert.equal(printed, "0, (() => { const r1 = [1]; return [r1, r1]; })()");
  });

  it("spreads one IIFE when arguments share objects", () => {
    const r = [1, 2];
    const { printed, back } = roundTripArgs([r, { r }, 3]);
    assert.equal(printed, "...(() => { const r1 = [1, 2]; return [r1, { r: r1 }, 3]; })()");
    assert.equal((back[1] as { r: unknown }).r, back[0]);
    const self: Record<string, unknown> = {};
    self.self = self;
    const cyclic = roundTripArgs([self, self]).back;
    assert.equal(cyclic[0], cyclic[1]);
  });

  it("prints holes in the argument list as undefined", () => {
    assert.equal(formatArgs([, 1]), "undefined, 1");
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Randomized round-trips

/** Numerical Recipes' LCG; the high bits are the good ones. */
class Lcg {
  constructor(private state: number) {}
  next(): number {
    this.state = (Math.imul(this.state, 1664525) + 1013904223) >>> 0;
    return this.state;
  }
  below(n: number): number {
    return Math.floor((this.next() / 2 ** 32) * n);
  }
  chance(p: number): boolean {
    return this.next() / 2 ** 32 < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)] as T;
  }
}

const SPECIAL_NUMBERS = [
  0,
  -0,
  1,
  -1,
  0.5,
  0.1,
  -2.5e-8,
  1e21,
  2 ** 53,
  NaN,
  Infinity,
  -Infinity,
  5e-324,
  Number.MAX_VALUE,
];
const INTERESTING_UNITS = [
  0x22, 0x5c, 0x0a, 0x0d, 0x09, 0x08, 0x0b, 0x0c, 0x00, 0x30, 0x39, 0x2a, 0x2f, 0x24, 0x7b, 0x7d, 0x60, 0x27, 0x20,
  0x7f, 0x85, 0xa0, 0xad, 0x2028, 0x2029, 0x202e, 0xfeff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xd83d, 0xde00,
];
const KEYS = [
  "a",
  "b",
  "__proto__",
  "constructor",
  "toString",
  "",
  "a b",
  "0",
  "1",
  "10",
  "01",
  "-1",
  "1.5",
  "class",
  "$x",
  "_",
  "é",
  "*/",
  "12345678901234567890",
];

function randomNumber(rng: Lcg): number {
  switch (rng.below(4)) {
    case 0:
      return rng.pick(SPECIAL_NUMBERS);
    case 1:
      return rng.below(2001) - 1000;
    case 2:
      return (rng.next() - 2 ** 31) / (rng.below(1000) + 1);
    default:
      return new Float64Array(new Uint32Array([rng.next(), rng.next()]).buffer)[0] ?? 0;
  }
}

function randomString(rng: Lcg): string {
  const units: number[] = [];
  const length = rng.below(7);
  for (let i = 0; i < length; i++) {
    const roll = rng.below(3);
    units.push(roll === 0 ? rng.pick(INTERESTING_UNITS) : roll === 1 ? 0x61 + rng.below(26) : rng.below(0x10000));
  }
  return String.fromCharCode(...units);
}

function setOwn(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Builds nested values; `made` holds every object built so far in this value, for sharing and cycles. */
function randomValue(rng: Lcg, depth: number, made: object[]): unknown {
  if (made.length > 0 && rng.chance(0.06)) return rng.pick(made);
  switch (rng.below(depth > 0 ? 15 : 7)) {
    case 0:
    case 1:
      return randomNumber(rng);
    case 2:
    case 3:
      return randomString(rng);
    case 4:
      return BigInt(rng.next() - 2 ** 31) * BigInt(rng.chance(0.5) ? 1 : rng.next());
    case 5:
      return rng.pick([true, false, null, undefined]);
    case 6:
      return rng.chance(0.1) ? new Date(NaN) : new Date((rng.next() - 2 ** 31) * rng.below(4_000_000));
    case 7: {
      const length = rng.below(6);
      const array: unknown[] = new Array(length);
      made.push(array);
      for (let i = 0; i < length; i++) if (!rng.chance(0.2)) array[i] = randomValue(rng, depth - 1, made);
      return array;
    }
    case 8:
    case 9: {
      const object: object = rng.chance(0.2) ? Object.create(null) : {};
      made.push(object);
      const size = rng.below(5);
      for (let i = 0; i < size; i++) {
        setOwn(object, rng.chance(0.7) ? rng.pick(KEYS) : randomString(rng), randomValue(rng, depth - 1, made));
      }
      return object;
    }
    case 10: {
      const map = new Map<unknown, unknown>();
      made.push(map);
      const size = rng.below(4);
      for (let i = 0; i < size; i++) map.set(randomValue(rng, depth - 1, made), randomValue(rng, depth - 1, made));
      return map;
    }
    case 11: {
      const set = new Set<unknown>();
      made.push(set);
      const size = rng.below(4);
      for (let i = 0; i < size; i++) set.add(randomValue(rng, depth - 1, made));
      return set;
    }
    case 12: {
      const bytes = new Uint8Array(rng.below(5));
      for (let i = 0; i < bytes.length; i++) bytes[i] = rng.below(256);
      made.push(bytes);
      return bytes;
    }
    case 13:
      return new Float64Array([randomNumber(rng), randomNumber(rng)]);
    default:
      return [randomValue(rng, depth - 1, made), randomValue(rng, depth - 1, made)];
  }
}

describe("randomized round-trips", () => {
  it("round-trips 2000 generated values with sharing and cycles", () => {
    const rng = new Lcg(0x5eed);
    let withSharing = 0;
    for (let n = 0; n < 2000; n++) {
      const value = randomValue(rng, 4, []);
      if (hasSharing(value)) withSharing++;
      const { literal } = roundTrip(value);
      if (n % 10 === 0) assert.deepEqual(syntaxErrors(literal), [], literal);
    }
    assert.ok(withSharing > 100, `only ${withSharing} values exercised sharing`);
  });

  it("round-trips generated argument lists", () => {
    const rng = new Lcg(42);
    for (let n = 0; n < 300; n++) {
      const made: object[] = [];
      const args = Array.from({ length: rng.below(4) }, () => randomValue(rng, 3, made));
      const printed = formatArgs(args);
      const back = evaluate(`[${printed}]`) as unknown[];
      if (!hasInvalidDate(args)) assert.deepStrictEqual(back, args, printed);
      assertSameGraph(args, back);
    }
  });
});
