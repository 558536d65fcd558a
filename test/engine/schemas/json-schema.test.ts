// Strategies from JSON Schema (shrinkscope/json-schema), checked against Ajv, the validator most projects use:
// every value of every corpus schema is valid; the simplest value is the schema's minimal valid one; a failing
// property shrinks to it with one field changed; recursion stays bounded; and each keyword or reference the bridge
// does not support is an InvalidArgument naming it and its JSON pointer, never a silent looser test.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { check, find, InvalidArgument, property, st } from "../../../src/engine/index.ts";
import { fromJsonSchema } from "../../../src/engine/jsonSchema.ts";
import { failureOf } from "../helpers.ts";
import { CORPUS } from "./json-schema-corpus.ts";
import { z } from "zod";
import { ZOD_CORPUS } from "./zod-corpus.ts";

const addFormats = addFormatsModule as unknown as (ajv: object) => void;
const ajv2020 = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv2020);
const ajv07 = new Ajv({ strict: false, allErrors: true });
addFormats(ajv07);

/** Ajv's validator of a schema: draft-07 for the schemas written in it (items as a list, definitions). */
function validatorOf(schema: object | boolean) {
  const draft7 =
    JSON.stringify(schema).includes('"additionalItems"') || JSON.stringify(schema).includes('"definitions"');
  return (draft7 ? ajv07 : ajv2020).compile(schema);
}

const SEEDS = [1, 2, 3, 4, 5];
const VALUES = 1000;

for (const [name, schema] of Object.entries(CORPUS)) {
  test(`corpus: ${name}: ${VALUES} values on each of ${SEEDS.length} seeds, every one valid`, () => {
    const validate = validatorOf(schema);
    const strategy = fromJsonSchema(schema);
    const seen = new Set<string>();
    for (const seed of SEEDS) {
      for (const v of st.sample(strategy, VALUES, { seed })) {
        assert.ok(
          validate(v),
          `${name}, seed ${seed}: ${JSON.stringify(v)} is invalid: ${JSON.stringify(validate.errors)}`,
        );
        seen.add(JSON.stringify(v));
      }
    }
    // Not a handful of values repeated: the schema's space is explored (enums and tiny spaces aside).
    assert.ok(seen.size >= Math.min(20, distinctCap[name] ?? 20), `${name}: only ${seen.size} distinct values`);
  });
}
const distinctCap: Record<string, number> = { enumMixed: 5, constObject: 1, tenthMultiple: 10, integerMultiples: 17 };

test("zod's own JSON Schema (z.toJSONSchema) of every zod corpus schema it can write: read, and every value valid under Ajv and parsed by the zod schema", () => {
  // What JSON Schema cannot carry — dates, bigints, maps, sets (zod throws writing them) and refinements (left
  // out) — is not checked: a superRefine's rule is not in the JSON Schema, so its values need not pass it.
  const unwritable = ["user", "bigints", "dates", "map", "set"];
  const refined = ["superRefine"];
  const quiet = new Ajv2020({ strict: false, allErrors: true, logger: false });
  addFormats(quiet);
  const read: string[] = [];
  for (const [name, schema] of Object.entries(ZOD_CORPUS)) {
    let json: object;
    try {
      json = z.toJSONSchema(schema, { io: "input" });
    } catch (e) {
      assert.ok(unwritable.includes(name), `zod writes no JSON Schema for ${name}: ${String(e)}`);
      continue;
    }
    // zod writes its own formats (`cuid`, `ends_with`) beside the pattern that checks them: they are annotations.
    const strategy = fromJsonSchema(json);
    const validate = quiet.compile(json);
    for (const v of st.sample(strategy, 300, { seed: 1 })) {
      assert.ok(validate(v), `${name}: ${JSON.stringify(v)} is invalid: ${JSON.stringify(validate.errors)}`);
      if (!refined.includes(name))
        assert.ok(schema.safeParse(v).success, `${name}: zod rejects ${JSON.stringify(v)} from its own JSON Schema`);
    }
    read.push(name);
  }
  assert.equal(read.length, Object.keys(ZOD_CORPUS).length - unwritable.length);
});

test("the simplest value is the schema's minimal valid one", () => {
  const simplest = (schema: object | boolean) => find(fromJsonSchema(schema), () => true);
  assert.deepEqual(simplest(CORPUS.user), { id: 1, email: "0@0.aa" });
  assert.deepEqual(simplest(CORPUS.typeboxObject), { id: "00000000-0000-4000-8000-000000000000", count: 0 });
  assert.deepEqual(simplest(CORPUS.tree), { value: 0, children: [] });
  assert.deepEqual(simplest(CORPUS.linkedList), { head: "", tail: null });
  assert.deepEqual(simplest(CORPUS.mutual), 0);
  assert.equal(simplest(CORPUS.decimalMultiple), 0.25);
  assert.equal(simplest(CORPUS.integerMultiples), 0);
  assert.equal(simplest(CORPUS.notMultiple), 1);
  assert.deepEqual(simplest(CORPUS.tuple), [0]);
  assert.deepEqual(simplest(CORPUS.contains), [100, 100]);
  assert.deepEqual(simplest(CORPUS.allOfObjects), { a: 10, b: "0" });
  assert.deepEqual(simplest(CORPUS.ifThenElse), { kind: "card", number: "000000000000" });
  assert.deepEqual(simplest(CORPUS.nestedRequired), { order: { items: [{ sku: "SKU0", qty: 1 }] } });
  assert.equal(simplest(CORPUS.stringPattern), "AAA-0000");
  assert.equal(simplest(CORPUS.dateTime), "2000-01-01T00:00:00.000Z");
  // Fewer choices is simpler: null (the branch alone) before "" (the branch and an empty string).
  assert.equal(simplest(CORPUS.openapiNullable), null);
});

test("a property failing on one field shrinks every other field to its simplest, and the value stays valid", async () => {
  const validate = validatorOf(CORPUS.user);
  for (const seed of [1, 2, 3, 4, 5]) {
    const f = await failureOf(() =>
      check(
        property(fromJsonSchema<{ age?: number }>(CORPUS.user), (u) => {
          assert.ok((u.age ?? 0) < 65);
        }),
        { seed, database: null },
      ),
    );
    assert.deepEqual(f.args, [{ id: 1, email: "0@0.aa", age: 65 }], `seed ${seed}`);
    assert.ok(validate(f.args[0]));
  }
});

test("recursive schemas give values of many sizes, bounded, with no overrun reported as a failed health check", () => {
  const sizes = new Set<number>();
  const count = (node: { children: unknown[] }): number =>
    1 + node.children.reduce<number>((n, c) => n + count(c as { children: unknown[] }), 0);
  for (const t of st.sample(fromJsonSchema<{ children: unknown[] }>(CORPUS.tree), 300, { seed: 7 }))
    sizes.add(count(t));
  assert.ok(sizes.size >= 5, `tree sizes: ${[...sizes].join(", ")}`);
  assert.ok(Math.max(...sizes) < 500, `a tree of ${Math.max(...sizes)} nodes`);
  // A hundred examples run without FailedHealthCheck (overruns, filters).
  check(
    property(fromJsonSchema(CORPUS.tree), () => {}),
    { seed: 1, database: null },
  );
  check(
    property(fromJsonSchema(CORPUS.mutual), () => {}),
    { seed: 1, database: null },
  );
});

test("overrides replace the schema at a data path or a JSON pointer; one naming no place is an error", () => {
  const money = {
    $defs: { money: { type: "integer" } },
    type: "object",
    properties: { price: { $ref: "#/$defs/money" }, email: { type: "string" } },
    required: ["price", "email"],
    additionalProperties: false,
  };
  const s = fromJsonSchema<{ price: number; email: string }>(money, {
    overrides: { "#/$defs/money": st.just(42), ".email": st.just("a@b.cd") },
  });
  for (const v of st.sample(s, 20, { seed: 1 })) assert.deepEqual(v, { price: 42, email: "a@b.cd" });
  const items = fromJsonSchema<number[]>(
    { type: "array", items: { type: "integer" }, minItems: 1 },
    { overrides: { ".[]": st.just(7) } },
  );
  for (const v of st.sample(items, 20, { seed: 1 })) assert.ok(v.every((x) => x === 7));
  assert.throws(
    () => fromJsonSchema(money, { overrides: { ".emial": st.just("x") } }),
    (e: unknown) =>
      e instanceof InvalidArgument &&
      /fromJsonSchema: the override "\.emial" names no place in the schema/.test(e.message),
  );
  assert.throws(
    () => fromJsonSchema(money, { overrides: { ".email": "x" as never } }),
    (e: unknown) => e instanceof InvalidArgument && /the override for "\.email" must be a strategy/.test(e.message),
  );
});

test("what the bridge does not support is an InvalidArgument naming it and its pointer", () => {
  const rows: [string, unknown, RegExp][] = [
    [
      "an unknown keyword",
      { type: "string", minLenght: 3 },
      /the keyword "minLenght" is not supported at #\/minLenght/,
    ],
    [
      "unevaluatedProperties",
      { type: "object", properties: { a: { type: "object", unevaluatedProperties: false } } },
      /the keyword "unevaluatedProperties" is not supported \(.*\) at #\/properties\/a\/unevaluatedProperties/,
    ],
    [
      "$dynamicRef",
      { $dynamicRef: "#node" },
      /the keyword "\$dynamicRef" is not supported \(use \$ref\) at #\/\$dynamicRef/,
    ],
    [
      "an unknown format",
      { type: "string", format: "iban" },
      /the format "iban" is not supported \(supported: .*\) at #\/format/,
    ],
    [
      "a remote $ref",
      { $ref: "https://example.com/s.json" },
      /\$ref "https:\/\/example.com\/s.json" is neither a pointer into this document .* nor the \$id of a schema in it/,
    ],
    ["a $ref to nothing", { $ref: "#/$defs/missing" }, /\$ref "#\/\$defs\/missing" names nothing in the schema at #/],
    ["a bad pattern", { type: "string", pattern: "(" }, /pattern "\(" is not a regular expression .* at #\/pattern/],
    ["an unknown type", { type: "text" }, /unknown type "text" .* at #\/type/],
    [
      "a schema admitting nothing",
      { type: "integer", minimum: 5, maximum: 4 },
      /the schema admits no value: #: no number lies between its minimum 5 and its maximum 4/,
    ],
    [
      "a required key that cannot exist",
      { type: "object", properties: { a: false }, required: ["a"] },
      /the required property "a" admits no value/,
    ],
    [
      "a negative minLength",
      { type: "string", minLength: -1 },
      /minLength must be a non-negative integer, got -1 at #\/minLength/,
    ],
    ["multipleOf 0", { type: "number", multipleOf: 0 }, /multipleOf must be greater than 0, got 0 at #\/multipleOf/],
    ["not a schema", 42, /a schema must be an object or a boolean, got 42 at #/],
  ];
  // Found by attacking the bridge: a stack overflow, a budget give-up, and a raw error from a Proxy's trap.
  const cyclic: Record<string, unknown> = { type: "object", properties: {} };
  (cyclic.properties as Record<string, unknown>).self = cyclic;
  rows.push(
    [
      "a schema object containing itself",
      cyclic,
      /the schema object contains itself \(a JavaScript cycle\); write the recursion with \$ref at #\/properties\/self/,
    ],
    [
      "a $ref to itself alone",
      { $ref: "#" },
      /\$ref "#" comes back to itself through \$refs alone, with no schema in between/,
    ],
    [
      "$refs to each other alone",
      { $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } }, $ref: "#/$defs/a" },
      /comes back to itself through \$refs alone/,
    ],
    [
      "a Proxy whose traps throw",
      new Proxy(
        {},
        {
          ownKeys: () => {
            throw new Error("keys trap");
          },
        },
      ),
      /fromJsonSchema: reading the schema threw: keys trap/,
    ],
  );
  for (const [what, schema, pattern] of rows)
    assert.throws(
      () => fromJsonSchema(schema),
      (e: unknown) => e instanceof InvalidArgument && /^fromJsonSchema: /.test(e.message) && pattern.test(e.message),
      what,
    );
  assert.throws(() => fromJsonSchema({}, { invalids: true } as never), /fromJsonSchema: unknown option "invalids"/);
});

test("draft 4's boolean exclusiveMinimum and exclusiveMaximum are read as the numeric form of later drafts", () => {
  const values = st.sample(
    fromJsonSchema<number>({ type: "number", minimum: 5, exclusiveMinimum: true, maximum: 6, exclusiveMaximum: true }),
    300,
    { seed: 1 },
  );
  assert.ok(
    values.every((v) => v > 5 && v < 6),
    String(values.find((v) => !(v > 5 && v < 6))),
  );
});

test("annotations and x- extensions are read past; OpenAPI's nullable admits null", () => {
  const schema = {
    type: "integer",
    title: "n",
    description: "d",
    default: 1,
    examples: [2],
    "x-internal": true,
    nullable: true,
    minimum: 3,
  };
  const values = st.sample(fromJsonSchema(schema), 200, { seed: 1 });
  assert.ok(values.includes(null));
  assert.ok(values.every((v) => v === null || (Number.isInteger(v) && (v as number) >= 3)));
});
