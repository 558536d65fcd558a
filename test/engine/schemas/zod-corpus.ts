/**
 * zod 4 schemas the zod bridge is measured on: every kind README lists (string checks and formats, numbers,
 * bigints, dates, literals, enums, optional/nullable/default/catch, arrays, tuples with rest, objects strict,
 * passthrough and with a catchall, records, maps, sets, unions, discriminated unions, intersections, lazy
 * recursion, refinements, transforms and pipes, brands, readonly), alone and in the shapes applications write.
 */
import { z } from "zod";

type Tree = { value: number; children: Tree[] };
const Tree: z.ZodType<Tree> = z.lazy(() => z.object({ value: z.number(), children: z.array(Tree) }));
const Category = z.object({
  name: z.string(),
  get subcategories(): z.ZodArray<typeof Category> {
    return z.array(Category);
  },
});

export const USER = z.object({
  id: z.uuid(),
  email: z.email(),
  name: z.string().min(1).max(40),
  age: z.int().min(18),
  nickname: z.string().optional(),
  role: z.enum(["admin", "editor", "viewer"]),
  contact: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("phone"), number: z.string().regex(/^\+[0-9]{8,12}$/) }),
    z.object({ kind: z.literal("post"), zip: z.string().length(5) }),
  ]),
  tree: Tree,
  joined: z.date(),
  code: z.string().regex(/^[A-Z]{3}-[0-9]{3}$/),
  score: z.number().gt(0).lte(100).multipleOf(0.5),
  tags: z.array(z.string()).max(3).default([]),
});

export const ZOD_CORPUS: Record<string, z.ZodType> = {
  user: USER,
  strings: z.object({
    a: z.string().min(2).max(5),
    b: z.string().length(3),
    c: z.string().startsWith("ab").endsWith("yz"),
    d: z.string().includes("@"),
    e: z.string().trim().toLowerCase(),
    f: z.string().regex(/^[a-f0-9]{4,8}$/i),
  }),
  formats: z.object({
    email: z.email(),
    uuid: z.uuid(),
    uuidv4: z.uuidv4(),
    url: z.url(),
    datetime: z.iso.datetime(),
    date: z.iso.date(),
    time: z.iso.time(),
    ipv4: z.ipv4(),
    ipv6: z.ipv6(),
    cuid: z.cuid(),
  }),
  numbers: z.object({
    int: z.int(),
    bounded: z.number().gte(-5).lt(5),
    positive: z.number().positive(),
    multiple: z.int().multipleOf(7).min(-100).max(100),
    int32: z.int32(),
    finite: z.number(),
  }),
  bigints: z.object({ any: z.bigint(), bounded: z.bigint().min(-10n).max(10n), positive: z.bigint().positive() }),
  dates: z.object({ any: z.date(), range: z.date().min(new Date("2024-01-01")).max(new Date("2024-12-31")) }),
  literalsAndEnums: z.object({ l: z.literal("on"), n: z.literal(42), e: z.enum(["red", "green"]), b: z.boolean() }),
  wrappers: z.object({
    optional: z.string().optional(),
    nullable: z.number().nullable(),
    withDefault: z.string().default("d"),
    caught: z.number().catch(0),
    readonly: z.array(z.int()).readonly(),
    branded: z.string().brand<"Id">(),
  }),
  arrays: z.object({
    a: z.array(z.int()).min(1).max(4),
    b: z.array(z.string()).length(2),
    nonempty: z.array(z.boolean()).nonempty(),
  }),
  tupleWithRest: z.tuple([z.string(), z.int()], z.boolean()),
  tuple: z.tuple([z.literal("x"), z.number(), z.null()]),
  strict: z.strictObject({ a: z.int() }),
  passthrough: z.looseObject({ a: z.int() }),
  catchall: z.object({ a: z.int() }).catchall(z.boolean()),
  record: z.record(z.string(), z.int()),
  enumRecord: z.record(z.enum(["a", "b"]), z.int()),
  map: z.map(z.string(), z.int()).max(3),
  set: z.set(z.int()).min(1).max(4),
  union: z.union([z.string(), z.int(), z.null()]),
  intersection: z.intersection(z.object({ a: z.string() }), z.object({ b: z.int() })),
  lazyTree: Tree,
  getterRecursion: Category,
  refine: z
    .object({ password: z.string().min(8), username: z.string().min(1) })
    .refine((u) => u.password !== u.username),
  superRefine: z.array(z.int()).superRefine((xs, ctx) => {
    if (new Set(xs).size !== xs.length) ctx.addIssue({ code: "custom", message: "duplicates" });
  }),
  transform: z.string().transform((s) => s.length),
  pipe: z
    .string()
    .regex(/^[0-9]{1,4}$/)
    .pipe(z.coerce.number()),
};
