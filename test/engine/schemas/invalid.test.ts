// invalid: true (both bridges): values the schema rejects, each for exactly one reason, shrinking to the smallest
// break with a note saying which; for tests of validators and API boundaries.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { z } from "zod";
import { check, InvalidArgument, property, st } from "../../../src/engine/index.ts";
import { fromJsonSchema } from "../../../src/engine/jsonSchema.ts";
import { fromZod } from "../../../src/engine/zod.ts";
import { failureOf } from "../helpers.ts";
import { CORPUS } from "./json-schema-corpus.ts";
import { ZOD_CORPUS } from "./zod-corpus.ts";

const addFormats = addFormatsModule as unknown as (ajv: object) => void;
const ajv2020 = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv2020);
const ajv07 = new Ajv({ strict: false, allErrors: true });
addFormats(ajv07);
const validatorOf = (schema: object | boolean) =>
  (/"additionalItems"|"definitions"/.test(JSON.stringify(schema)) ? ajv07 : ajv2020).compile(schema);

/**
 * Schemas whose breaks a validator reports as one error each. Elsewhere one break can read as several: a union's
 * options each report theirs, and a list with `contains` or `uniqueItems` can count a broken item twice.
 */
const ONE_ERROR_JSON = [
  "user",
  "typeboxObject",
  "openapiNullable",
  "typeList",
  "tree",
  "decimalMultiple",
  "tenthMultiple",
  "integerMultiples",
  "exclusiveFloat",
  "allOfObjects",
  "ifThenElse",
  "notMultiple",
  "dateTime",
  "date",
  "time",
  "email",
  "uuid",
  "uri",
  "hostname",
  "ipv4",
  "ipv6",
  "tuple",
  "draft7Tuple",
  "patternProperties",
  "dependentRequired",
  "dependentSchemas",
  "propertyNames",
  "stringPattern",
  "sizedString",
  "emptyObjectOpen",
  "nestedRequired",
];
const ONE_ISSUE_ZOD = [
  "user",
  "formats",
  "numbers",
  "bigints",
  "dates",
  "literalsAndEnums",
  "wrappers",
  "arrays",
  "tupleWithRest",
  "tuple",
  "strict",
  "passthrough",
  "catchall",
  "record",
  "enumRecord",
  "map",
  "set",
  "union",
  "lazyTree",
  "getterRecursion",
  "transform",
  "pipe",
];

test("JSON Schema corpus: every invalid value is rejected by Ajv, for one reason where one error is reported", () => {
  for (const [name, schema] of Object.entries(CORPUS)) {
    if (name === "anything" || name === "booleanTrue") continue; // they accept every value
    const validate = validatorOf(schema);
    const strategy = fromJsonSchema(schema, { invalid: true });
    for (const seed of [1, 2, 3])
      for (const drawn of st.sample(strategy, 300, { seed })) {
        // As JSON, as a validator receives it.
        const v = JSON.parse(JSON.stringify(drawn) ?? "null") as unknown;
        assert.equal(validate(v), false, `${name}, seed ${seed}: ${JSON.stringify(v)} was accepted`);
        if (ONE_ERROR_JSON.includes(name))
          assert.equal(validate.errors!.length, 1, `${name}: ${JSON.stringify(v)}: ${JSON.stringify(validate.errors)}`);
      }
  }
});

test("zod corpus: every invalid input is rejected by the schema, with one issue where one is reported", () => {
  for (const [name, schema] of Object.entries(ZOD_CORPUS)) {
    const strategy = fromZod(schema, { invalid: true });
    for (const seed of [1, 2, 3])
      for (const v of st.sample(strategy, 300, { seed })) {
        const r = schema.safeParse(v);
        assert.equal(r.success, false, `${name}, seed ${seed}: accepted`);
        if (ONE_ISSUE_ZOD.includes(name) && !r.success)
          assert.equal(r.error.issues.length, 1, `${name}: ${JSON.stringify(r.error.issues)}`);
      }
  }
});

test("a validator off by one is caught at the smallest break, and the report says which constraint", async () => {
  const User = {
    type: "object",
    properties: { name: { type: "string", maxLength: 10 }, age: { type: "integer", minimum: 18, maximum: 130 } },
    required: ["name", "age"],
    additionalProperties: false,
  };
  // The bug: the minimum checked with >= 17.
  const accepts = (u: { name?: unknown; age?: unknown }) =>
    typeof u === "object" &&
    u !== null &&
    typeof u.name === "string" &&
    [...u.name].length <= 10 &&
    Number.isInteger(u.age) &&
    (u.age as number) >= 17 &&
    (u.age as number) <= 130 &&
    Object.keys(u).every((k) => k === "name" || k === "age");
  for (const seed of [1, 2, 3, 4, 5]) {
    const f = await failureOf(() =>
      check(
        property(fromJsonSchema(User, { invalid: true }), (u) => {
          assert.equal(accepts(u as never), false);
        }),
        { seed, database: null },
      ),
    );
    assert.deepEqual(f.args, [{ name: "", age: 17 }], `seed ${seed}`);
    assert.match(f.message, /note: invalid: \.age: under its minimum 18/);
  }
  // zod too: one character over a maximum length is where a length check off by one fails.
  const Name = z.object({ name: z.string().max(5) });
  const g = await failureOf(() =>
    check(
      property(fromZod(Name, { invalid: true }), (v) => {
        const n = v !== null && typeof v === "object" ? (v as { name?: unknown }).name : undefined;
        if (typeof n === "string") assert.ok(n.length <= 6 === false, "a 6-character name is accepted");
      }),
      { seed: 1, database: null },
    ),
  );
  assert.equal([...(g.args[0] as { name: string }).name].length, 6);
  assert.match(g.message, /note: invalid: \.name: longer than its maximum length 5/);
});

test("invalid on a schema that accepts everything is an InvalidArgument, as is a non-boolean", () => {
  assert.throws(
    () => fromJsonSchema({}, { invalid: true }),
    (e: unknown) => e instanceof InvalidArgument && /no constraint to break/.test(e.message),
  );
  assert.throws(() => fromZod(z.any(), { invalid: true }), /fromZod: invalid: the schema has no constraint to break/);
  assert.throws(
    () => fromJsonSchema({ type: "string" }, { invalid: "yes" } as never),
    /fromJsonSchema: invalid must be a boolean/,
  );
});
