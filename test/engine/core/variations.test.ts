import { test } from "node:test";
import assert from "node:assert/strict";
import { Mutations } from "../../../src/engine/core/variations.ts";
import type { MutationHost } from "../../../src/engine/core/variations.ts";
import { Random } from "../../../src/engine/util/random.ts";
import { TestCase } from "../../../src/engine/core/testCase.ts";
import { sameChoices } from "../../../src/engine/choice/identity.ts";
import type { ChoiceValue } from "../../../src/engine/choice/types.ts";
import { check, property, st } from "../../../src/engine/index.ts";
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

test("a passing run draws each generated case once: the spans variations read are recorded as it is drawn (pinned)", () => {
  // Variations read a case's spans, which generation leaves off. Drawing the arguments again to get them called a
  // strategy's functions twice per case (200 .map calls for 100 examples of one text argument): now a case a
  // variation may read records its spans as it is drawn, and no case is drawn twice.
  for (const [name, strategy] of [
    ["a text", st.text()],
    ["an integer", st.integers()],
    ["a list", st.lists(st.integers())],
  ] as const) {
    for (let seed = 0; seed < 5; seed++) {
      let maps = 0;
      let calls = 0;
      check(
        property(
          (strategy as Strategy<unknown>).map((v) => (maps++, v)),
          st.integers(),
          () => void calls++,
        ),
        { database: null, deadline: null, seed },
      );
      // Each case called was drawn once; a few more were drawn and found to repeat a case already run (not called).
      assert.ok(maps >= calls && maps <= calls * 1.1, `${name}, seed ${seed}: ${maps} draws for ${calls} calls`);
    }
  }
});
