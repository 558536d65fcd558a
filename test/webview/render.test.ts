// The panel rendered in a real headless Chromium (test/webview/harness.mjs: the extension's HTML shape and
// CSP, VS Code theme classes and variables, a fake acquireVsCodeApi), fed the PanelMessages recorded from
// real runs (fixtures/*.json, written by record.ts). Checks what each view drew, that its buttons post the
// right messages, keyboard access, that nothing tripped the CSP, and that state survives a reload; writes a
// screenshot per view to test/webview/screenshots/ for a person to look at.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import type { EngineEvent, PanelMessage } from "../../src/shared/protocol.ts";
import { bundleWebview, frames, launch, post, serve } from "./harness.mjs";
import { deserialise } from "./serialise.ts";

const here = path.dirname(new URL(import.meta.url).pathname);
const shots = path.join(here, "screenshots");
mkdirSync(shots, { recursive: true });

function fixture(name: string): PanelMessage[] {
  return deserialise(readFileSync(path.join(here, "fixtures", `${name}.json`), "utf8")) as PanelMessage[];
}
function eventsOf(ms: readonly PanelMessage[]): EngineEvent[] {
  return ms.flatMap((m) => (m.type === "events" ? m.events : []));
}

let server: Awaited<ReturnType<typeof serve>>;
let browser: Browser;

before(async () => {
  server = await serve(await bundleWebview());
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function open(
  theme: "dark" | "light" | "high-contrast" = "dark",
): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 900, height: 900 }, reducedMotion: "reduce" });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(server.url(theme));
  return { page, errors, close: () => context.close() };
}

/** Until the panel has drawn everything: views share a per-frame budget and are paced while a run streams. */
async function settle(page: Page): Promise<void> {
  await frames(page, 3);
  await page.waitForTimeout(250);
  await frames(page, 10);
}

/**
 * At least `n` elements match `selector`, waiting for the paced views (they draw a few times a second while a
 * run streams, one view a frame after it ends) for up to 10 s. A failed assertion names what it counted:
 * assert.ok without a message parses the compiled test's source to say which call failed, which takes minutes
 * on this file's one-line transform.
 */
async function atLeast(page: Page, selector: string, n: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  let count = await page.locator(selector).count();
  while (count < n && Date.now() < deadline) {
    await page.waitForTimeout(100);
    count = await page.locator(selector).count();
  }
  assert.ok(count >= n, `${count} of ${selector}, expected at least ${n}`);
}

async function snap(page: Page, name: string, selector = "body"): Promise<void> {
  await page
    .locator(selector)
    .first()
    .screenshot({ path: path.join(shots, `${name}.png`) });
}

// Page functions as strings: tsx's transform would wrap functions in a helper the page does not have.
const posted = (page: Page): Promise<{ type: string }[]> => page.evaluate("window.__posted");
const csp = (page: Page): Promise<string[]> => page.evaluate("window.__csp");

test("a failing run: every view drawn from the recorded stream, buttons post their messages", async () => {
  const messages = fixture("sorted-pair");
  const events = eventsOf(messages);
  const { page, errors, close } = await open("dark");
  try {
    assert.deepEqual(await posted(page), [{ type: "ready" }]);
    await post(page, messages);
    await settle(page);

    // Choice sequence: one cell per choice of the last shrink target.
    const target = events.filter((e) => e.type === "shrink-target").pop();
    assert.ok(target?.type === "shrink-target", "the recording has a shrink target");
    assert.equal(await page.locator("#choices .row.target div.cell").count(), target.choices.length);
    assert.ok((await page.locator("#choices .row.target div.span").count()) > 0, "spans are drawn");
    const last = events.filter((e) => e.type === "test-case").pop();
    assert.ok(last?.type === "test-case", "the recording has a test case");
    assert.equal(await page.locator("#choices .row.current div.cell").count(), last.choices.length);

    // Keyboard: tab into the target row, arrows move between cells, the details line follows.
    await page.locator("#choices .row.target .sequence").focus();
    await page.keyboard.press("ArrowRight");
    assert.match((await page.locator("#choices .detail").textContent()) ?? "", /^#1 \w+ .* · index /);

    // Comparison: the verdict line in words, the candidates list of the pass.
    const verdict = await page.locator("#comparison .verdict-line").textContent();
    assert.match(verdict ?? "", /shorter by \d+|position \d+: index/);
    await atLeast(page, "#comparison ol.candidates li", 1);
    const passButtons = page.locator("#comparison .pass-tabs button");
    assert.ok((await passButtons.count()) >= 2, "a button per pass");
    await passButtons.first().click();
    await settle(page);
    assert.equal(await passButtons.first().getAttribute("aria-pressed"), "true");
    // The list is as tall as its rows (up to a limit), not a fixed box: a pass with one candidate had a large empty one.
    for (let i = 0; i < (await passButtons.count()); i++) {
      await passButtons.nth(i).click();
      await settle(page);
      const { list, rows } = await page.locator("#comparison ol.candidates").evaluate((ol) => ({
        list: ol.getBoundingClientRect().height,
        rows: [...ol.children].reduce((h, li) => h + li.getBoundingClientRect().height, 0),
      }));
      assert.ok(list <= Math.min(rows, 220) + 4, `pass ${i}: list ${list}px for rows of ${rows}px`);
    }

    // Progress: both step lines, the pass table, the totals.
    for (const key of ["length", "index"])
      assert.match((await page.locator(`#progress g.panel.${key} path.line`).getAttribute("d")) ?? "", /^M/);
    const passes = new Set(events.flatMap((e) => (e.type === "shrink-pass" ? [e.pass] : [])));
    assert.equal(await page.locator("#progress table.passes tbody tr").count(), passes.size);
    assert.match((await page.locator("#progress p.status").textContent()) ?? "", /shrink calls/);

    // Statistics: the engine's final counts.
    const result = events.find((e) => e.type === "result");
    assert.ok(result?.type === "result", "the recording has a result");
    const figure = (key: string) =>
      page
        .locator(`#stats .figure[title] dd`)
        .nth(["cases", "generated", "shrink", "valid"].indexOf(key))
        .textContent();
    // (This recording counts every case in its examples: it has no shrinkCases.)
    assert.equal(await figure("cases"), String(result.statistics.examples + (result.statistics.shrinkCases ?? 0)));
    assert.equal(await page.locator("#stats .bars.labels .bar").count(), Object.keys(result.statistics.events).length);

    // Result: the repro exactly, buttons and the location post the right messages.
    const finished = messages[messages.length - 1];
    assert.ok(finished.type === "run-finished" && finished.failure, "the recording ends in a failure");
    assert.equal(await page.locator("#result pre.repro").textContent(), finished.failure.repro);
    for (const name of ["Copy", "Convert to test", "Debug"])
      await page.getByRole("button", { name, exact: true }).click();
    await page.locator("#result button.location").click();
    await page.locator("#result button.debug").focus();
    await page.keyboard.press("Enter");
    assert.deepEqual((await posted(page)).slice(1), [
      { type: "copy-repro" },
      { type: "convert-to-test" },
      { type: "debug" },
      { type: "open-location", file: "/workspace/test/example.test.ts", line: 12, column: 7 },
      { type: "debug" },
    ]);
    assert.equal(await page.locator("#result ol.runs li").count(), 1);

    assert.deepEqual(await csp(page), [], "nothing the panel does is blocked by its CSP");
    assert.equal(
      await page.evaluate("document.body.dataset.fold"),
      "worker",
      "the messages were folded in the panel's worker, under its CSP",
    );
    assert.deepEqual(errors, []);
    await page.locator("#choices .row.target .sequence").focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    for (const id of ["result", "choices", "comparison", "progress", "stats"])
      await snap(page, `failing-${id}-dark`, `#sec-${id}`);
    await snap(page, "failing-header-dark", "header.run");
  } finally {
    await close();
  }
});

test("state survives a reload: restored from getState, the host's replay not counted twice", async () => {
  const messages = fixture("sorted-pair");
  const { page, errors, close } = await open("dark");
  try {
    await post(page, messages);
    await settle(page);
    // The panel saves once the run finishes.
    const before = {
      cases: await page.locator("#stats dd").first().textContent(),
      repro: await page.locator("#result pre.repro").textContent(),
      pass: await page.locator("#comparison .pass-tabs button[aria-pressed=true]").textContent(),
    };
    await page.locator("#comparison .pass-tabs button").first().click();
    await page.waitForTimeout(1200); // the throttled save of the UI state
    const chosen = await page.locator("#comparison .pass-tabs button[aria-pressed=true]").textContent();
    await page.reload();
    // Drawn from the saved state before any message arrives.
    assert.equal(await page.locator("#result pre.repro").textContent(), before.repro);
    assert.equal(await page.locator("#stats dd").first().textContent(), before.cases);
    assert.equal(await page.locator("#comparison .pass-tabs button[aria-pressed=true]").textContent(), chosen);
    // The host replays the run on "ready": recognised and skipped.
    await post(page, messages);
    await settle(page);
    assert.equal(await page.locator("#stats dd").first().textContent(), before.cases);
    assert.equal(await page.locator("#result ol.runs li").count(), 1);
    assert.deepEqual(errors, []);
    void before.pass;
  } finally {
    await close();
  }
});

test("where no worker can start, the panel folds on its own thread and shows the same run", async () => {
  const messages = fixture("sorted-pair");
  const withWorker = await open("dark");
  const context = await browser.newContext({ viewport: { width: 900, height: 900 }, reducedMotion: "reduce" });
  try {
    await post(withWorker.page, messages);
    await settle(withWorker.page);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.addInitScript("delete window.Worker");
    await page.goto(server.url("dark"));
    await post(page, messages);
    await settle(page);
    assert.equal(await page.evaluate("document.body.dataset.fold"), "page");
    for (const sel of ["#result pre.repro", "#stats dd", "#choices .row.target .sequence"]) {
      assert.equal(
        (await page.locator(sel).first().getAttribute("aria-label")) ?? (await page.locator(sel).first().textContent()),
        (await withWorker.page.locator(sel).first().getAttribute("aria-label")) ??
          (await withWorker.page.locator(sel).first().textContent()),
        sel,
      );
    }
    assert.ok((await page.locator("#datatree g.cell").count()) > 0, "the DataTree is drawn");
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    await withWorker.close();
  }
});

test("a new run's first frame shows no cell of the last run under its running badge", async () => {
  const messages = fixture("sorted-pair");
  const { page, errors, close } = await open("dark");
  try {
    await post(page, messages);
    await settle(page);
    assert.ok((await page.locator("#choices div.cell").count()) > 0, "the finished run's cells");
    const started = messages.find((m) => m.type === "run-started");
    assert.ok(started, "the run started");
    await post(page, [started]);
    // One frame: views share a per-frame budget, but a new run is drawn whole at once (a run's first case can
    // come a second later; until then the last run's cases must not read as this run's).
    await frames(page, 1);
    assert.equal(await page.locator(".badge.running").count(), 1, "the new run's badge");
    assert.equal(await page.locator("#choices div.cell").count(), 0, "no cell of the last run");
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test("a frame with nothing new writes nothing: scrolling a finished run's panel leaves its DOM untouched", async () => {
  // Regression: every render showed all sections and then hid Steps and Timeline again, so each frame
  // restyled, re-laid-out and repainted the page (found by bench/panel-replay.mjs's trace).
  const messages = fixture("mixed");
  const { page, errors, close } = await open("dark");
  try {
    await post(page, messages);
    await settle(page);
    await page.evaluate(
      "window.__mutations = []; new MutationObserver((ms) => { for (const m of ms) window.__mutations.push(m.type + ' ' + (m.target.id || m.target.nodeName) + ' ' + (m.attributeName || '')); }).observe(document.getElementById('app'), { subtree: true, attributes: true, childList: true, characterData: true })",
    );
    // Scrolling brings other sections into sight, and the panel renders again (views out of sight are drawn
    // when they come near): with nothing new, nothing is written.
    for (const y of [400, 1200, 0]) {
      await page.evaluate(`window.scrollTo(0, ${y})`);
      await frames(page, 3);
    }
    assert.deepEqual(await page.evaluate("window.__mutations"), []);
    assert.equal(await page.locator("#sec-steps").isHidden(), true);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test("an empty sort-key comparison says why for the run's outcome: passed, failed with nothing to shrink, running", async () => {
  const { page, errors, close } = await open("dark");
  const verdict = () => page.locator("#comparison .verdict-line").textContent();
  try {
    await post(page, fixture("passing"));
    await settle(page);
    assert.equal(await verdict(), "No shrink candidates: the property passed, so nothing was shrunk.");
    // A failure replayed already minimal: a failed run whose shrinker proposed nothing.
    const failing = fixture("sorted-pair").map((m) =>
      m.type === "events" ? { ...m, events: m.events.filter((e) => e.type !== "shrink-candidate") } : m,
    );
    await post(
      page,
      failing.filter((m) => m.type !== "run-finished"),
    );
    await settle(page);
    assert.equal(await verdict(), "No shrink candidates yet: the shrinker starts once a failing case is found.");
    await post(
      page,
      failing.filter((m) => m.type === "run-finished"),
    );
    await settle(page);
    assert.match((await page.locator("header .badge").textContent()) ?? "", /failed/);
    assert.equal(
      await verdict(),
      "No shrink candidates: the failing case had nothing simpler to try (it was already minimal).",
    );
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test("a failure replayed from the example database says so and offers Run fresh, which posts its message", async () => {
  const messages = fixture("sorted-pair");
  // The same run, its first failing case replayed from the database (origin "reuse"), saved on a day the result says.
  let first = true;
  const savedAt = new Date(2026, 10, 2, 9, 30).getTime(); // local time, as the panel shows it
  const replayed = messages.map((m) =>
    m.type !== "events"
      ? m
      : {
          ...m,
          events: m.events.map((e) =>
            e.type === "test-case" && e.status === "interesting" && first
              ? ((first = false), { ...e, origin: "reuse" as const })
              : e.type === "result"
                ? { ...e, savedAt }
                : e,
          ),
        },
  );
  const { page, errors, close } = await open("dark");
  try {
    await post(page, messages);
    await settle(page);
    assert.equal(await page.locator("#result .replayed").getAttribute("hidden"), "", "a generated failure: no note");
    await post(page, replayed);
    await settle(page);
    const note = page.locator("#result .replayed");
    assert.equal(await note.getAttribute("hidden"), null);
    assert.match(
      (await note.textContent()) ?? "",
      /^Replayed from the example database \(saved on 2026-11-02 09:30\): the failure an earlier run saved fails again/,
    );
    await note.locator("button.run-fresh").click();
    assert.deepEqual(
      (await posted(page)).filter((m) => m.type === "run-fresh"),
      [{ type: "run-fresh" }],
    );
    await snap(page, "replayed-result", "#sec-result");
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test("the comparison's 'no candidates' sentence goes once candidates arrive", async () => {
  const messages = fixture("sorted-pair");
  const { page, errors, close } = await open("dark");
  try {
    const firstCandidate = messages.findIndex(
      (m) => m.type === "events" && m.events.some((e) => e.type === "shrink-candidate"),
    );
    assert.ok(firstCandidate > 0, "the recording has candidates");
    await post(page, messages.slice(0, firstCandidate));
    await settle(page);
    assert.match((await page.locator("#comparison .verdict-line").textContent()) ?? "", /^No shrink candidates yet/);
    await post(page, messages.slice(firstCandidate));
    await settle(page);
    const head = (await page.locator("#comparison .verdict-line").textContent()) ?? "";
    assert.doesNotMatch(head, /No shrink candidates/, head);
    await atLeast(page, "#comparison .verdict-line span", 1);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test("a run watched live: mid-shrink the target, the current pass and the latest candidate are shown", async () => {
  const messages = fixture("mixed");
  const { page, errors, close } = await open("dark");
  try {
    // Up to the middle of shrinking, sent as VS Code's JSON postMessage would deliver them (NaN → null …).
    const cut =
      messages.findIndex((m, i) => i > 2 && m.type === "events" && m.events.some((e) => e.type === "shrink-target")) +
      3;
    await post(page, JSON.parse(JSON.stringify(messages.slice(0, cut))));
    await settle(page);
    assert.match((await page.locator("header .badge").textContent()) ?? "", /running · shrink/);
    assert.match((await page.locator("#result .headline").textContent()) ?? "", /Running/);
    await atLeast(page, "#choices .row.target div.cell", 1);
    await atLeast(page, "#comparison .aligned div.cell", 1);
    await snap(page, "live-choices-dark", "#sec-choices");
    await snap(page, "live-comparison-dark", "#sec-comparison");
    await snap(page, "live-progress-dark", "#sec-progress");
    // The candidate list, newest first: while the run streams, only the rows its box shows (rows are reused
    // by position, so the order is checked); all of the pass's recent ones once it ends.
    const seqs = async (): Promise<number[]> =>
      (await page.locator("#comparison ol.candidates li .seq").allTextContents()).map((t) => Number(t.slice(1)));
    const live = await seqs();
    assert.ok(live.length >= 1 && live.length <= 12, `${live.length} rows while running`);
    assert.deepEqual(
      live,
      [...live].sort((a, b) => b - a),
    );
    await post(page, JSON.parse(JSON.stringify(messages.slice(cut))));
    await settle(page);
    assert.match((await page.locator("header .badge").textContent()) ?? "", /failed/);
    const done = await seqs();
    assert.ok(done.length > 12, `${done.length} rows once the run ended`);
    assert.deepEqual(
      done,
      [...done].sort((a, b) => b - a),
    );
    assert.deepEqual(await csp(page), []);
    assert.deepEqual(errors, []);
    await snap(page, "mixed-full-dark");
  } finally {
    await close();
  }
});

test("a passing run in the light and high-contrast themes: statistics, no result buttons", async () => {
  for (const theme of ["light", "high-contrast"] as const) {
    const messages = fixture("passing");
    const { page, errors, close } = await open(theme);
    try {
      await post(page, messages);
      await settle(page);
      assert.match((await page.locator("header .badge").textContent()) ?? "", /passed/);
      assert.equal(await page.locator("#result .example").getAttribute("hidden"), "");
      await atLeast(page, "#stats .bars.labels .bar", 3);
      await atLeast(page, "#stats .bars.sizes .bar", 2);
      // The theme's variables reach the drawing.
      const bg = await page.evaluate("getComputedStyle(document.body).backgroundColor");
      assert.equal(bg, theme === "light" ? "rgb(255, 255, 255)" : "rgb(0, 0, 0)");
      assert.deepEqual(await csp(page), []);
      assert.deepEqual(errors, []);
      await snap(page, `passing-stats-${theme}`, "#sec-stats");
      await snap(page, `passing-result-${theme}`, "#sec-result");
    } finally {
      await close();
    }
  }
  const { page, close } = await open("high-contrast");
  try {
    await post(page, fixture("sorted-pair"));
    await settle(page);
    await snap(page, "failing-choices-high-contrast", "#sec-choices");
    await snap(page, "failing-comparison-high-contrast", "#sec-comparison");
  } finally {
    await close();
  }
  const light = await open("light");
  try {
    await post(light.page, fixture("mixed"));
    await settle(light.page);
    await snap(light.page, "mixed-full-light");
  } finally {
    await light.close();
  }
});

/** Calls (rule and initialize steps) of the newest shrink target in these messages. */
function targetCalls(ms: readonly PanelMessage[]): number {
  const t = eventsOf(ms)
    .filter((e) => e.type === "shrink-target")
    .pop();
  const steps = t?.type === "shrink-target" && t.presentation?.kind === "steps" ? t.presentation.steps : [];
  return steps.filter((s) => s.kind === "rule" || s.kind === "initialize").length;
}

test("a machine run: its steps while shrinking, fewer with each target, then the minimal steps with the failing invariant, the Explanation and the state", async () => {
  const messages = fixture("lru-machine");
  const first = messages.findIndex((m) => m.type === "events" && m.events.some((e) => e.type === "shrink-target")) + 1;
  const later = messages.findIndex((_, i) => i >= first && targetCalls(messages.slice(0, i + 1)) <= 12) + 1;
  for (const theme of ["dark", "light"] as const) {
    const { page, errors, close } = await open(theme);
    try {
      const rows = (kind: string) => page.locator(`#steps li.step.${kind}`);
      await post(page, JSON.parse(JSON.stringify(messages.slice(0, first))));
      await settle(page);
      assert.equal(await page.locator("#sec-steps").isVisible(), true);
      assert.equal(await page.locator('nav a[href="#sec-steps"]').isVisible(), true);
      assert.match((await page.locator("#steps .caption").textContent()) ?? "", /^Shrink target/);
      const before = targetCalls(messages.slice(0, first));
      assert.equal(await rows("rule").count(), before);

      // In one message, so the view draws once more, from this target to that one.
      await post(
        page,
        JSON.parse(JSON.stringify([{ type: "events", events: eventsOf(messages.slice(first, later)), dropped: 0 }])),
      );
      await settle(page);
      const after = targetCalls(messages.slice(0, later));
      assert.ok(after < before, `${after} steps after, ${before} before`);
      assert.equal(await rows("rule").count(), after);
      assert.equal(await page.locator("#steps .delta").textContent(), `−${before - after} steps`);
      assert.equal(await rows("failed").count(), 1, "the target's failing invariant is marked too");
      await snap(page, `steps-shrinking-${theme}`, "#sec-steps");

      const rest = messages.slice(later);
      await post(page, JSON.parse(JSON.stringify(rest)));
      await settle(page);
      const finished = rest[rest.length - 1];
      assert.ok(finished.type === "run-finished" && finished.failure, "the recording ends in a failure");
      assert.equal(await page.locator("#steps .caption").textContent(), "Minimal failing steps");
      assert.deepEqual(
        await rows("rule").locator("code").allTextContents(),
        finished.failure.repro.split("\n").slice(1, -1),
      );
      // Each call over its block of cells: flag, rule, key and value for put; flag, rule and key for get.
      assert.deepEqual(
        await rows("rule").evaluateAll((lis) => lis.map((li) => li.querySelectorAll("div.cell").length)),
        [4, 4, 3, 4],
      );
      assert.equal(await rows("failed").count(), 1);
      assert.equal(await rows("failed").locator("code").textContent(), "state.keysMatch();");
      assert.equal(await rows("failed").locator(".fails").isVisible(), true);
      assert.equal(
        await page.locator("#steps .explanation").textContent(),
        "Explanation: assertion failed in invariant keysMatch",
      );
      assert.equal(await page.locator("#steps .machine-state pre").textContent(), 'cache ["1","2"], model ["0","2"]');
      assert.equal(await page.locator("#steps .delta").textContent(), "", "the count belongs to shrinking");
      // Keyboard: a step's cells are reachable and report their true position in the case.
      await rows("rule").nth(1).locator(".sequence").focus();
      await page.keyboard.press("ArrowRight");
      assert.match((await page.locator("#steps .detail").textContent()) ?? "", /^#7 integer 0 /);

      // The other views keep working for a machine: its spans (swarm, step) bracket the target's cells.
      assert.equal(await page.locator("#choices .row.target div.cell").count(), 17);
      await atLeast(page, "#choices .row.target div.span", 5);
      await atLeast(page, "#comparison ol.candidates li", 1);
      await atLeast(page, "#datatree g.node", 1);
      assert.equal(await page.locator("#result pre.repro").getAttribute("aria-label"), "Minimal failing steps");
      assert.deepEqual(await csp(page), []);
      assert.deepEqual(errors, []);
      await snap(page, `steps-minimal-${theme}`, "#sec-steps");
    } finally {
      await close();
    }
  }
});

test("a property run shows no Steps view, and steps from the host are text, never markup", async () => {
  const { page, errors, close } = await open("dark");
  try {
    await post(page, fixture("sorted-pair"));
    await settle(page);
    assert.equal(await page.locator("#sec-steps").isHidden(), true);
    assert.equal(await page.locator('nav a[href="#sec-steps"]').isHidden(), true);
    assert.equal(await page.locator("#steps li").count(), 0);

    const markup = '<img src=x onerror="window.__pwned=1">';
    await post(page, [
      { type: "run-started", title: "hostile", file: "f.ts", testPath: ["hostile"] },
      {
        type: "events",
        dropped: 0,
        events: [
          {
            type: "test-case",
            id: 0,
            origin: "generate",
            choices: [],
            spans: [],
            status: "interesting",
            durationMs: 0,
            events: [],
            presentation: {
              kind: "steps",
              className: markup,
              steps: [
                { kind: "rule", name: "x", args: "", code: markup, start: "0", end: {} },
                { kind: "<b>", name: "y", code: "y" },
              ],
              failedIn: { kind: "rule", name: "x" },
              explanation: markup,
              state: markup,
            },
          },
        ],
      },
    ]);
    await settle(page);
    assert.equal(await page.locator("#sec-steps").isVisible(), true);
    assert.equal(await page.locator("#steps img, #steps b").count(), 0);
    assert.equal(await page.locator("#steps li.step.rule code").textContent(), markup);
    assert.equal(await page.locator("#steps .machine-state pre").textContent(), markup);
    assert.equal(await page.locator("#steps li.step").count(), 2, "the construct line and the one well-formed step");
    assert.equal(await page.evaluate("window.__pwned"), undefined);
    assert.deepEqual(await csp(page), []);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test("a panel opened by a run names it from its first frame, never the idle text, until the run's start arrives", async () => {
  const context = await browser.newContext({ viewport: { width: 600, height: 600 } });
  const page = await context.newPage();
  try {
    const title = `<b>cart</b> & "total"`;
    // Every frame until the run's start: what the panel's text says.
    await page.addInitScript(
      `window.__seen = []; const look = () => { const p = document.querySelector("p.idle"); if (p && !p.hidden) window.__seen.push(p.textContent + " | " + document.querySelector("header.run")?.textContent); requestAnimationFrame(look); }; requestAnimationFrame(look);`,
    );
    await page.goto(server.url("dark", title));
    await frames(page, 3);
    assert.equal(await page.locator("p.idle").textContent(), `Starting ${title}…`);
    assert.equal(await page.locator("p.idle b").count(), 0);
    await post(page, [{ type: "run-started", title: "cart", file: "f.ts", testPath: ["cart"] }]);
    await frames(page, 3);
    assert.equal(await page.locator("p.idle").isHidden(), true);
    const seen: string[] = await page.evaluate("window.__seen");
    // (the header, once drawn, names the run and says it is starting: never "idle")
    assert.ok(
      seen.length > 0 &&
        seen.every((t) => t === `Starting ${title}… | ` || t === `Starting ${title}… | ${title}running · starting`),
      JSON.stringify([...new Set(seen)]),
    );
    assert.match((await page.locator("header.run").textContent()) ?? "", /cart.*running/);
  } finally {
    await context.close();
  }
});

test("the size histogram fits a narrow (310 px) panel: every column, its count and its range inside the view, readable", async () => {
  const context = await browser.newContext({ viewport: { width: 310, height: 900 }, reducedMotion: "reduce" });
  const page = await context.newPage();
  try {
    await page.goto(server.url("light"));
    // Thousands of generated cases in nine size bins (0, 1, 2–3, …, 128+ choices): 4–5 digit counts.
    const events: unknown[] = [];
    let id = 0;
    for (const [size, n] of [
      [0, 40],
      [1, 300],
      [2, 900],
      [5, 3000],
      [9, 4000],
      [20, 2900],
      [40, 800],
      [100, 120],
      [130, 30],
    ]) {
      const choices = Array.from({ length: size }, () => ({
        type: "integer",
        value: 1,
        index: 1,
        forced: false,
        constraints: {},
      }));
      for (let k = 0; k < n; k++)
        events.push({
          type: "test-case",
          id: id++,
          origin: "generate",
          choices,
          spans: [],
          status: "valid",
          durationMs: 0,
          events: [],
        });
    }
    const batches = [];
    for (let k = 0; k < events.length; k += 2000)
      batches.push({ type: "events", dropped: 0, events: events.slice(k, k + 2000) });
    await post(page, [
      { type: "run-started", title: "sizes", file: "f.ts", testPath: ["sizes"] },
      ...batches,
      { type: "run-finished", outcome: "passed" },
    ]);
    await settle(page);
    const view = await page.locator("#stats").evaluate((v) => v.getBoundingClientRect().right);
    const cols = await page.locator("#stats .bars.sizes .bar").evaluateAll((bars) =>
      bars.map((b) => ({
        right: b.getBoundingClientRect().right,
        count: b.querySelector(".count")!.getBoundingClientRect(),
        text: b.querySelector(".count")!.textContent,
        clipped: b.querySelector(".count")!.scrollWidth > b.querySelector(".count")!.clientWidth + 1,
        name: b.querySelector(".name")!.textContent,
        nameCut:
          b.querySelector(".name")!.scrollWidth > b.querySelector(".name")!.clientWidth + 1 ||
          b.querySelector(".name")!.scrollHeight > b.querySelector(".name")!.clientHeight + 1 ||
          b.querySelector(".name")!.getBoundingClientRect().right > b.getBoundingClientRect().right + 0.5 ||
          b.querySelector(".name")!.getBoundingClientRect().left < b.getBoundingClientRect().left - 0.5,
      })),
    );
    assert.equal(cols.length, 9);
    for (const c of cols) {
      assert.ok(c.right <= view + 0.5, `column ${c.text} ends at ${c.right}, the view at ${view}`);
      assert.ok(c.count.right <= view + 0.5 && !c.clipped, `count ${c.text} is cut`);
      // (found in a 310 px screenshot: "128–25…")
      assert.ok(!c.nameCut, `the bin's label ${c.name} is cut`);
    }
    // The tallest column is the biggest bin's, whatever its count's lines.
    const heights = await page
      .locator("#stats .bars.sizes .bar .fill")
      .evaluateAll((fs) => fs.map((f) => f.getBoundingClientRect().height));
    const track = await page
      .locator("#stats .bars.sizes .bar .track")
      .evaluateAll((ts) => ts.map((t) => Math.round(t.getBoundingClientRect().height)));
    assert.equal(new Set(track).size, 1, `tracks of one height: ${track.join(", ")}`);
    assert.equal(heights.indexOf(Math.max(...heights)), 4);
    await snap(page, "stats-narrow-light", "#sec-stats");
  } finally {
    await context.close();
  }
});

test("float choices show as drawn — NaN, ±Infinity, -0 — and bytes as bytes, through the host's wire format", async () => {
  const { page, errors, close } = await open("dark");
  try {
    const choice = (type: string, value: number | Uint8Array) => ({
      type,
      value,
      index: 1,
      forced: false,
      constraints: {},
    });
    await post(page, [
      { type: "run-started", title: "floats", file: "f.ts", testPath: ["floats"] },
      {
        type: "events",
        dropped: 0,
        events: [
          {
            type: "test-case",
            id: 0,
            origin: "generate",
            status: "valid",
            durationMs: 0,
            events: [],
            spans: [],
            choices: [
              choice("float", NaN),
              choice("float", -Infinity),
              choice("float", -0),
              choice("bytes", Uint8Array.of(7, 9)),
            ],
          },
        ],
      },
    ]);
    await settle(page);
    const details = await page
      .locator("#choices .row.current div.cell")
      .evaluateAll((cells) => cells.map((c) => c.getAttribute("aria-label") ?? ""));
    assert.equal(details.length, 4);
    for (const [i, shown] of ["NaN", "-Infinity", "-0", "[7, 9]"].entries())
      assert.ok(details[i].includes(` ${shown} `) || details[i].includes(` ${shown}`), `cell ${i}: ${details[i]}`);
    assert.ok(!details.some((d) => d.includes("NaN or ±Infinity")), details.join(" | "));
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test("a schedule failure: the Timeline draws the failing seed's run lane by lane, its deviation beside FIFO, and the trace tail", async () => {
  const messages = fixture("schedule-reload");
  const finished = messages[messages.length - 1];
  assert.ok(
    finished.type === "run-finished" && finished.failure?.schedule !== undefined,
    "the recording ends in a schedule failure",
  );
  const info = finished.failure.schedule;
  for (const theme of ["dark", "light"] as const) {
    const { page, errors, close } = await open(theme);
    try {
      await post(page, messages);
      await settle(page);
      assert.equal(await page.locator("#sec-timeline").isVisible(), true);
      assert.equal(await page.locator('nav a[href="#sec-timeline"]').isVisible(), true);
      assert.equal(await page.locator("#sec-steps").isHidden(), true, "not a machine");
      assert.equal(await page.locator("#timeline .caption").textContent(), `Failing schedule: seed ${info.seed}`);
      assert.deepEqual(await page.locator("#timeline .lane-label").allTextContents(), info.tasks);
      assert.equal(await page.locator("#timeline circle.mark").count(), info.events.length);
      assert.equal(await page.locator("#timeline circle.mark.failed").count(), 1);
      assert.equal(await page.locator("#timeline circle.mark.deviation").count(), 1);
      assert.equal(await page.locator("#timeline g.guide circle.ghost").count(), 1);
      assert.deepEqual(await page.locator("#timeline .band-label").allTextContents(), ["t=0 ms", "t=10 ms", "t=20 ms"]);
      // The schedule beside FIFO: one column per decision, the differing one flagged.
      assert.equal(await page.locator("#timeline div.decision").count(), info.schedule.length);
      assert.deepEqual(
        await page.locator("#timeline div.decision.differs .seed-v").allTextContents(),
        info.schedule.filter((d) => d !== 0).map(String),
      );
      assert.deepEqual(
        await page.locator("#timeline ul.deviations li").allTextContents(),
        info.deviations.map((d) => `decision ${d.decision} at t=${d.t} ms: ran ${d.chosen} before ${d.fifo}`),
      );
      // The trace tail ends on the failure.
      assert.equal(await page.locator("#timeline ol.tail-list li").count(), info.events.length);
      assert.match(
        (await page.locator("#timeline ol.tail-list li.failed").textContent()) ?? "",
        /rejected: AssertionError: a reader saw no config/,
      );

      // Hover and keyboard tell what each event is.
      await page.locator("#timeline circle.mark.deviation").hover();
      assert.match(
        (await page.locator("#timeline .detail").textContent()) ?? "",
        /^#5 · t=0 ms · task 4 \(reload\) · start · decision 1 differs from FIFO/,
      );
      await page.locator("#timeline svg.lanes").focus();
      assert.match((await page.locator("#timeline .detail").textContent()) ?? "", /^#1 · t=0 ms · main · start$/);
      await page.keyboard.press("End");
      assert.match(
        (await page.locator("#timeline .detail").textContent()) ?? "",
        /^#15 · t=20 ms · main · rejected: AssertionError/,
      );
      await page.keyboard.press("ArrowLeft");
      assert.match(
        (await page.locator("#timeline .detail").textContent()) ?? "",
        /^#14 · t=20 ms · task 3 \(reader 2\) · done$/,
      );
      await page.locator("#timeline div.decisions").focus();
      assert.match(
        (await page.locator("#timeline .detail").textContent()) ?? "",
        /^decision 1 at t=0 ms: ran task 4 \(reload\) \(start\) before task 2 \(reader 1\) \(start\)/,
      );

      // The workload's shrink is still the other views': the minimal arguments, the target's cells.
      assert.equal(await page.locator("#result pre.repro").textContent(), "2, 10");
      await atLeast(page, "#choices .row.target div.cell", 1);
      assert.deepEqual(await csp(page), []);
      assert.deepEqual(errors, []);
      // The screenshot with the deviation hovered: its ring, its guide and ghost, and what the detail line says.
      await page.locator("#timeline circle.mark.deviation").hover();
      await snap(page, `timeline-${theme}`, "#sec-timeline");
    } finally {
      await close();
    }
  }
});

test("the Timeline is shown for schedule failures only, and a schedule from the host is text, never markup", async () => {
  const { page, errors, close } = await open("dark");
  try {
    for (const name of ["sorted-pair", "lru-machine"]) {
      await post(page, fixture(name));
      await settle(page);
      assert.equal(await page.locator("#sec-timeline").isHidden(), true, name);
      assert.equal(await page.locator('nav a[href="#sec-timeline"]').isHidden(), true, name);
    }
    // Seed 001: every decision FIFO, said in words.
    await post(page, fixture("schedule-replicate"));
    await settle(page);
    assert.equal(await page.locator("#sec-timeline").isVisible(), true);
    assert.equal(await page.locator("#timeline div.decision.differs").count(), 0);
    assert.equal(await page.locator("#timeline .all-fifo").isVisible(), true);
    assert.equal(await page.locator("#timeline g.guide").count(), 0);

    const markup = '<img src=x onerror="window.__pwned=1">';
    const schedule = {
      seed: 1,
      passedBefore: [0],
      strategy: "random",
      traceHash: markup,
      schedule: [1],
      tasks: ["main", markup],
      events: [
        { t: 0, task: "main", what: `spawn ${markup}` },
        { t: 0, task: markup, what: markup },
        { t: "1", task: "main", what: "dropped" },
      ],
      truncated: 0,
      deviations: [{ decision: 1, t: 0, chosen: `${markup} (${markup})`, fifo: "main (start)" }],
      text: markup,
    };
    await post(page, [
      { type: "run-started", title: "hostile", file: "f.ts", testPath: ["hostile"] },
      {
        type: "run-finished",
        outcome: "failed",
        failure: {
          message: "m",
          repro: "1",
          seed: 1,
          error: { name: "E", message: "m" },
          location: undefined,
          flaky: false,
          presentation: { kind: "arguments", text: "1" },
          schedule,
        },
      },
    ]);
    await settle(page);
    assert.equal(await page.locator("#sec-timeline").isVisible(), true);
    assert.equal(await page.locator("#timeline img, #timeline b").count(), 0);
    assert.deepEqual(await page.locator("#timeline .lane-label").allTextContents(), ["main", markup]);
    assert.equal(await page.locator("#timeline circle.mark").count(), 2, "the malformed event is dropped");
    assert.equal(await page.locator("#timeline circle.mark.deviation").count(), 1);
    assert.equal(await page.locator("#timeline ol.tail-list li .what").last().textContent(), markup);
    assert.equal(await page.evaluate("window.__pwned"), undefined);
    assert.deepEqual(await csp(page), []);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test("a string cell cut to a few characters shows its full value below the rows once selected, and keeps it through hovers", async () => {
  const messages = fixture("long-string");
  const { page, errors, close } = await open("dark");
  try {
    await post(page, messages);
    await settle(page);
    const cell = page.locator("#choices .row.target div.cell.string").first();
    assert.match((await cell.textContent()) ?? "", /…$/, "cut in the row");
    await cell.click();
    await settle(page);
    const detail = page.locator("#choices .detail");
    const full = `"${"0".repeat(29)}"`;
    assert.ok(((await detail.textContent()) ?? "").startsWith(`Selected: #`), (await detail.textContent()) ?? "");
    assert.ok(((await detail.textContent()) ?? "").includes(full), "the full value");
    assert.equal(await cell.getAttribute("class"), "cell string selected");
    // Below the rows, not above them.
    const rowsBottom = (await page.locator("#choices .row.current").boundingBox())!;
    const detailBox = (await detail.boundingBox())!;
    const [rowsEnd, detailTop] = [rowsBottom.y + rowsBottom.height, detailBox.y];
    assert.ok(detailTop >= rowsEnd, `details at ${detailTop}, rows end at ${rowsEnd}`);
    // A hover shows another cell for a moment; leaving the row brings the selection back.
    await page.locator("#choices .row.current div.cell").first().hover();
    assert.doesNotMatch((await detail.textContent()) ?? "", /^Selected/);
    await page.mouse.move(5, 5);
    await page.locator("#choices .row.target .sequence").dispatchEvent("pointerleave");
    assert.ok(((await detail.textContent()) ?? "").includes(full), "the selected cell's full value below the rows");
    // Enter selects the focused cell too.
    await page.locator("#choices .row.current .sequence").focus();
    await page.keyboard.press("Enter");
    assert.match((await detail.textContent()) ?? "", /^Selected: #0 /);
    await snap(page, "string-selected", "#sec-choices");
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
