import { readFileSync } from "node:fs";
import { posted } from "../src/shared/eventWire.ts";
import { createFold } from "../webview/fold.ts";
const revive = (t: string) => JSON.parse(t, (_k, v) => {
  if (v && typeof v === "object" && !Array.isArray(v)) { const keys = Object.keys(v);
    if (keys.length === 1 && keys[0] === "$num") return Number(v.$num);
    if (keys.length === 1 && keys[0] === "$bytes") return Uint8Array.from(v.$bytes); }
  return v; });
const fx = (n: string) => readFileSync(`test/webview/fixtures/${n}.json`, "utf8");
const evs = (ms: any[]) => ms.flatMap((m) => (m.type === "events" ? m.events : []));
const passing = evs(revive(fx("passing"))); const mixedMs = revive(fx("mixed")); const mixed = evs(mixedMs);
const gen = passing.filter((e: any) => e.type === "test-case" || e.type === "tree");
const shrinkAt = mixed.findIndex((e: any) => e.type === "phase" && e.phase === "shrink");
const shrink = mixed.slice(shrinkAt + 1, mixed.findIndex((e: any) => e.type === "phase" && e.phase === "final"));
const head = mixed.slice(0, shrinkAt).filter((e: any) => e.type === "run-start");
const result = mixed.find((e: any) => e.type === "result"); const finished = mixedMs[mixedMs.length - 1];
const CASES = 100000; const events: any[] = [...head, { type: "phase", phase: "generate" }];
let id = 0, cases = 0, i = 0;
for (; cases < CASES * 0.6; i++) { const e = gen[i % gen.length]; if (e.type === "test-case") { cases++; events.push({ ...e, id: id++ }); } else events.push(e); }
events.push({ type: "phase", phase: "shrink" });
for (i = 0; cases < CASES; i++) { const e = shrink[i % shrink.length]; if (e.type === "test-case") { cases++; events.push({ ...e, id: id++ }); } else events.push(e); }
events.push({ type: "phase", phase: "final" }, { ...result, statistics: { ...result.statistics, examples: cases } });
const messages: any[] = [{ type: "run-started", title: "replay", file: "/w/t.ts", testPath: ["replay"] }];
for (let k = 0; k < events.length; k += 250) messages.push({ type: "events", events: events.slice(k, k + 250), dropped: 0 });
messages.push(finished);
const wire = messages.map((m) => structuredClone(posted(m)));
let t = 0; const time = { now: () => t, after: (_fn: () => void, _ms: number) => {} };
let patches = 0, patchMs = 0;
const fold = createFold((out) => { const a = performance.now(); structuredClone(out); patchMs += performance.now() - a; patches++; }, time);
fold({ type: "init", saved: undefined });
fold({ type: "tree", params: { width: 900, height: 400, chosen: undefined, maxVisible: 200 } });
const t0 = performance.now();
for (const m of wire) { t += 16.7; fold({ type: "message", data: m }); fold({ type: "pull" }); }
const total = performance.now() - t0;
console.log(`messages ${wire.length}, total ${total.toFixed(0)} ms (${(total / wire.length).toFixed(2)} ms/msg), patches ${patches}, patch clone ${patchMs.toFixed(0)} ms`);
import { decodeEvents } from "../src/shared/eventWire.ts";
{ const t1 = performance.now(); let n = 0; for (const m of wire) if (m.type === "events") n += decodeEvents(m.wire).length; const d = performance.now() - t1; console.log(`decode only: ${d.toFixed(0)} ms (${(d / wire.length).toFixed(2)} ms/msg), ${n} events`); 
  const t2 = performance.now(); for (const m of wire) if (m.type === "events") JSON.parse(new TextDecoder().decode(m.wire)); const d2 = performance.now() - t2; console.log(`JSON.parse only: ${d2.toFixed(0)} ms`); 
  console.log("bytes/msg", (wire.reduce((a: number, m: any) => a + (m.wire?.length ?? 0), 0) / wire.length).toFixed(0)); }
