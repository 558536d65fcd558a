// Bugs of data a zod schema describes, for bench/bugs.mjs: entries in the shape of its `bugs` array, each also
// with `zodFastCheck(zfc, z)`: the arguments zod-fast-check derives from the same schema built with zod 3 (the
// zod it supports). Each schema is written once, over the `z` it is given, in the API zod 3 and zod 4 share.
import fc from "fast-check";
import { z } from "zod";
import { fromZod } from "shrinkscope/zod";

/** Whether `f(...args)` returns without throwing. */
const runs =
  (f) =>
  (...args) => {
    try {
      f(...args);
      return true;
    } catch {
      return false;
    }
  };

// ---------------------------------------------------------------------------------------------- the schemas

const Customer = (z) =>
  z.object({
    id: z.number().int().min(1),
    email: z.string().email(),
    address: z
      .object({ street: z.string().min(1), city: z.string().min(1), zip: z.string().length(5).optional() })
      .optional(),
  });

const Shape = (z) =>
  z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("circle"), radius: z.number().positive().finite() }),
    z.object({ kind: z.literal("square"), side: z.number().positive().finite() }),
    z.object({
      kind: z.literal("rect"),
      width: z.number().positive().finite(),
      height: z.number().positive().finite(),
    }),
  ]);

const OPEN = new Date("2025-06-01T00:00:00.000Z");
const CLOSE = new Date("2025-09-30T00:00:00.000Z");
const Booking = (z) =>
  z.object({
    guest: z.string().min(1),
    arrival: z.date().min(OPEN).max(CLOSE),
    nights: z.number().int().min(1).max(14),
  });

const Signup = (z) =>
  z
    .object({ username: z.string().min(1).max(20), password: z.string().min(8).max(64) })
    .refine((s) => s.password !== s.username, {
      message: "the password must differ from the username",
      path: ["password"],
    });

// ---------------------------------------------------------------------------------------------- the code under test

/** A shipping label that reads the zip code whenever there is an address (the zip is optional). */
const shippingLabel = (c) =>
  c.address === undefined ? c.email : `${c.address.street}\n${c.address.zip.padStart(5, "0")} ${c.address.city}`;

/** Area by kind: the rectangle's case multiplies the width by itself. */
function area(s) {
  switch (s.kind) {
    case "circle":
      return Math.PI * s.radius ** 2;
    case "square":
      return s.side ** 2;
    default:
      return s.width * s.width;
  }
}

/** The booking form's own check of the arrival date: the season's last day is left out (the schema keeps it). */
const acceptsArrival = (d) => d.getTime() >= OPEN.getTime() && d.getTime() < CLOSE.getTime();

/** Sign-up: a stricter password rule than the schema's — no password containing the username. */
function register(s) {
  if (s.password.includes(s.username)) throw new Error("the password contains the username");
  return { user: s.username };
}

export const schemaBugs = [
  {
    name: "zod-optional-field",
    what: "a shipping label reads the optional zip code of an address that has none",
    holds: runs(shippingLabel),
    shrinkscope: () => [fromZod(Customer(z))],
    fastcheck: () => [
      fc.record(
        {
          id: fc.integer({ min: 1 }),
          email: fc.emailAddress(),
          address: fc.record(
            {
              street: fc.string({ minLength: 1 }),
              city: fc.string({ minLength: 1 }),
              zip: fc.string({ minLength: 5, maxLength: 5 }),
            },
            { requiredKeys: ["street", "city"] },
          ),
        },
        { requiredKeys: ["id", "email"] },
      ),
    ],
    zodFastCheck: (zfc, z3) => [zfc.outputOf(Customer(z3))],
  },
  {
    name: "zod-union-variant",
    what: "a discriminated union's rectangle variant computed as a square (width × width)",
    holds: (s) => s.kind !== "rect" || area(s) === s.width * s.height,
    shrinkscope: () => [fromZod(Shape(z))],
    fastcheck: () => {
      const positive = fc.double({ min: Number.MIN_VALUE, noNaN: true, noDefaultInfinity: true });
      return [
        fc.oneof(
          fc.record({ kind: fc.constant("circle"), radius: positive }),
          fc.record({ kind: fc.constant("square"), side: positive }),
          fc.record({ kind: fc.constant("rect"), width: positive, height: positive }),
        ),
      ];
    },
    zodFastCheck: (zfc, z3) => [zfc.outputOf(Shape(z3))],
  },
  {
    name: "zod-date-max",
    what: "a booking form's date check leaves out the season's last day, which the schema's date max keeps",
    holds: (b) => acceptsArrival(b.arrival),
    shrinkscope: () => [fromZod(Booking(z))],
    fastcheck: () => [
      fc.record({
        guest: fc.string({ minLength: 1 }),
        arrival: fc.date({ min: OPEN, max: CLOSE, noInvalidDate: true }),
        nights: fc.integer({ min: 1, max: 14 }),
      }),
    ],
    zodFastCheck: (zfc, z3) => [zfc.outputOf(Booking(z3))],
  },
  {
    name: "zod-password-refine",
    what: "sign-up rejects a password containing the username, stricter than the schema's refine(password !== username)",
    holds: runs(register),
    shrinkscope: () => [fromZod(Signup(z))],
    fastcheck: () => [
      fc
        .record({
          username: fc.string({ minLength: 1, maxLength: 20 }),
          password: fc.string({ minLength: 8, maxLength: 64 }),
        })
        .filter((s) => s.password !== s.username),
    ],
    zodFastCheck: (zfc, z3) => [zfc.outputOf(Signup(z3))],
  },
];
