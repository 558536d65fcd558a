import { test } from "node:test";
import assert from "node:assert/strict";
import { Mutations } from "../../../src/engine/core/variations.ts";
import type { MutationHost } from "../../../src/engine/core/variations.ts";
import { Random } from "../../../src/engine/util/random.ts";
import { TestCase } from "../../../src/engine/core/testCase.ts";
import { sameChoices } from "../../../src/engine/choice/identity.ts";
import type { ChoiceValue } from "../../../src/engine/choice/types.ts";
import { st } from "../../../src/engine/index.ts";
import type { Strategy } from "../../../src/engine/index.ts";

/** A case of `strategy` replayed from `choices`, with its spans. */
function drawn(strategy: Strategy<unknown>, choices: ChoiceValue[]): TestCase {
  const tc = new TestCase(choices, null, 1000);
  strategy.draw(tc);
  return tc;
}

test("a copy over an equal span is no variation: vary never runs the case it varies again (pinned)", () => {
  // Lists of booleans with equal elements: every copy of one element over another gives the case back. Run, such
  // a "variation" was a duplicate at best, and the same call twice where the DataTree had not kept the case.
  const strategy = st.lists(st.booleans());
  for (const [choices, unequal] of [
    [[true, true, true, true, false], false],
    [[true, false, true, false, true, false, false], false],
    [[true, true, true, false, true, true, false], true],
  ] as const) {
    let runs = 0;
    for (let seed = 0; seed < 20; seed++) {
      // Each variation here concludes valid, so it becomes the case varied next (variations.ts).
      let varying: ChoiceValue[] = [...choices];
      const host: MutationHost = {
        random: new Random(seed),
        // eslint-disable-next-line require-yield
        *run(varied, base) {
          assert.ok(sameChoices(base.choices, varying));
          assert.ok(!sameChoices(varied, varying), `seed ${seed}: ran ${JSON.stringify(varied)}, the case it varies`);
          runs++;
          varying = [...varied];
          return drawn(strategy, varying);
        },
        more: () => true,
      };
      const generator = new Mutations().vary(drawn(strategy, [...choices]), host);
      for (let step = generator.next(); !step.done; step = generator.next(step.value)) {}
    }
    assert.equal(runs > 0, unequal, unequal ? "unequal elements still make variations" : "equal elements make none");
  }
});
