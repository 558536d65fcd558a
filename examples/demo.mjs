// The demo: a property with a classic bug fails, and you watch Shrinkscope shrink it to a minimal example.
// Run with `npm run demo` (builds first). Pass a seed to replay: `npm run demo -- 1234`.
import { check, property, st } from "shrinkscope";

/** Sorted unique values — with the bug everyone writes once: sort() compares as strings. */
function uniqueSorted(xs) {
  return Array.from(new Set(xs)).sort();
}

const isAscending = (xs) => xs.every((x, i) => i === 0 || xs[i - 1] < x);

const tty = process.stdout.isTTY;
let cases = 0;
let phase = "";
const show = (v) => (v instanceof Uint8Array ? `bytes(${v.length})` : typeof v === "string" ? JSON.stringify(v) : String(v));
const status = () => `  ${phase.padEnd(8)} test cases: ${cases}`;

function onEvent(e) {
  switch (e.type) {
    case "run-start":
      console.log(`Shrinkscope demo — seed ${e.seed}`);
      console.log("Property: uniqueSorted(xs) is strictly ascending, for every list of integers xs\n");
      break;
    case "phase":
      if (tty) process.stdout.write("\r\x1b[K");
      phase = e.phase;
      console.log(`▸ phase: ${e.phase}`);
      break;
    case "test-case":
      cases++;
      if (tty && cases % 5 === 0) process.stdout.write(`\r\x1b[K${status()}`);
      if (e.origin === "generate" && e.status === "interesting") {
        if (tty) process.stdout.write("\r\x1b[K");
        console.log(`  ✗ failing case found after ${cases} test cases: ${e.choices.length} choices [${e.choices.map((c) => show(c.value)).join(", ")}]`);
      }
      break;
    case "shrink-target":
      if (tty) process.stdout.write("\r\x1b[K");
      console.log(`  ↓ ${e.pass.padEnd(17)} ${String(e.choices.length).padStart(3)} choices  [${e.choices.map((c) => show(c.value)).join(", ")}]`);
      break;
    case "result":
      if (tty) process.stdout.write("\r\x1b[K");
      console.log(`\n${e.outcome.toUpperCase()} in ${e.statistics.timeMs} ms: ${e.statistics.examples} test cases, ${e.statistics.shrinkCalls} shrink calls.\n`);
      break;
  }
}

const seed = process.argv[2] !== undefined ? Number(process.argv[2]) : undefined;
try {
  check(
    property(st.lists(st.integers()), (xs) => {
      const out = uniqueSorted(xs);
      if (!isAscending(out)) throw new Error(`not ascending: ${JSON.stringify(out)}`);
    }),
    { onEvent, database: null, ...(seed !== undefined ? { seed } : {}) },
  );
  console.log("The property passed (try another seed).");
} catch (failure) {
  console.log(failure.message);
  process.exitCode = 0;
}
