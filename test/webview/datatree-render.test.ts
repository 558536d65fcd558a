// The DataTree view in real headless Chromium: bundled with esbuild, fed event streams recorded from real runs
// (here, with the engine, and the runner-batched fixtures in test/webview/fixtures), under the webview's CSP,
// in dark and light themes. Screenshots go to test/webview/screenshots/ (not committed). Also measures
// replaying 100,000 recorded test cases, 250 per animation frame.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { chromium, type Browser, type Page } from "playwright-core";
import { assume, check, property, st } from "../../src/engine/index.ts";
import { recordEvents } from "./streams.ts";
import type { EngineEvent, PanelMessage } from "../../src/shared/protocol.ts";
import { deserialise } from "./serialise.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const shots = path.join(here, "screenshots");

const record = recordEvents;
const settings = { database: null, deadline: null } as const;

const THEMES = {
  dark: {
    "--vscode-editor-background": "#1e1e1e",
    "--vscode-foreground": "#cccccc",
    "--vscode-testing-iconPassed": "#73c991",
    "--vscode-testing-iconFailed": "#f14c4c",
    "--vscode-disabledForeground": "rgba(204, 204, 204, 0.5)",
    "--vscode-editorWarning-foreground": "#cca700",
    "--vscode-focusBorder": "#007fd4",
    "--vscode-badge-background": "#616161",
    "--vscode-badge-foreground": "#f8f8f8",
    "--vscode-font-family": "system-ui, sans-serif",
  },
  light: {
    "--vscode-editor-background": "#ffffff",
    "--vscode-foreground": "#616161",
    "--vscode-testing-iconPassed": "#388a34",
    "--vscode-testing-iconFailed": "#f14c4c",
    "--vscode-disabledForeground": "rgba(97, 97, 97, 0.5)",
    "--vscode-editorWarning-foreground": "#bf8803",
    "--vscode-focusBorder": "#0090f1",
    "--vscode-badge-background": "#c4c4c4",
    "--vscode-badge-foreground": "#333333",
    "--vscode-font-family": "system-ui, sans-serif",
  },
} as const;

// The harness: the view and the model, plus helpers the test drives through page.evaluate.
const HARNESS = `
import { createLocalDataTreeView } from ${JSON.stringify(path.join(root, "webview/views/datatree.ts"))};
import { createTreeModel, applyEvents, applyMessage } from ${JSON.stringify(path.join(root, "webview/models/datatree.ts"))};
const violations = [];
document.addEventListener("securitypolicyviolation", (e) => violations.push(e.violatedDirective + " " + e.blockedURI));
let view, model, container, queue = [], frames = [], intervals = [];
window.harness = {
  violations,
  setup(theme, vars, width, height) {
    document.body.className = "vscode-" + theme;
    for (const [k, v] of Object.entries(vars)) document.documentElement.style.setProperty(k, v);
    document.body.style.margin = "0";
    document.body.style.background = "var(--vscode-editor-background)";
    document.body.style.color = "var(--vscode-foreground)";
    container?.remove();
    view?.dispose();
    container = document.createElement("div");
    container.style.width = width + "px";
    container.style.height = height + "px";
    document.body.appendChild(container);
    view = createLocalDataTreeView(container);
    model = createTreeModel();
  },
  load(events, dropped) {
    applyEvents(model, events, dropped ?? 0);
    view.update(model);
  },
  loadMessages(messages) {
    for (const m of messages) model = applyMessage(model, m);
    view.update(model);
  },
  stats() {
    return { cases: model.cases, nodes: model.nodeCount, folded: model.foldedNodes, version: model.version };
  },
  path() {
    return [...document.querySelectorAll(".datatree-path a")].map((a) => a.textContent);
  },
  summary() {
    return document.querySelector(".datatree-summary").textContent;
  },
  // Every label drawn: its box, its font size, and whether it is on the target's path.
  labels() {
    return [...document.querySelectorAll("g.cell text.label, g.cell text.sub")].filter((t) => t.textContent !== "").map((t) => {
      const b = t.getBoundingClientRect();
      const box = t.parentNode.querySelector("rect.box").getBoundingClientRect();
      return { text: t.textContent, x: b.x, y: b.y, w: b.width, h: b.height, fontSize: parseFloat(getComputedStyle(t).fontSize), onTarget: t.parentNode.classList.contains("on-target"), inside: b.x >= box.x - 0.5 && b.right <= box.right + 0.5 && b.y >= box.y - 1 && b.bottom <= box.bottom + 1 };
    });
  },
  // Replay: batches are queued from Node; every animation frame applies one batch and renders.
  enqueue(batches) { queue.push(...batches); },
  heap() {
    if (window.gc) window.gc();
    return performance.memory ? performance.memory.usedJSHeapSize : -1;
  },
  runQueue() {
    return new Promise((resolve) => {
      let last = performance.now();
      const step = (now) => {
        intervals.push(now - last);
        last = now;
        const batch = queue.shift();
        if (batch === undefined) return resolve();
        const t0 = performance.now();
        applyEvents(model, batch, 0);
        view.update(model);
        frames.push(performance.now() - t0);
        requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
    });
  },
  // Chunks of batches come over fetch (page.route), not page.evaluate: DevTools keeps evaluate's arguments
  // alive, which would swamp the heap figures.
  async replay(chunks) {
    const heap = { start: this.heap() };
    for (let i = 0; i < chunks; i++) {
      const batches = await (await fetch("/chunk/" + i)).json();
      queue.push(...batches);
      await this.runQueue();
      if (i === Math.floor(chunks / 2)) heap.middle = this.heap();
    }
    await this.settle();
    heap.end = this.heap();
    return heap;
  },
  timings() { return { frames, intervals }; },
  counts() {
    const q = (sel) => [...document.querySelectorAll(sel)];
    const leaves = {};
    for (const s of ["valid", "invalid", "overrun", "interesting"]) leaves[s] = q("g.cell.node.leaf.status-" + s).length;
    return { nodes: q("g.cell.node").length, rests: q("g.cell.rest text.label").map((t) => t.textContent ?? ""), target: q("g.cell.on-target").length, exhausted: q("g.cell.exhausted").length, leaves };
  },
  targetLeafTitle() {
    return document.querySelector("g.cell.on-target.leaf.status-interesting title")?.textContent ?? "";
  },
  // Click the n-th node of the target's path (0: the node in view).
  clickTarget(n) {
    const g = [...document.querySelectorAll("g.cell.node.on-target")].sort((a, b) => a.getBoundingClientRect().x - b.getBoundingClientRect().x)[n];
    g.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  },
  settle() { return new Promise((r) => setTimeout(r, 250)); },
};
`;

let browser: Browser;
let replayChunks: string[] = [];
let page: Page;
let tmp: string;

before(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), "datatree-"));
  const entry = path.join(tmp, "entry.ts");
  writeFileSync(entry, HARNESS);
  const out = await build({
    entryPoints: [entry],
    bundle: true,
    format: "iife",
    write: false,
    target: "es2022",
    nodePaths: [path.join(root, "node_modules")],
    logLevel: "silent",
  });
  const script = out.outputFiles[0]!.text;
  const html = `<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'self'; script-src 'nonce-t3st'; connect-src 'self'">
</head><body><script nonce="t3st">${script.replace(/<\/script/g, "<\\/script")}</script></body></html>`;
  writeFileSync(path.join(tmp, "index.html"), html);
  // The page is served from a routed origin, so the replay can fetch its chunks (see harness.replay).
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--enable-precise-memory-info",
      "--js-flags=--expose-gc",
    ],
  });
  page = await browser.newPage({ viewport: { width: 1000, height: 640 } });
  page.on("pageerror", (e) => console.error("page error:", e));
  await page.route("https://datatree.test/**", (route) => {
    const url = new URL(route.request().url());
    const chunk = /^\/chunk\/(\d+)$/.exec(url.pathname);
    if (chunk !== null)
      return route.fulfill({ contentType: "application/json", body: replayChunks[Number(chunk[1])] ?? "[]" });
    return route.fulfill({ contentType: "text/html", body: html });
  });
  await page.goto("https://datatree.test/index.html");
  await page.waitForFunction(() => "harness" in globalThis);
  mkdirSync(shots, { recursive: true });
});

after(async () => {
  await browser?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

type Harness = Record<string, (...x: unknown[]) => unknown>;
async function call<T>(fn: string, ...args: unknown[]): Promise<T> {
  return page.evaluate(
    ([f, a]) => (globalThis as unknown as { harness: Harness }).harness[f as string]!(...(a as unknown[])),
    [fn, args] as const,
  ) as Promise<T>;
}
async function setup(theme: keyof typeof THEMES, width = 1000, height = 640): Promise<void> {
  await call("setup", theme, THEMES[theme], width, height);
}
async function counts(): Promise<{
  nodes: number;
  rests: string[];
  target: number;
  exhausted: number;
  leaves: Record<string, number>;
}> {
  return call("counts");
}
interface Label {
  text: string;
  x: number;
  y: number;
  w: number;
  h: number;
  fontSize: number;
  onTarget: boolean;
  inside: boolean;
}
/** Labels a person can read: none overlaps another, each inside its rectangle, at the panel's font size. */
async function assertLegible(what: string): Promise<Label[]> {
  const labels = await call<Label[]>("labels");
  for (const l of labels) {
    assert.ok(l.fontSize >= 10, `${what}: ${l.text} at ${l.fontSize}px`);
    assert.ok(l.inside, `${what}: ${JSON.stringify(l.text)} spills out of its rectangle`);
  }
  for (let i = 0; i < labels.length; i++)
    for (let j = i + 1; j < labels.length; j++) {
      const a = labels[i]!;
      const b = labels[j]!;
      const overlap = a.x < b.x + b.w - 0.5 && b.x < a.x + a.w - 0.5 && a.y < b.y + b.h - 0.5 && b.y < a.y + a.h - 0.5;
      assert.ok(!overlap, `${what}: ${JSON.stringify(a.text)} overlaps ${JSON.stringify(b.text)}`);
    }
  return labels;
}

test("three booleans: 15 nodes, 8 valid leaves, all exhausted; dark and light", async () => {
  const events = record((onEvent) =>
    check(
      property(st.booleans(), st.booleans(), st.booleans(), () => {}),
      { ...settings, seed: 1, onEvent },
    ),
  );
  for (const theme of ["dark", "light"] as const) {
    await setup(theme, 700, 420);
    await call("load", events);
    await call("settle");
    const c = await counts();
    assert.equal(c.nodes, 15);
    assert.equal(c.leaves.valid, 8);
    assert.equal(c.exhausted, 15);
    const labels = await assertLegible("booleans");
    assert.equal(labels.filter((l) => l.text === "true" || l.text === "false").length, 14, "every choice labelled");
    await page.screenshot({
      path: path.join(shots, `datatree-booleans-${theme}.png`),
      clip: { x: 0, y: 0, width: 700, height: 420 },
    });
  }
});

test("a failing list property after shrinking: the target path is highlighted and zoom/keys move the view", async () => {
  const events = record((onEvent) =>
    check(
      property(st.lists(st.integers({ min: -50, max: 50 })), (xs) => {
        if (xs.length >= 2 && xs[0]! > xs[1]!) throw new Error("unsorted");
      }),
      { ...settings, seed: 7, onEvent },
    ),
  );
  for (const theme of ["dark", "light"] as const) {
    await setup(theme);
    await call("load", events);
    await call("settle");
    const c = await counts();
    assert.ok(c.nodes > 5 && c.nodes <= 400, `${c.nodes} nodes`);
    assert.ok(c.target >= 3, `${c.target} nodes on the target path`);
    assert.ok(c.leaves.interesting >= 1);
    assert.match(await call<string>("targetLeafTitle"), /index \d+/);
    const labels = await assertLegible(`shrunk, ${theme}`);
    assert.ok(labels.filter((l) => l.onTarget).length >= c.target, "the target's path is labelled");
    await page.screenshot({ path: path.join(shots, `datatree-shrunk-${theme}.png`) });
  }
  // Zoom is focus: clicking a node of the path shows its subtree in the whole view, the path above says where.
  assert.deepEqual(await call<string[]>("path"), ["all cases"]);
  await call("clickTarget", 1);
  await call("settle");
  const path1 = await call<string[]>("path");
  assert.equal(path1.length, 2);
  await assertLegible("zoomed in");
  // Escape goes up one level; "0" back to the whole tree.
  await call("clickTarget", 1);
  await call("settle");
  assert.equal((await call<string[]>("path")).length, 3);
  await page.focus("svg.datatree-svg");
  await page.keyboard.press("Escape");
  await call("settle");
  assert.deepEqual(await call<string[]>("path"), path1);
  await page.keyboard.press("0");
  await call("settle");
  assert.deepEqual(await call<string[]>("path"), ["all cases"]);
});

// Seen on real runs: a tree of a few hundred cases drawn as a 15 px sliver. The icicle fills the view at any size;
// measured here on 10,000 cases, at the panel's widths.
test("10,000 cases: the tree fills the view, its labels are legible (none overlapping, none cut off, 10 px or more), the target's path labelled", async () => {
  const events = record((onEvent) =>
    check(
      property(st.lists(st.integers({ min: 0, max: 20 }), { maxSize: 8 }), st.booleans(), (xs, b) => {
        assume(!(b && xs.length > 6));
        // Rare: seed 16 first meets it after about 14,000 cases (seed 7 did, before the tree steered later).
        if (xs.length >= 4 && xs[0]! === 17 && xs[1]! === 3 && xs[3]! > 10) throw new Error("rare");
      }),
      { ...settings, seed: 16, maxExamples: 30_000, onEvent },
    ),
  );
  const cases = events.filter((e) => e.type === "test-case").length;
  assert.ok(cases >= 10_000, `${cases} cases`);
  for (const [theme, width] of [
    ["dark", 400],
    ["light", 900],
  ] as const) {
    await setup(theme, width, 320);
    for (let i = 0; i < events.length; i += 500) await call("load", events.slice(i, i + 500));
    await call("settle");
    await page.screenshot({
      path: path.join(shots, `datatree-10k-${theme}-${width}.png`),
      clip: { x: 0, y: 0, width, height: 320 },
    });
    const c = await counts();
    const labels = await assertLegible(`10k at ${width} px`);
    // How many depends on the run's tree (11 or 12 here); a tree drawn as a sliver shows two or three.
    assert.ok(labels.length >= 10, `${labels.length} labels at ${width} px`);
    assert.ok(
      c.target >= 2 && labels.filter((l) => l.onTarget).length >= c.target,
      `target path labelled: ${c.target} nodes, labels ${JSON.stringify(labels.filter((l) => l.onTarget).map((l) => l.text))}`,
    );
    // The rectangles fill the drawing: the root is the whole height.
    const root = (await page.evaluate(
      `(() => { const r = document.querySelector("g.cell.node rect.box").getBoundingClientRect(); const s = document.querySelector("svg.datatree-svg").getBoundingClientRect(); return [r.height, s.height]; })()`,
    )) as [number, number];
    assert.ok(Math.abs(root[0] - root[1]) < 2, `root ${root[0]} px of ${root[1]} px`);
    // The header counts what the statistics count: the engine's DataTree nodes.
    const engineNodes = events.filter((e) => e.type === "tree").at(-1);
    assert.ok(engineNodes?.type === "tree");
    assert.match(
      await call<string>("summary"),
      new RegExp(`^${cases} runs · DataTree ${engineNodes.totalNodes} nodes`),
    );
    await page.screenshot({
      path: path.join(shots, `datatree-10k-${theme}-${width}.png`),
      clip: { x: 0, y: 0, width, height: 320 },
    });
  }
});

test("the runner-batched fixtures (test/webview/fixtures) render through applyMessage", async () => {
  for (const name of ["sorted-pair", "mixed", "passing"]) {
    const file = path.join(here, "fixtures", `${name}.json`);
    if (!existsSync(file)) continue;
    const messages = deserialise(readFileSync(file, "utf8")) as PanelMessage[];
    await setup("dark", 800, 480);
    await call("loadMessages", messages);
    await call("settle");
    const c = await counts();
    assert.ok(c.nodes > 1 && c.nodes <= 400, `${name}: ${c.nodes} nodes`);
    await assertLegible(name);
    await page.screenshot({
      path: path.join(shots, `datatree-fixture-${name}.png`),
      clip: { x: 0, y: 0, width: 800, height: 480 },
    });
  }
});

// A benchmark, not a test (speed is measured, never asserted): `npm run bench:panel-tree` runs it and prints
// the frame times and heap; in the ordinary suite it is skipped.
const BENCH = process.env.SHRINKSCOPE_PANEL_BENCH === "1";

test(
  "replaying 100,000 recorded test cases, 250 per frame: frame time and memory",
  { skip: !BENCH && "benchmark: npm run bench:panel-tree" },
  async () => {
    const events = record((onEvent) =>
      check(
        property(st.lists(st.integers({ min: 0, max: 20 }), { maxSize: 8 }), st.booleans(), (xs, b) => {
          assume(!(b && xs.length > 6));
        }),
        { ...settings, seed: 5, maxExamples: 100_000, onEvent },
      ),
    );
    // Batches of 250 test cases, each with the tree events that follow them.
    const batches: EngineEvent[][] = [];
    let batch: EngineEvent[] = [];
    let cases = 0;
    for (const e of events) {
      if (e.type === "test-case") {
        if (cases === 100_000) break;
        if (cases > 0 && cases % 250 === 0) (batches.push(batch), (batch = []));
        cases++;
      }
      batch.push(e);
    }
    batches.push(batch);
    assert.equal(cases, 100_000);

    await setup("dark");
    const chunk = 20; // batches per fetch: the page never holds the whole recording
    replayChunks = [];
    for (let i = 0; i < batches.length; i += chunk) replayChunks.push(JSON.stringify(batches.slice(i, i + chunk)));
    const heap = await call<{ start: number; middle: number; end: number }>("replay", replayChunks.length);
    const stats = await call<{ cases: number; nodes: number; folded: number }>("stats");
    const { frames, intervals } = await call<{ frames: number[]; intervals: number[] }>("timings");
    const pct = (xs: number[], p: number) =>
      [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
    const mb = (x: number) => `${(x / 1048576).toFixed(1)} MB`;
    const report = {
      cases: stats.cases,
      frames: frames.length,
      workP50: pct(frames, 50).toFixed(2),
      workP95: pct(frames, 95).toFixed(2),
      workMax: Math.max(...frames).toFixed(2),
      intervalP50: pct(intervals.slice(1), 50).toFixed(2),
      intervalP95: pct(intervals.slice(1), 95).toFixed(2),
      storedNodes: stats.nodes,
      foldedNodes: stats.folded,
      gcExposed: await page.evaluate(() => typeof (globalThis as unknown as { gc?: unknown }).gc === "function"),
      heap: { start: mb(heap.start!), middle: mb(heap.middle!), end: mb(heap.end!) },
    };
    console.log(`datatree replay: ${JSON.stringify(report)}`);
    writeFileSync(path.join(shots, "datatree-replay.json"), JSON.stringify(report, null, 2));
    await page.screenshot({ path: path.join(shots, "datatree-replay-100k.png") });
    assert.equal(stats.cases, 100_000);
    assert.ok(stats.nodes <= 5000);
    const c = await counts();
    // A fold's label is its count ("+3445"), or nothing where the fold is too short to hold a line of text.
    const labelled = c.rests.filter((a) => a !== "");
    assert.ok(
      c.nodes <= 400 && labelled.length > 0 && labelled.every((a) => /^\+\d+…?$|^\+…$|^…$/.test(a)),
      `fold labels: ${JSON.stringify(c.rests.slice(0, 20))}`,
    );
    // The bars (printed above, not asserted): p95 frame work under 16 ms; heap at the end about the middle's.
  },
);

test("no CSP violations: styles went through the CSSOM only", async () => {
  assert.deepEqual(
    await page.evaluate(() => (globalThis as unknown as { harness: { violations: string[] } }).harness.violations),
    [],
  );
});
