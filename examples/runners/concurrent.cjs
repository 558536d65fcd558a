// Shared by the four example files: a property run that must see only its own test cases while other runs
// interleave with it at every await (test.concurrent, node:test's concurrency, Promise.all). Each example passes
// the shrinkscope module it imported, so the ESM and CommonJS builds are both exercised.
const assert = require("node:assert/strict");

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Names of the runs in progress: each run records whether another one ran while it did. */
const running = new Set();

/**
 * Runs a property that labels its events, notes and data() draws with `name` and fails when its two numbers
 * add up to `limit`; checks the failure reports only its own labels, shrunk to exactly `limit`, and that
 * another run was in progress at the same time (otherwise the test would prove nothing).
 */
async function checkOwnCases({ property, check, st, event, note }, name, limit) {
  let overlapped = false;
  running.add(name);
  const prop = property(st.integers({ min: 0, max: 100 }), st.data(), async (n, data) => {
    event(name);
    await tick();
    if (running.size > 1) overlapped = true;
    note(`${name}:${n}`);
    await tick();
    const m = data.draw(st.integers({ min: 0, max: 100 }), name);
    await tick();
    event(`${name}-after`);
    if (n + m >= limit) throw new Error(`${name} failed`);
  });
  let failure;
  try {
    await check(prop, { database: null, deadline: null, seed: limit });
  } catch (e) {
    failure = e;
  } finally {
    running.delete(name);
  }
  assert.equal(failure?.name, "PropertyFailure", `expected a PropertyFailure, got ${failure}`);
  const notes = [...failure.message.matchAll(/^ {2}note: (.*)$/gm)].map((m) => m[1]);
  assert.ok(
    notes.length > 0 && notes.every((x) => x.startsWith(`${name}:`)),
    `${name} reported notes ${JSON.stringify(notes)}`,
  );
  assert.deepEqual(
    [...failure.message.matchAll(/^ {2}draw \d+ \((.*)\): /gm)].map((m) => m[1]),
    [name],
  );
  assert.deepEqual(Object.keys(failure.statistics.events).sort(), [name, `${name}-after`].sort());
  const drawn = Number(/^ {2}draw 1 \(.*\): (\d+)$/m.exec(failure.message)?.[1]);
  assert.equal(failure.args[0] + drawn, limit, failure.message);
  assert.ok(
    overlapped,
    `${name} never ran while another run was in progress: the runner did not run them concurrently`,
  );
}

module.exports = { checkOwnCases };
