// st.records with optional keys: the strategy laws (laws.ts); an absent key is absent (never a key holding
// undefined); the type TypeScript infers; a merge that crashes on an absent optional key shrunk to { id: 0 }.
import { test } from "node:test";
import assert from "node:assert/strict";
import { find, st, toLiteral } from "../../../src/engine/index.ts";
import { strategyLaws } from "./laws.ts";
import { bugRuns } from "./bugScenario.ts";

const QUIET = { database: null, deadline: null, seed: 1 } as const;
const user = st.records({ id: st.integers() }, { optional: { note: st.text(), tags: st.lists(st.text()) } });

strategyLaws({
  name: "st.records({ id }, { optional: { note, tags } })",
  strategy: user,
  valid: (r) => {
    const keys = Object.keys(r);
    if (!keys.includes("id") || !Number.isSafeInteger(r.id)) return "id missing or not an integer";
    if (keys.some((k) => !["id", "note", "tags"].includes(k))) return `an unknown key in ${keys}`;
    if ("note" in r && typeof r.note !== "string") return "note present but not a string (undefined?)";
    if ("tags" in r && !Array.isArray(r.tags)) return "tags present but not an array";
    return true;
  },
  simplest: { id: 0 },
  boundaries: {
    "note absent": (r) => !("note" in r),
    "note present": (r) => "note" in r,
    "both optional keys present": (r) => "note" in r && "tags" in r,
  },
  badOptions: [
    [
      () => st.records({ id: st.integers() }, { optional: { id: st.text() } }),
      /^st\.records: key "id" is in both the shape and optional/,
    ],
    [
      () => st.records({}, { optional: 3 as never }),
      /^st\.records: optional must be an object of strategies, got number 3/,
    ],
    [() => st.records({}, { optional: { a: 1 as never } }), /^st\.records: optional key "a" must be a strategy/],
    [() => st.records({}, { required: {} } as never), /^st\.records: unknown option "required"/],
  ],
});

test("the inferred type marks the optional keys with ?", () => {
  const r: { id: number; note?: string; tags?: string[] } = find(user, (r) => r.note !== undefined, QUIET);
  // @ts-expect-error: note is optional, so it may be undefined
  const note: string = r.note;
  assert.equal(toLiteral({ ...r, note }), '{ id: 0, note: "" }');
});

test("an optional key is either there with a value or not a key at all", () => {
  const r = find(user, (r) => "tags" in r && !("note" in r), QUIET);
  assert.deepStrictEqual(Object.keys(r), ["id", "tags"]);
  assert.equal(toLiteral(r), "{ id: 0, tags: [] }");
});

test("a merge that crashes on an absent optional key: found on at least 18 of 20 seeds, minimal { id: 0 }", () => {
  const label = (r: { id: number; note?: string }) => `${r.id}: ${r.note!.trim()}`;
  const { minimal, foundEarly } = bugRuns(st.records({ id: st.integers() }, { optional: { note: st.text() } }), (r) => {
    try {
      label(r);
      return true;
    } catch {
      return false;
    }
  });
  assert.ok(foundEarly >= 18, `found within 100 examples on ${foundEarly}/20 seeds`);
  assert.deepEqual(
    minimal.map((m) => m?.repro),
    minimal.map(() => "{ id: 0 }"),
  );
});
