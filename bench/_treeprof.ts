import { TestCase, CaseStore } from "../src/engine/testcase.ts";
import { DataTree, TreeCursor, conclusionOf, Status } from "../src/engine/datatree.ts";
import { Random } from "../src/engine/random.ts";
import { st } from "../src/engine/index.ts";
const strat = st.lists(st.integers());
function run(n: number, insert: boolean, seed: number) {
  const tree = new DataTree(); tree.frugal = true;
  const cursor = new TreeCursor(tree); const store = new CaseStore(); const random = new Random(seed);
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const tc = new TestCase([], random, 8192, cursor, store);
    cursor.reset(tc.data);
    strat.draw(tc);
    if (insert) tree.insert(tc.data, 0, tc.choiceCount, conclusionOf(Status.Valid, undefined), cursor, null, i);
  }
  return { ms: performance.now() - t0, nodes: tree.nodeCount, stored: tree.storedChoices, unrec: tree.unrecorded };
}
for (let w = 0; w < 3; w++) { run(100000, false, w); run(100000, true, w); }
for (let r = 0; r < 3; r++) {
  const a = run(100000, false, 10 + r), b = run(100000, true, 10 + r);
  console.log(`gen only ${(a.ms * 10).toFixed(0)} ns/case; gen+insert ${(b.ms * 10).toFixed(0)} ns/case; nodes ${b.nodes} stored ${b.stored} unrecorded ${b.unrec}`);
}
