// @ts-nocheck
import { test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { property } from "shrinkscope";
import { fromZod } from "shrinkscope/zod";
import { fromJsonSchema } from "shrinkscope/json-schema";

const User = z.object({
  name: z.string(),
  age: z.int().min(0).max(120).transform((years) => ({ years })),
});

test("nobody is retired", property(fromZod(User), (user) => {
  assert.ok(user.age.years < 65, `retired at ${user.age.years}`); // @mark:retired
}));

test("tags are short", property(fromJsonSchema({ type: "array", items: { type: "string" } }), (tags) => {
  assert.ok(tags.length < 2, "too many tags"); // @mark:tags
}));
