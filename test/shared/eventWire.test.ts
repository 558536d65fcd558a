// The events' wire format between the extension host and the panel (src/shared/eventWire.ts): what the panel decodes
// is what the engine emitted — exactly, where plain JSON is not — smaller than the objects, and malformed
// input (the panel's is untrusted) decodes to what can be read, never a throw.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { decodeEvents, encodeEvents, posted } from "../../src/shared/eventWire.ts";
import type { EngineEvent } from "../../src/shared/protocol.ts";
import { deserialise } from "../webview/serialise.ts";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../webview/fixtures");
const recorded = (name: string): EngineEvent[] =>
  (
    deserialise(readFileSync(path.join(fixtures, `${name}.json`), "utf8")) as { type: string; events?: EngineEvent[] }[]
  ).flatMap((m) => m.events ?? []);

test("recorded runs decode to the events the engine emitted, in a string a fraction of their JSON", () => {
  for (const name of ["mixed", "passing", "sorted-pair", "lru-machine", "long-string", "schedule-reload"]) {
    const events = recorded(name);
    const wire = encodeEvents(events);
    assert.deepEqual(decodeEvents(wire), events, name);
    assert.ok(
      wire.length < JSON.stringify(events).length,
      `${name}: ${wire.length} vs ${JSON.stringify(events).length}`,
    );
  }
  // A generation batch (mostly test cases): 3× smaller at least.
  const passing = recorded("passing");
  assert.ok(encodeEvents(passing).length * 3 < JSON.stringify(passing).length);
});

test("float choices arrive exactly — NaN, ±Infinity, -0 — and bytes as bytes, where JSON would give null and 0", () => {
  const choice = (type: "float" | "bytes", value: number | Uint8Array) => ({
    type,
    value,
    index: 1,
    forced: false,
    constraints: { min: 0 },
  });
  const event: EngineEvent = {
    type: "test-case",
    id: 0,
    origin: "generate",
    status: "interesting",
    durationMs: 0,
    events: [],
    spans: [{ label: "x", start: 0, end: 5, depth: 0, discarded: false }],
    choices: [
      choice("float", NaN),
      choice("float", Infinity),
      choice("float", -Infinity),
      choice("float", -0),
      choice("float", 0.5),
      choice("bytes", Uint8Array.of(0, 255)),
    ],
  };
  const [back] = decodeEvents(encodeEvents([event])) as (typeof event)[];
  const values = back.choices.map((c) => c.value);
  assert.ok(Number.isNaN(values[0]));
  assert.deepEqual(values.slice(1, 5), [Infinity, -Infinity, -0, 0.5]);
  assert.ok(Object.is(values[3], -0));
  assert.deepEqual(values[5], Uint8Array.of(0, 255));
  // Each batch's constraints are written once, however many choices share them.
  assert.equal(encodeEvents([event]).split('"min"').length - 1, 1);
});

test("a choice's index of Infinity (a long string's, past what a number holds) arrives as Infinity, not 0", () => {
  // Found folding recorded runs through the wire: the target's index sum (the progress chart) fell to a real
  // number where the engine's was ∞, because JSON had written the index as null.
  const event: EngineEvent = {
    type: "test-case",
    id: 0,
    origin: "generate",
    status: "valid",
    durationMs: 0,
    events: [],
    spans: [],
    choices: [{ type: "string", value: "x".repeat(40), index: Infinity, forced: false, constraints: {} }],
  };
  const m = posted({ type: "events", events: [event], dropped: 0 });
  assert.ok(m.type === "events");
  const [back] = decodeEvents(m.wire) as (typeof event)[];
  assert.equal(back.choices[0]!.index, Infinity);
});

test("the host posts events encoded and everything else as it is", () => {
  const start = { type: "run-started", title: "t", file: "f", testPath: ["t"] } as const;
  assert.equal(posted(start), start);
  const m = posted({ type: "events", events: recorded("sorted-pair"), dropped: 3 });
  assert.ok(m.type === "events" && m.wire instanceof Uint8Array && m.dropped === 3 && !("events" in m));
  assert.deepEqual(
    decodeEvents(m.wire),
    decodeEvents(encodeEvents(recorded("sorted-pair"))),
    "the bytes decode as the text does",
  );
});

test("malformed input decodes to what can be read and never throws", () => {
  for (const bad of [undefined, 42, "", "not json", "null", "[]", '{"e": 5}', '{"e": [null, 3, "x", {"no": "type"}]}'])
    assert.deepEqual(decodeEvents(bad), [], String(bad));
  // Bytes that are not UTF-8 or not JSON.
  for (const bad of [new Uint8Array([0xff, 0xfe, 0x00]), new Uint8Array(0), new TextEncoder().encode('{"e": [')])
    assert.deepEqual(decodeEvents(bad), [], String(bad));
  // Unknown type codes, values of the wrong type and missing table entries: those choices and spans are dropped
  // or given a neutral value; the event and its other fields survive.
  const wire = JSON.stringify({
    c: [],
    l: [],
    e: [
      {
        type: "test-case",
        id: 1,
        choices: { $c: [9, 1, 0, 0, 0, 0, "seven", 0, 0, 0, 0, 7, 3, 1, 99, 1, "NaNx", 0, 0, 0] },
        spans: { $s: [5, 0, 1, 0, 0, 0, "a", 1, 0, 0] },
      },
    ],
  });
  const [e] = decodeEvents(wire) as unknown as { id: number; choices: unknown[]; spans: unknown[] }[];
  assert.equal(e.id, 1);
  assert.deepEqual(e.choices, [{ type: "integer", value: 7, index: 3, forced: true, constraints: {} }]);
  assert.deepEqual(e.spans, [{ label: "?", start: 0, end: 1, depth: 0, discarded: false }]);
});
