// Where one shrinking-challenge run spends its calls: per-pass calls and accepted shrinks, for one seed or
// summed over seeds. `node bench/shrink-profile.mjs lengthlist [seeds=20] [--trace]`
import { assume, check, property, st, PropertyFailure } from "shrinkscope";
import { challenges } from "./challenges/definitions.mjs";

const [name, seedsArg = "20"] = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const trace = process.argv.includes("--trace");
const c = challenges.find((x) => x.name === name);
if (!c) throw new Error(`unknown challenge ${name}; one of ${challenges.map((x) => x.name).join(", ")}`);
const per = new Map();
let total = 0;
for (let seed = 0; seed < Number(seedsArg); seed++) {
  try {
    check(
      property(...c.shrinkscope(st), (...args) => {
        if (c.precondition) assume(c.precondition(...args));
        if (c.fails(...args)) throw new Error("fails");
      }),
      {
        seed,
        database: null,
        deadline: null,
        maxExamples: 1000,
        onEvent: (e) => {
          if (e.type === "shrink-pass" && e.state === "end") {
            const p = per.get(e.pass) ?? { calls: 0, accepted: 0 };
            p.calls += e.calls;
            p.accepted += e.accepted;
            per.set(e.pass, p);
          }
          if (trace && e.type === "shrink-target")
            console.log(`  ${e.pass.padEnd(24)} ${JSON.stringify(e.choices.map((x) => x.value))}`);
        },
      },
    );
  } catch (e) {
    if (!(e instanceof PropertyFailure)) throw e;
    total += e.statistics.shrinkCalls;
    if (trace) console.log(`seed ${seed}: ${JSON.stringify(e.args)} in ${e.statistics.shrinkCalls} calls`);
  }
}
console.log(`${name}: ${total} shrink calls over ${seedsArg} seeds`);
for (const [pass, p] of [...per].sort((a, b) => b[1].calls - a[1].calls))
  console.log(`  ${pass.padEnd(26)} calls ${String(p.calls).padStart(6)}  accepted ${p.accepted}`);
