// Strategies from zod 4 schemas (shrinkscope/zod), checked by zod itself: every value of every corpus schema
// parses; a 12-field User never trips the filter health check and shrinks every other field to its simplest; the
// printed example is the TypeScript literal of the value; transforms give the output; and what the bridge cannot
// generate is an InvalidArgument naming the kind and its path.
import { test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { check, FailedHealthCheck, InvalidArgument, property, st } from "../../../src/engine/index.ts";
import { fromZod } from "../../../src/engine/zod.ts";
import { failureOf } from "../helpers.ts";
import { USER, ZOD_CORPUS } from "./zod-corpus.ts";

const SEEDS = [1, 2, 3, 4, 5];

/** A value as text, bigints, Maps, Sets and Dates included (for counting distinct values). */
const text = (v: unknown) =>
  JSON.stringify(v, (_, x) =>
    typeof x === "bigint" ? `${x}n` : x instanceof Map || x instanceof Set ? [...x] : x === undefined ? "undefined" : x,
  );

for (const [name, schema] of Object.entries(ZOD_CORPUS)) {
  test(`corpus: ${name}: 1000 values on each of ${SEEDS.length} seeds, every one parsed by the schema`, () => {
    const strategy = fromZod(schema);
    const seen = new Set<string>();
    // A transform's output is not its input: those are checked through the input side (the pipe's input schema).
    const checks = !(name === "transform" || name === "pipe");
    for (const seed of SEEDS)
      for (const v of st.sample(strategy, 1000, { seed })) {
        if (checks) assert.ok(schema.safeParse(v).success, `${name}, seed ${seed}: ${text(v)} does not parse`);
        seen.add(text(v));
      }
    assert.ok(seen.size >= Math.min(50, SMALL[name] ?? 50), `${name}: only ${seen.size} distinct values`);
  });
}
const SMALL: Record<string, number> = { literalsAndEnums: 4, transform: 40 };

test("a 12-field User: no filterTooMuch on 20 seeds, and age >= 65 shrinks every other field to its simplest", async () => {
  const outcomes = new Map<string, number>();
  for (let seed = 1; seed <= 20; seed++) {
    check(
      property(fromZod(USER), () => {}),
      { seed, database: null },
    );
    const f = await failureOf(() =>
      check(
        property(fromZod(USER), (u) => {
          assert.ok(u.age < 65);
        }),
        { seed, database: null },
      ),
    );
    const key = text(f.args[0]);
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    assert.ok(USER.safeParse(f.args[0]).success);
  }
  assert.deepEqual(
    [...outcomes.keys()],
    [
      text({
        id: "00000000-0000-0000-0000-000000000000",
        email: "0@0.AA",
        name: "0",
        age: 65,
        role: "admin",
        contact: { kind: "post", zip: "00000" },
        tree: { value: 0, children: [] },
        joined: new Date("2000-01-01T00:00:00.000Z"),
        code: "AAA-000",
        score: 0.5,
        tags: [],
      }),
    ],
  );
});

test("the printed example is the TypeScript literal of the output: Dates, bigints, absent keys absent", async () => {
  const Event = z.object({ at: z.date(), n: z.bigint(), note: z.string().optional(), tags: z.set(z.string()) });
  const f = await failureOf(() =>
    check(
      property(fromZod(Event), (e) => {
        assert.ok(e.n < 10n);
      }),
      { seed: 1, database: null },
    ),
  );
  const example = f.message.split("\n")[3];
  assert.equal(example, '  { at: new Date("2000-01-01T00:00:00.000Z"), n: 10n, tags: new Set() }');
});

test("optional keys are absent at their simplest and present sometimes, undefined among the present values", () => {
  const values = st.sample(fromZod(z.object({ a: z.int().optional() })), 300, { seed: 1 });
  assert.ok(values.some((v) => !("a" in v)));
  assert.ok(values.some((v) => "a" in v && v.a === undefined));
  assert.ok(values.some((v) => typeof v.a === "number"));
});

test("transforms, pipes, defaults and catches give the schema's output", () => {
  const s = z.object({
    len: z.string().transform((x) => x.length),
    d: z.string().default("dflt"),
    n: z
      .string()
      .regex(/^[0-9]{1,3}$/)
      .pipe(z.coerce.number()),
  });
  for (const v of st.sample(fromZod(s), 100, { seed: 1 })) {
    assert.equal(typeof v.len, "number");
    assert.equal(typeof v.d, "string");
    assert.equal(typeof v.n, "number");
  }
  assert.ok(st.sample(fromZod(s), 100, { seed: 1 }).some((v) => v.d === "dflt"));
});

test("a refinement is checked where it sits; one rejecting most values is the filter health check, not a hang", async () => {
  const Login = z
    .object({ username: z.string().min(1), password: z.string().min(1) })
    .refine((l) => l.password !== l.username);
  for (const v of st.sample(fromZod(Login), 200, { seed: 1 })) assert.notEqual(v.password, v.username);
  const never = z.int().refine((n) => n === 123456789);
  await assert.rejects(
    async () =>
      check(
        property(fromZod(never), () => {}),
        { seed: 1, database: null },
      ),
    (e: unknown) => e instanceof FailedHealthCheck || /filterTooMuch|rejected/.test(String(e)),
  );
});

test("overrides replace a place by path; what cannot be generated names its kind and path", () => {
  const Profile = z.object({ user: z.object({ email: z.email(), avatar: z.custom<Uint8Array>() }) });
  assert.throws(
    () => fromZod(Profile),
    (e: unknown) =>
      e instanceof InvalidArgument &&
      e.message === "fromZod: z.custom at .user.avatar is not supported; give a strategy for it in overrides",
  );
  const s = fromZod(Profile, {
    overrides: { ".user.avatar": st.just(new Uint8Array([1])), ".user.email": st.just("a@b.co") },
  });
  for (const v of st.sample(s, 10, { seed: 1 }))
    assert.deepEqual(v, { user: { email: "a@b.co", avatar: new Uint8Array([1]) } });
  assert.throws(
    () => fromZod(Profile, { overrides: { ".user.avatar": st.just(new Uint8Array()), ".user.emial": st.just("x") } }),
    /fromZod: the override "\.user\.emial" names no place in the schema/,
  );
  assert.throws(
    () => fromZod({ _def: { typeName: "ZodString" } }),
    /fromZod: this is a zod 3 schema; shrinkscope\/zod reads zod 4 schemas/,
  );
  assert.throws(() => fromZod(42), /fromZod: expects a zod 4 schema/);
  assert.throws(() => fromZod(z.promise(z.int())), /fromZod: z\.promise at the root is not supported/);
  assert.throws(() => fromZod(z.int().min(5).max(4)), /fromZod: the schema admits no value/);
  // A z.lazy returning itself overflowed the stack while drawing.
  const Self: z.ZodType = z.lazy(() => Self);
  assert.throws(() => fromZod(Self), /fromZod: the schema at the root is a z\.lazy that returns itself/);
  const Throwing = z.object({
    get broken(): z.ZodString {
      throw new Error("getter broke");
    },
  });
  assert.throws(() => fromZod(Throwing), /fromZod: reading the schema threw: getter broke/);
});

test("the filter health check names the place whose refinement rejects the values", async () => {
  const Signup = z.object({ user: z.object({ email: z.email().refine((e) => e.startsWith("zzz")) }) });
  await assert.rejects(
    async () =>
      check(
        property(fromZod(Signup), () => {}),
        { seed: 1, database: null },
      ),
    (e: unknown) =>
      e instanceof FailedHealthCheck &&
      /Health check filterTooMuch failed.*; \.user\.email: refine\(…\) rejected \d+ of \d+/.test(e.message),
  );
});
