// Summarise a V8 .cpuprofile: top functions by self time, with dist/engine.mjs positions mapped back to
// src/engine through the bundle's source map, and the hottest source lines.
//
//   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/throughput.mjs --only shrinkscope
//   node bench/profile-summary.mjs /tmp/prof/CPU.*.cpuprofile [--top 15] [--map dist/engine.mjs.map]
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { TraceMap, originalPositionFor } from "@jridgewell/trace-mapping";

const args = process.argv.slice(2);
let top = 15;
let mapFile = "dist/engine.mjs.map";
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--top") top = Number(args[++i]);
  else if (args[i] === "--map") mapFile = args[++i];
  else files.push(args[i]);
}
if (files.length !== 1) {
  console.error("usage: node bench/profile-summary.mjs PROFILE.cpuprofile [--top N] [--map dist/engine.mjs.map]");
  process.exit(2);
}

const profile = JSON.parse(readFileSync(files[0], "utf8"));
const map = new TraceMap(readFileSync(mapFile, "utf8"));
const bundle = path.basename(mapFile, ".map");

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

function where(url, line, column) {
  if (url.endsWith(bundle)) {
    const o = originalPositionFor(map, { line: line + 1, column: Math.max(column, 0) });
    if (o.source !== null) return { file: o.source.replace(/^(\.\.\/)+/, ""), line: o.line, name: o.name };
  }
  if (url === "") return { file: "(native)", line: 0 };
  const short = url
    .replace(/^file:\/\//, "")
    .replace(/^.*node_modules\//, "node_modules/")
    .replace(process.cwd() + "/", "");
  return { file: short, line: line + 1 };
}

// Per function (callFrame), and per source line from positionTicks where V8 recorded them.
const fns = new Map();
const lines = new Map();
for (const [id, us] of selfUs) {
  const node = byId.get(id);
  const cf = node.callFrame;
  const w = where(cf.url, cf.lineNumber, cf.columnNumber);
  const key = `${cf.functionName || "(anonymous)"}\t${w.file}:${w.line}`;
  fns.set(key, (fns.get(key) ?? 0) + us);
  const ticks = node.positionTicks ?? [];
  const tickSum = ticks.reduce((a, t) => a + t.ticks, 0);
  for (const t of ticks) {
    const lw = where(cf.url, t.line - 1, 0);
    const lkey = `${lw.file}:${lw.line}\t${cf.functionName || "(anonymous)"}`;
    lines.set(lkey, (lines.get(lkey) ?? 0) + (us * t.ticks) / tickSum);
  }
}

const pct = (us) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
console.log(`${files[0]}: ${(total / 1000).toFixed(0)} ms sampled`);
console.log(`\nTop ${top} functions by self time:`);
for (const [key, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  const [name, loc] = key.split("\t");
  console.log(`${pct(us)}  ${name.padEnd(28)} ${loc}`);
}
if (lines.size > 0) {
  console.log(`\nTop ${top} source lines by self time:`);
  for (const [key, us] of [...lines].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    const [loc, name] = key.split("\t");
    console.log(`${pct(us)}  ${loc.padEnd(40)} (${name})`);
  }
}
