// Replays 100,000 test cases recorded from real runs into the panel in headless Chromium and measures
// frame time and memory. Run: node bench/panel-replay.mjs [--load] [--floor] [--cases N] [--per-frame M] [--batch B]
//
// The stream: the recorded runs in test/webview/fixtures (write them with test/webview/record.ts) — the
// generation phase of `passing` repeated with fresh ids for 60% of the cases, then the shrink phase of
// `mixed` (cases, candidates, new targets, passes) repeated for the rest, then the result — in messages of
// B events (default 250, like the runner's batches), M messages posted per animation frame (default 1:
// 15,000 events a second, three times the most the runner sends; try --per-frame 4). Each batch is posted as
// the extension host posts it — its events encoded as UTF-8 bytes (src/shared/eventWire.ts) — with window.postMessage,
// so the structured clone on arrival is in the frames, as in VS Code; the panel hands the bytes to its fold
// worker, which decodes and folds them off the page's thread (webview/fold.ts). --deliver dispatch hands the
// page the posted object without a clone.
//
// Measured, per frame: the panel's work — its message handling since the previous frame, its render
// callback, and the browser's style/layout/paint that follows (until a MessageChannel task queued at the
// end of the render runs). Also the rAF interval, long tasks, and the JS heap after a forced GC at the start,
// the middle and the end. Prints p50/p95/max; the bar is p95 ≤ 12 ms with a core kept busy (--load) and the
// heap not growing.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundleWebview, launch, serve } from "../test/webview/harness.mjs";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const CASES = arg("cases", 100_000);
const PER_FRAME = arg("per-frame", 1);
const BATCH = arg("batch", 250);
const DELIVER = process.argv.includes("--deliver") ? process.argv[process.argv.indexOf("--deliver") + 1] : "post";
// --load: a process keeps one core busy for the whole measurement (a 2-core machine running a test suite).
const LOAD = process.argv.includes("--load");
/** The bar: p95 frame time, with a core kept busy (the panel on a loaded 2-core machine). */
const BAR_MS = 12;
const FLOOR = process.argv.includes("--floor");
const FLOOR_SCRIPT = `
const app = document.getElementById("app") ?? document.body;
const p = app.appendChild(document.createElement("p"));
let n = 0, due = false;
window.addEventListener("message", () => { n++; if (!due) { due = true; requestAnimationFrame(() => { due = false; p.textContent = n + " messages"; }); } });
acquireVsCodeApi().postMessage({ type: "ready" });`;

// The fixtures' tagged JSON (see test/webview/serialise.ts), revived in the page.
const fixture = (name) => readFileSync(path.join(repo, "test/webview/fixtures", `${name}.json`), "utf8");

const INSTRUMENT = `
(() => {
  const frames = []; const handlers = []; const longTasks = []; const raf = [];
  window.__bench = { frames, handlers, longTasks, raf };
  let handlerTime = 0;
  const add = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, fn, opts) {
    if (this === window && type === "message" && typeof fn === "function") {
      const inner = fn;
      fn = function (ev) { const t = performance.now(); try { return inner.call(this, ev); } finally { const d = performance.now() - t; handlerTime += d; handlers.push(d); } };
    }
    return add.call(this, type, fn, opts);
  };
  const channel = new MessageChannel();
  let pending = null;
  channel.port1.onmessage = () => { if (pending) { pending.total = pending.handlers + (performance.now() - pending.start); frames.push(pending); pending = null; } };
  const nativeRaf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (cb) => nativeRaf((ts) => {
    const start = performance.now();
    cb(ts);
    const render = performance.now() - start;
    pending = { start, render, handlers: handlerTime, total: 0 };
    handlerTime = 0;
    channel.port2.postMessage(0);
  });
  let last = 0;
  const tick = (ts) => { if (last) raf.push(ts - last); last = ts; nativeRaf(tick); };
  nativeRaf(tick);
  try { new PerformanceObserver((l) => { for (const e of l.getEntries()) longTasks.push(e.duration); }).observe({ type: "longtask", buffered: true }); } catch {}
})();`;

const DRIVER = `
window.__prepare = (texts, opts) => {
  const revive = (t) => JSON.parse(t, (_k, v) => {
    if (v && typeof v === "object" && !Array.isArray(v)) {
      const keys = Object.keys(v);
      if (keys.length === 1 && keys[0] === "$num") return Number(v.$num);
      if (keys.length === 1 && keys[0] === "$bytes") return Uint8Array.from(v.$bytes);
    }
    return v;
  });
  const evs = (ms) => ms.flatMap((m) => (m.type === "events" ? m.events : []));
  const passing = evs(revive(texts.passing));
  const mixedMs = revive(texts.mixed);
  const mixed = evs(mixedMs);
  const gen = passing.filter((e) => e.type === "test-case" || e.type === "tree");
  const shrinkAt = mixed.findIndex((e) => e.type === "phase" && e.phase === "shrink");
  const shrink = mixed.slice(shrinkAt + 1, mixed.findIndex((e) => e.type === "phase" && e.phase === "final"));
  const head = mixed.slice(0, shrinkAt).filter((e) => e.type === "run-start");
  const result = mixed.find((e) => e.type === "result");
  const finished = mixedMs[mixedMs.length - 1];
  // Fresh ids on shallow copies: the choices arrays are shared, so 100,000 cases cost little page memory.
  const events = [...head, { type: "phase", phase: "generate" }];
  let id = 0, cases = 0, i = 0;
  const genCases = Math.floor(opts.cases * 0.6);
  for (; cases < genCases; i++) { const e = gen[i % gen.length]; if (e.type === "test-case") { cases++; events.push({ ...e, id: id++ }); } else events.push(e); }
  events.push({ type: "phase", phase: "shrink" });
  for (i = 0; cases < opts.cases; i++) { const e = shrink[i % shrink.length]; if (e.type === "test-case") { cases++; events.push({ ...e, id: id++ }); } else events.push(e); }
  events.push({ type: "phase", phase: "final" }, { ...result, statistics: { ...result.statistics, examples: cases } });
  const messages = [{ type: "run-started", title: "replay of recorded cases", file: "/workspace/test/example.test.ts", testPath: ["replay"] }];
  for (let k = 0; k < events.length; k += opts.batch) messages.push({ type: "events", events: events.slice(k, k + opts.batch), dropped: 0 });
  messages.push(finished);
  // What structured clone (postMessage) costs per message, measured apart on a sample: the batch as objects
  // (what VS Code cloned before the events were encoded) and as the host posts it now.
  const n = Math.min(messages.length - 1, 40);
  const cloneMs = (ms) => { const t = performance.now(); for (let k = 1; k <= n; k++) structuredClone(ms[k]); return (performance.now() - t) / n; };
  const postedMessages = messages.map((m) => window.__shrinkscopeHost.posted(m));
  window.__cloneMs = { objects: cloneMs(messages), posted: cloneMs(postedMessages) };
  window.__messages = postedMessages;
  return { cases, messages: messages.length };
};
window.__drive = (opts) => new Promise((resolve) => {
  const messages = window.__messages;
  let i = 0;
  const frame = () => {
    // Posted in the frame (cloned, then handled in a task of its own, both counted in the frame's time) or,
    // with --deliver dispatch, handed over in the frame itself without a clone.
    for (let k = 0; k < opts.perFrame && i < messages.length; k++) {
      if (opts.deliver === "dispatch") window.dispatchEvent(new MessageEvent("message", { data: messages[i++] }));
      else window.postMessage(messages[i++], "*");
    }
    if (!window.__mid && i >= messages.length / 2) window.__mid = { sent: i };
    if (i >= messages.length) { setTimeout(() => resolve({ sent: i }), 700); return; }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
});`;

function pct(xs, p) {
  if (xs.length === 0) return NaN;
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}
const ms = (x) => `${x.toFixed(2)} ms`;
const mb = (x) => `${(x / 1048576).toFixed(1)} MB`;

const busy = LOAD ? spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }) : undefined;
const server = await serve(await bundleWebview());
const browser = await launch();
try {
  const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(INSTRUMENT);
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  // --floor: the same page, stream and measurement with the panel's script replaced by one that writes a
  // counter once per frame in which a message arrived — what the browser alone costs per frame here.
  if (FLOOR)
    await page.route("**/dist/webview.js", (route) =>
      route.fulfill({ contentType: "text/javascript", body: FLOOR_SCRIPT }),
    );
  await page.goto(server.url("dark"));
  await page.evaluate(DRIVER);
  if (process.argv.includes("--detach"))
    await page.evaluate(
      `for (const id of ${JSON.stringify(process.argv[process.argv.indexOf("--detach") + 1].split(","))}) document.getElementById("sec-" + id)?.remove()`,
    );
  const cdp = await context.newCDPSession(page);
  const heap = async () => {
    await cdp.send("HeapProfiler.collectGarbage");
    return (await cdp.send("Runtime.getHeapUsage")).usedSize;
  };
  const texts = { passing: fixture("passing"), mixed: fixture("mixed") };
  const prepared = await page.evaluate(([t, o]) => window.__prepare(t, o), [texts, { cases: CASES, batch: BATCH }]);
  await page.evaluate(
    "window.__bench.raf.length = 0; window.__bench.frames.length = 0; window.__bench.handlers.length = 0; window.__bench.longTasks.length = 0",
  );
  // Heap figures include the prepared stream (held by the page until the end): what changes is the panel's.
  const heapStart = await heap();
  const t0 = Date.now();
  // Frame times come from Chromium's own trace: each "AnimationFrame" span runs from the start of the first
  // task of a frame to the end of its rendering (the Long Animation Frames definition) — the panel's
  // message handling, its render, style, layout and paint. (rAF intervals would only show the 60 Hz vsync.)
  const tracing = process.argv.includes("--trace");
  await browser.startTracing(page, {
    categories: ["devtools.timeline", "toplevel", ...(tracing ? ["disabled-by-default-devtools.timeline"] : [])],
  });
  const running = page.evaluate((o) => window.__drive(o), { perFrame: PER_FRAME, deliver: DELIVER });
  // The middle: sample the heap once the driver reports half the cases sent.
  let heapMid = NaN;
  for (;;) {
    const mid = await page.evaluate("window.__mid");
    if (mid) {
      heapMid = await heap();
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  await running;
  const seconds = (Date.now() - t0) / 1000;
  const trace = JSON.parse((await browser.stopTracing()).toString());
  // Frames: "AnimationFrame" spans (start of the frame's first task to the end of its rendering) on the page's
  // main thread. A span also covers idle gaps, so a frame's time is the main thread's busy time inside it:
  // the top-level tasks that ran in it (message handling, the render callback, style, layout, paint).
  const open = new Map();
  const spans = [];
  let mainThread;
  for (const e of trace.traceEvents) {
    if (e.name !== "AnimationFrame") continue;
    const key = `${e.pid}:${e.id ?? e.id2?.local}`;
    if (e.ph === "b") open.set(key, e);
    else if (e.ph === "e" && open.has(key)) {
      const start = open.get(key);
      open.delete(key);
      spans.push({ pid: e.pid, tid: start.tid, from: start.ts, to: e.ts });
      mainThread = `${e.pid}:${start.tid}`;
    }
  }
  const tasks = trace.traceEvents
    .filter((e) => e.ph === "X" && e.name === "ThreadControllerImpl::RunTask" && `${e.pid}:${e.tid}` === mainThread)
    .sort((x, y) => x.ts - y.ts);
  const animationFrames = [];
  const slow = new Map();
  let slowFrames = 0;
  let t = 0;
  for (const f of spans.sort((x, y) => x.from - y.from)) {
    while (t < tasks.length && tasks[t].ts + tasks[t].dur <= f.from) t++;
    let busy = 0;
    for (let k = t; k < tasks.length && tasks[k].ts < f.to; k++)
      busy += Math.min(f.to, tasks[k].ts + tasks[k].dur) - Math.max(f.from, tasks[k].ts);
    animationFrames.push(busy / 1000);
    if (tracing && busy > BAR_MS * 1000) {
      // What the slow frames spent their time on (main thread).
      for (const e of trace.traceEvents) {
        if (e.ph !== "X" || `${e.pid}:${e.tid}` !== mainThread || e.ts < f.from || e.ts >= f.to) continue;
        slow.set(e.name, (slow.get(e.name) ?? 0) + e.dur / 1000);
      }
      slowFrames++;
    }
  }
  if (tracing)
    console.log(
      `${slowFrames} frames over ${BAR_MS} ms spent:\n${[...slow]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 14)
        .map(([n, d]) => `  ${n} ${d.toFixed(0)} ms`)
        .join("\n")}`,
    );
  if (tracing) {
    // Where the frames' time goes, by trace event (main thread, complete events).
    const by = new Map();
    for (const e of trace.traceEvents) if (e.ph === "X" && e.dur) by.set(e.name, (by.get(e.name) ?? 0) + e.dur / 1000);
    console.log(
      [...by]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 15)
        .map(([n, d]) => `${n} ${d.toFixed(0)} ms`)
        .join("\n"),
    );
  }
  const heapEnd = await heap();
  const b = await page.evaluate("window.__bench");
  const shown = await page.evaluate("document.querySelector('#stats dd')?.textContent");
  const renders = b.frames.map((f) => f.render);
  const clone = await page.evaluate("window.__cloneMs");
  await page.evaluate("window.__messages = undefined");
  const heapAfter = await heap();
  const frameTimes = animationFrames;
  if (FLOOR)
    console.log(
      "--floor: the panel's script replaced by a counter written once per frame (the browser's own cost per frame)",
    );
  console.log(
    `panel replay: ${prepared.cases} test cases in ${prepared.messages} messages of ${BATCH} events, ${PER_FRAME} per frame (${DELIVER === "post" ? "postMessage" : "dispatchEvent"}), ${seconds.toFixed(1)} s (${Math.round(prepared.cases / seconds)} cases/s); the panel shows ${shown} cases`,
  );
  console.log(
    `frame time (main-thread work per animation frame, from Chromium's trace), ${frameTimes.length} frames: p50 ${ms(pct(frameTimes, 50))}  p95 ${ms(pct(frameTimes, 95))}  max ${ms(Math.max(...frameTimes))}`,
  );
  console.log(
    `  rAF callbacks (the panel's render and the driver): p50 ${ms(pct(renders, 50))}  p95 ${ms(pct(renders, 95))}  max ${ms(Math.max(...renders))}; rAF interval p50 ${ms(pct(b.raf, 50))}  p95 ${ms(pct(b.raf, 95))}`,
  );
  console.log(
    `  and the page handling one message (${BATCH} events; folded in the worker): p50 ${ms(pct(b.handlers, 50))}  p95 ${ms(pct(b.handlers, 95))}  max ${ms(Math.max(...b.handlers))}; structured clone per message: ${ms(clone.posted)} as posted (${DELIVER === "post" ? "in the frames" : "not in the frames: --deliver dispatch"}), ${ms(clone.objects)} for the same events as objects`,
  );
  console.log(`  long tasks (>50 ms): ${b.longTasks.length}`);
  console.log(
    `JS heap after GC (stream held by the page): start ${mb(heapStart)}  middle ${mb(heapMid)}  end ${mb(heapEnd)}; end with the stream released: ${mb(heapAfter)}`,
  );
  if (errors.length > 0) console.log(`page errors (${errors.length}): ${[...new Set(errors)].join("; ")}`);
  const ok = pct(frameTimes, 95) <= BAR_MS && heapEnd < heapMid * 1.25 + 4 * 1048576;
  console.log(
    `${ok ? "OK" : "NOT MET"}: p95 frame time ≤ ${BAR_MS} ms${LOAD ? " with a core kept busy" : ""} and the heap bounded`,
  );
  process.exitCode = ok ? 0 : 1;
} finally {
  busy?.kill();
  await browser.close();
  await server.close();
}
