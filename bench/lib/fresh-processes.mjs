// Rates measured in fresh `node` processes, shared by the benches that compare libraries by speed
// (bench/stateful.mjs, bench/schedules.mjs).
//
// Why a fresh process per measurement: a library's rate depends on the JIT state of the process it runs in, and
// two libraries in one process shape each other's. So each contender runs alone in a child, which does several
// timed runs and prints `{ runs: [...] }` as JSON on its last stdout line: the first run is the *cold* rate,
// the median of the others the *warm* one. Each contender gets `procs` such children, run one after the other
// with the contenders' order rotated between rounds, so drift on the machine is spread over all of them; the
// figure is the median over the processes, and the per-process values are kept to print the spread.
import { spawnSync } from "node:child_process";

export function median(xs) {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * @param {object} o
 * @param {string} o.script   the bench script, run as `node SCRIPT ...args(job)` for each child
 * @param {string[]} o.jobs   the contenders, e.g. "shrinkscope:ledger"
 * @param {number} o.procs    children per contender
 * @param {(job: string) => string[]} o.args  the child's arguments
 * @param {(run: any) => number} o.rate       a rate from one element of the child's `runs`
 * @returns {Record<string, { cold: number, warm: number, coldAll: number[], warmAll: number[], outputs: any[] }>}
 */
export function measureInFreshProcesses({ script, jobs, procs, args, rate }) {
  const slots = {};
  for (let p = 0; p < procs; p++) {
    const order = jobs.map((_, i) => jobs[(i + p) % jobs.length]);
    for (const job of order) {
      const r = spawnSync(process.execPath, [script, ...args(job)], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
      if (r.status !== 0) throw new Error(`child ${job} failed: ${r.stderr || r.error}`);
      const out = JSON.parse(r.stdout.trim().split("\n").pop());
      const slot = (slots[job] ??= { coldAll: [], warmAll: [], outputs: [] });
      slot.coldAll.push(rate(out.runs[0]));
      if (out.runs.length > 1) slot.warmAll.push(median(out.runs.slice(1).map(rate)));
      slot.outputs.push(out);
    }
  }
  return Object.fromEntries(
    Object.entries(slots).map(([job, s]) => [job, { cold: median(s.coldAll), warm: median(s.warmAll), ...s }]),
  );
}
