/**
 * JSON Schemas the JSON Schema bridge is measured on: the shapes APIs and TypeBox write (objects with required and
 * optional keys, enums, formats, nullable fields), recursion ($ref to itself, mutual), combinators (allOf, anyOf,
 * oneOf, not, if/then/else, dependent keys), and each keyword's edges (exclusive bounds, decimal multiples,
 * uniqueness, contains, pattern properties, tuples). Each is a case of the corpus test and the minimal-value test.
 */
import { Type } from "@sinclair/typebox";

/** Schemas built with TypeBox itself: its Type.* output is JSON Schema (symbol keys aside, which no reader sees). */
const typeboxTree = Type.Recursive((This) =>
  Type.Object({ id: Type.String(), nodes: Type.Array(This, { maxItems: 3 }) }),
);
const typeboxString = Type.String({ $id: "Code", pattern: "^[A-Z]{2}[0-9]{2}$" });

export const CORPUS: Record<string, object | boolean> = {
  typeboxUser: Type.Object({
    id: Type.String({ format: "uuid" }),
    tags: Type.Optional(Type.Array(Type.String(), { maxItems: 3, uniqueItems: true })),
    kind: Type.Union([Type.Literal("a"), Type.Literal("b")]),
    n: Type.Integer({ minimum: 0, exclusiveMaximum: 10 }),
    d: Type.Union([Type.Null(), Type.Number()]),
    at: Type.String({ format: "date-time" }),
  }),
  // Type.Recursive names the schema by $id and refers to it by that id, not by a pointer.
  typeboxRecursive: typeboxTree,
  typeboxRef: Type.Object({ code: Type.Ref(typeboxString), defs: Type.Tuple([typeboxString]) }),
  user: {
    type: "object",
    properties: {
      id: { type: "integer", minimum: 1 },
      email: { type: "string", format: "email" },
      name: { type: "string", minLength: 1, maxLength: 40 },
      age: { type: "integer", minimum: 18, maximum: 120 },
      role: { enum: ["admin", "editor", "viewer"] },
      tags: { type: "array", items: { type: "string", pattern: "^[a-z][a-z0-9-]*$" }, uniqueItems: true, maxItems: 5 },
      createdAt: { type: "string", format: "date-time" },
    },
    required: ["id", "email"],
    additionalProperties: false,
  },
  // TypeBox's Type.Object({ id: Type.String({ format: "uuid" }), count: Type.Number(), note: Type.Optional(Type.String()) })
  typeboxObject: {
    type: "object",
    properties: { id: { type: "string", format: "uuid" }, count: { type: "number" }, note: { type: "string" } },
    required: ["id", "count"],
  },
  // TypeBox's Type.Union of literals and Type.Array(Type.Integer(), { minItems: 1 })
  typeboxUnion: {
    anyOf: [
      { const: "a", type: "string" },
      { const: "b", type: "string" },
      { type: "array", items: { type: "integer" }, minItems: 1 },
    ],
  },
  openapiNullable: { type: "string", nullable: true, maxLength: 3 },
  typeList: { type: ["string", "null", "integer"], minLength: 2, maximum: 5 },
  tree: {
    $defs: {
      node: {
        type: "object",
        properties: { value: { type: "integer" }, children: { type: "array", items: { $ref: "#/$defs/node" } } },
        required: ["value", "children"],
        additionalProperties: false,
      },
    },
    $ref: "#/$defs/node",
  },
  linkedList: {
    type: "object",
    properties: { head: { type: "string" }, tail: { anyOf: [{ type: "null" }, { $ref: "#" }] } },
    required: ["head", "tail"],
  },
  mutual: {
    definitions: {
      expr: { oneOf: [{ type: "integer" }, { $ref: "#/definitions/sum" }] },
      sum: {
        type: "object",
        properties: {
          op: { const: "+" },
          args: { type: "array", items: { $ref: "#/definitions/expr" }, minItems: 2, maxItems: 3 },
        },
        required: ["op", "args"],
      },
    },
    $ref: "#/definitions/expr",
  },
  decimalMultiple: { type: "number", exclusiveMinimum: 0, maximum: 10, multipleOf: 0.25 },
  tenthMultiple: { type: "number", minimum: -1, maximum: 1, multipleOf: 0.1 },
  integerMultiples: { allOf: [{ type: "integer", multipleOf: 4 }, { multipleOf: 6 }], minimum: -100, maximum: 100 },
  exclusiveFloat: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
  oneOfInts: {
    oneOf: [
      { type: "integer", multipleOf: 3 },
      { type: "integer", multipleOf: 5 },
    ],
  },
  allOfObjects: {
    allOf: [
      { type: "object", properties: { a: { type: "integer" } }, required: ["a"] },
      { properties: { a: { minimum: 10 }, b: { type: "string", minLength: 1 } }, required: ["b"] },
    ],
  },
  ifThenElse: {
    type: "object",
    properties: { kind: { enum: ["card", "cash"] }, number: { type: "string", pattern: "^[0-9]{12,16}$" } },
    required: ["kind"],
    if: { properties: { kind: { const: "card" } } },
    then: { required: ["number"] },
    else: { not: { required: ["number"] } },
  },
  notMultiple: { type: "integer", not: { multipleOf: 2 } },
  dateTime: { type: "string", format: "date-time" },
  date: { type: "string", format: "date" },
  time: { type: "string", format: "time" },
  email: { type: "string", format: "email", maxLength: 60 },
  uuid: { type: "string", format: "uuid" },
  uri: { type: "string", format: "uri" },
  hostname: { type: "string", format: "hostname" },
  ipv4: { type: "string", format: "ipv4" },
  ipv6: { type: "string", format: "ipv6" },
  tuple: {
    type: "array",
    prefixItems: [{ type: "integer" }, { type: "string" }, { type: "boolean" }],
    items: false,
    minItems: 1,
  },
  draft7Tuple: { type: "array", items: [{ type: "string" }, { type: "number" }], additionalItems: { type: "null" } },
  uniqueSmall: { type: "array", items: { enum: [1, 2, 3, 4] }, uniqueItems: true, minItems: 2 },
  contains: { type: "array", items: { type: "integer" }, contains: { minimum: 100 }, minContains: 2, maxItems: 6 },
  patternProperties: {
    type: "object",
    patternProperties: { "^x-[a-z]+$": { type: "integer" }, "^y-": { type: "string" } },
    additionalProperties: false,
    minProperties: 1,
    maxProperties: 3,
  },
  dependentRequired: {
    type: "object",
    properties: { card: { type: "string" }, billing: { type: "string" }, name: { type: "string" } },
    dependentRequired: { card: ["billing"] },
    additionalProperties: false,
  },
  dependentSchemas: {
    type: "object",
    properties: { a: { type: "integer" }, b: { type: "integer" } },
    dependentSchemas: { a: { properties: { b: { minimum: 5 } }, required: ["b"] } },
    additionalProperties: false,
  },
  propertyNames: {
    type: "object",
    propertyNames: { pattern: "^[a-z]{1,4}$" },
    additionalProperties: { type: "boolean" },
    minProperties: 1,
  },
  enumMixed: { enum: [null, 0, "zero", [0], { zero: 0 }] },
  constObject: { const: { a: [1, { b: null }] } },
  stringPattern: { type: "string", pattern: "^[A-Z]{3}-[0-9]{4}$" },
  sizedString: { type: "string", minLength: 5, maxLength: 8 },
  emptyObjectOpen: { type: "object" },
  anything: {},
  booleanTrue: true,
  nestedRequired: {
    type: "object",
    properties: {
      order: {
        type: "object",
        properties: {
          items: {
            type: "array",
            minItems: 1,
            items: {
              type: "object",
              properties: {
                sku: { type: "string", pattern: "^SKU[0-9]+$" },
                qty: { type: "integer", minimum: 1, maximum: 99 },
              },
              required: ["sku", "qty"],
              additionalProperties: false,
            },
          },
          coupon: { type: "string", maxLength: 10 },
        },
        required: ["items"],
        additionalProperties: false,
      },
    },
    required: ["order"],
    additionalProperties: false,
  },
};
