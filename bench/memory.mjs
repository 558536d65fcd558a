// Memory on long runs (docs/benchmarks.md, "Memory"): the peak resident set size of one run of the list
// property (st.lists(st.integers()), database off) after 10^5, 10^6 and 10^7 examples, each in a fresh process,
// beside fast-check's on the same property; and, since the DataTree keeps less on long runs, that a small
// finite space is still run exactly once and ends as exhausted (three booleans: 8 calls).
//
// Usage: node bench/memory.mjs [--sizes 100000,1000000,10000000]
// The bar: Shrinkscope's peak RSS at 10^7 examples ≤ 256 MB.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const BAR_MB = 256;

async function child(lib, n) {
  let calls = 0;
  const body = (xs) => {
    calls++;
    if (xs.length > 1e9) throw 0;
  };
  const t0 = performance.now();
  if (lib === "fast-check") {
    const { default: fc } = await import("fast-check");
    fc.assert(fc.property(fc.array(fc.integer()), body), { numRuns: n, seed: 1 });
  } else {
    const { property, check, st } = await import("shrinkscope");
    check(property(st.lists(st.integers()), body), { maxExamples: n, database: null, deadline: null, seed: 1 });
  }
  const seconds = (performance.now() - t0) / 1000;
  // maxRSS is in kilobytes: the process's peak, the run included.
  process.stdout.write(
    `${JSON.stringify({ calls, seconds, peakMb: process.resourceUsage().maxRSS / 1024, heapMb: process.memoryUsage().heapUsed / 1048576 })}\n`,
  );
}

async function exhaustion() {
  const { property, check, st } = await import("shrinkscope");
  let calls = 0;
  check(
    property(st.booleans(), st.booleans(), st.booleans(), () => void calls++),
    { maxExamples: 1000, database: null, seed: 1 },
  );
  return calls;
}

function run(lib, n) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", lib, String(n)], {
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`${lib} ${n} failed (exit ${r.status}):\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").at(-1));
}

const argv = process.argv.slice(2);
if (argv[0] === "--child") await child(argv[1], Number(argv[2]));
else {
  const i = argv.indexOf("--sizes");
  const sizes = i >= 0 ? argv[i + 1].split(",").map(Number) : [1e5, 1e6, 1e7];
  console.log(
    `memory (node ${process.version}): peak RSS of one run of st.lists(st.integers()), each in a fresh process`,
  );
  console.log("examples     shrinkscope peak   heap after   examples/s   fast-check peak   examples/s");
  let last;
  for (const n of sizes) {
    const s = run("shrinkscope", n);
    const f = run("fast-check", n);
    last = s;
    console.log(
      `${String(n).padEnd(12)} ${`${s.peakMb.toFixed(0)} MB`.padStart(16)}   ${`${s.heapMb.toFixed(0)} MB`.padStart(10)}   ${`${Math.round(s.calls / s.seconds / 1000)} k`.padStart(10)}   ${`${f.peakMb.toFixed(0)} MB`.padStart(15)}   ${`${Math.round(f.calls / f.seconds / 1000)} k`.padStart(10)}`,
    );
  }
  const calls = await exhaustion();
  console.log(`three booleans: ${calls} calls (exhausted at 8: ${calls === 8 ? "yes" : "NO"})`);
  const ok = last.peakMb <= BAR_MB && calls === 8;
  console.log(
    `${ok ? "OK" : "NOT MET"}: peak RSS ≤ ${BAR_MB} MB at ${sizes.at(-1)} examples, and the small space exhausted`,
  );
  process.exitCode = ok ? 0 : 1;
}
