// React components under explore and simTest, with real React, react-dom, @testing-library/react and jsdom: the
// `act` option makes React finish each step's renders and effects before the next step (without it, a correct
// autocomplete failed on every seed: React renders on real macrotasks the simulation did not wait for), a race
// in a component is still found, and a workload that awaits React's act() itself is not called deadlocked.
import "global-jsdom/register";
import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { check, explore, property, sim, simTest, st } from "../../../src/engine/index.ts";

/** React's few calls this file makes (react is a devDependency without its type package). */
interface ReactCalls {
  createElement(type: unknown, props?: Record<string, unknown> | null, ...children: unknown[]): unknown;
  useState<T>(initial: T): [T, (next: T) => void];
  useEffect(effect: () => void | (() => void), deps: unknown[]): void;
}
const React = createRequire(import.meta.url)("react") as ReactCalls;

/** An element's text (the repository's TypeScript has no DOM library). */
const textOf = (element: unknown) => (element as { textContent: string | null }).textContent;

afterEach(() => {
  cleanup();
});

const FRUIT = ["apple", "apricot", "banana", "blueberry", "cherry"];

/** Shows the suggestions for what is typed; the correct one drops a response to a query typed over since. */
function Autocomplete(props: { search: (q: string) => Promise<string[]>; dropsStale: boolean }) {
  const [query, setQuery] = React.useState("");
  const [results, setResults] = React.useState<string[]>([]);
  React.useEffect(() => {
    let stale = false;
    void props.search(query).then((r) => {
      if (!stale || !props.dropsStale) setResults(r);
    });
    return () => {
      stale = true;
    };
  }, [query]);
  return React.createElement(
    "div",
    null,
    React.createElement("input", {
      "aria-label": "query",
      value: query,
      onChange: (e: { target: { value: string } }) => setQuery(e.target.value),
    }),
    React.createElement(
      "ul",
      null,
      results.map((r) => React.createElement("li", { key: r }, r)),
    ),
  );
}

/** Type `typed` a key at a time while each search answers after a delay the seed picks; then read the list. */
async function typeAndRead(typed: string, dropsStale: boolean): Promise<void> {
  const search = async (q: string) => {
    await sim.sleep(Math.floor(sim.random() * 10), `search "${q}"`);
    return FRUIT.filter((f) => f.startsWith(q));
  };
  render(React.createElement(Autocomplete, { search, dropsStale }));
  const input = screen.getByLabelText("query") as unknown as { value: string };
  for (const c of typed) {
    fireEvent.change(input, { target: { value: input.value + c } });
    await sim.sleep(1);
  }
  await sim.sleep(50);
  const shown = screen.queryAllByRole("listitem").map((li) => textOf(li));
  cleanup();
  assert.deepEqual(
    shown,
    FRUIT.filter((f) => f.startsWith(typed)),
  );
}

test("with act, a correct component passes every seed (it failed all 10 without: renders React left to real macrotasks)", async () => {
  const report = await explore(() => typeAndRead("ap", true), { seeds: 10, act });
  assert.equal(report, null, report?.render());
});

test("with act, a component that shows a stale response fails on a seed whose schedule makes it", async () => {
  const report = await explore(() => typeAndRead("ap", false), { seeds: 20, act });
  assert.ok(report !== null, "the race was not found");
  assert.equal(report.flaky, false, report.render());
  assert.match(report.render(), /AssertionError/);
  assert.match(report.render(), /search ""/, "the trace names the searches");
});

test("simTest takes act too: the property generates what is typed, each schedule explored with React flushed", async () => {
  await check(
    property(
      st.text({ alphabet: "abc", minSize: 1, maxSize: 3 }),
      simTest({ seeds: 3, act }, (typed) => typeAndRead(typed, true)),
      { maxExamples: 10, database: null },
    ),
  );
});

test("under a testing environment that flags updates outside act, a step's updates raise no warning", async () => {
  const g = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
  const was = g.IS_REACT_ACT_ENVIRONMENT;
  g.IS_REACT_ACT_ENVIRONMENT = true;
  const errors: unknown[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => void errors.push(args[0]);
  try {
    const report = await explore(() => typeAndRead("b", true), { seeds: 3, act });
    assert.equal(report, null, report?.render());
  } finally {
    console.error = original;
    g.IS_REACT_ACT_ENVIRONMENT = was;
  }
  assert.deepEqual(errors, []);
  assert.equal(g.IS_REACT_ACT_ENVIRONMENT, was, "the flag is restored");
});

test("a workload that awaits React's act() itself is not a deadlock (it waits on a real setImmediate)", async () => {
  function Counter() {
    const [n, setN] = React.useState(0);
    return React.createElement("button", { onClick: () => setN(n + 1) }, `count ${n}`);
  }
  const report = await explore(
    async () => {
      render(React.createElement(Counter));
      await act(async () => {
        fireEvent.click(screen.getByRole("button"));
      });
      await sim.sleep(1);
      assert.equal(textOf(screen.getByRole("button")), "count 1");
      cleanup();
    },
    { seeds: 5 },
  );
  assert.equal(report, null, report?.render());
});
