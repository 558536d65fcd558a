// st.nullable and st.optional: the strategy laws (laws.ts); the absence is the simplest, a value that matters
// is kept and shrunk.
import { test } from "node:test";
import assert from "node:assert/strict";
import { find, st } from "../../../src/engine/index.ts";
import { strategyLaws } from "./laws.ts";

const QUIET = { database: null, deadline: null, seed: 1 } as const;

strategyLaws({
  name: "st.nullable(st.integers())",
  strategy: st.nullable(st.integers()),
  valid: (v) => v === null || Number.isSafeInteger(v) || `neither null nor an integer: ${v}`,
  simplest: null,
  boundaries: { null: (v) => v === null, "an integer": (v) => v !== null },
  badOptions: [[() => st.nullable(undefined as never), /^st\.nullable: strategy must be a strategy, got undefined/]],
});

strategyLaws({
  name: "st.optional(st.text())",
  strategy: st.optional(st.text()),
  valid: (v) => v === undefined || typeof v === "string" || "neither undefined nor a string",
  simplest: undefined,
  boundaries: { undefined: (v) => v === undefined, "a string": (v) => typeof v === "string" },
  badOptions: [[() => st.optional({} as never), /^st\.optional: strategy must be a strategy, got an object/]],
});

test("a value the failure needs is kept and shrunk; the types are T | null and T | undefined", () => {
  const n: number | null = find(st.nullable(st.integers()), (v) => v !== null && v > 10, QUIET);
  assert.equal(n, 11);
  const s: string | undefined = find(st.optional(st.text()), (v) => v !== undefined, QUIET);
  assert.equal(s, "");
});
