// The `st` namespace's types stay in step with the strategies: src/engine/index.ts writes out a type alias for
// every type src/engine/strategies/index.ts exports (st is an object merged with a type-only namespace, so the
// aliases are not made for it), and st's values are exactly the strategies and sample.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as api from "../../src/engine/index.ts";
import * as strategies from "../../src/engine/strategies/index.ts";

const ROOT = path.resolve(__dirname, "..", "..");
const read = (p: string) => fs.readFileSync(path.join(ROOT, p), "utf8");

test("st's namespace has a type alias for every type the strategies export, and st's values are the strategies and sample", () => {
  const exported = [...read("src/engine/strategies/index.ts").matchAll(/^export type \{ ([^}]+) \}/gm)].flatMap((m) =>
    m[1].split(",").map((s) => s.trim()),
  );
  const namespace = read("src/engine/index.ts");
  const body = namespace.slice(namespace.indexOf("export declare namespace st {"));
  const aliased = [...body.matchAll(/^ {2}export type (\w+)/gm)].map((m) => m[1]);
  assert.deepEqual([...aliased].sort(), [...exported, "SampleOptions"].sort());
  assert.deepEqual(Object.keys(api.st).sort(), [...Object.keys(strategies), "sample"].sort());
});
