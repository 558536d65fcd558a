/**
 * Mutations during generation: the same value in two places (after Hypothesis's generate_mutations_from).
 *
 * Many bugs need a repeat — a duplicate key, an element that is also an index, two equal arguments — and
 * independent random draws rarely make one in a short case. So after a generated case, a few variations of
 * it are run in which one span's choices are copied over another span with the same label (one list element
 * over another, one argument over another): [7, -3] becomes [7, 7]. A variation is kept as the case to vary
 * further when it did at least as well (valid stays valid, or a rejected case becomes valid); the variations
 * of one case stop after MAX_CALLS calls or when more than MAX_FAILED in a row fail to help — Hypothesis's
 * limits.
 *
 * Variations count as examples: they spend the run's budget, which fresh cases of new shapes need as well (a
 * bug at a list length of exactly 10 wants many lengths, not many variations of few), and each costs more
 * than a fresh case. So a run spends at most one case in SHARE on them: `Mutations.allowed` says when. They
 * draw on their own random stream, so whether they run does not change the fresh cases a seed generates.
 *
 * Only generation mutates; the first failure found here is shrunk like any other. Pairs where the copy has no
 * single meaning (spans nested in each other, spans starting with different kinds of choice) are not tried.
 */
import type { ChoiceValue } from "../choice/types.ts";
import { sameChoices } from "../choice/identity.ts";
import { Status } from "./datatree.ts";
import type { Random } from "../util/random.ts";
import type { TestCase } from "./testCase.ts";

const MAX_CALLS = 5;
const MAX_FAILED = 5;
/** At most one case in SHARE is a variation. */
const SHARE = 20;

export interface MutationHost {
  readonly random: Random;
  /**
   * Run `choices` as a generated case (no randomness: the variation has all its choices); a duplicate when the
   * DataTree has run it. `base`, the case being varied, is read again afterwards: the new case's storage must not
   * be its.
   */
  run(choices: readonly ChoiceValue[], base: TestCase): Generator<TestCase, TestCase, TestCase>;
  /** Whether generation may go on (budget left, no flaky property). */
  more(): boolean;
}

export class Mutations {
  /** Variations run so far. */
  count = 0;

  /** Whether the run can spend a case on a variation, `examples` cases in (variations included). */
  allowed(examples: number): boolean {
    return this.count * SHARE < examples;
  }

  /** Vary `from` (just generated, concluded valid or invalid); the failure a variation ran into, if any. */
  *vary(from: TestCase, host: MutationHost): Generator<TestCase, TestCase | undefined, TestCase> {
    let base = from;
    let calls = 0;
    let failed = 0;
    while (calls < MAX_CALLS && failed <= MAX_FAILED && host.more()) {
      const choices = copyOver(base, host.random);
      if (choices === null) return undefined; // nothing to copy
      if (choices === undefined) {
        failed++;
        continue;
      }
      const tc = yield* host.run(choices, base);
      if (tc.duplicate) {
        failed++;
        continue;
      }
      calls++;
      this.count++;
      if (tc.status === Status.Interesting) return tc;
      if (tc.status >= base.status) {
        base = tc;
        failed = 0;
      } else failed++;
    }
    return undefined;
  }
}

/**
 * Whether span k can take part in a copy: not empty, and not the "list element" span that ends a list (its one
 * "more" flag, false) — an element copied over it would be appended, growing a case the engine keeps small.
 */
function copyable(tc: TestCase, k: number): boolean {
  const start = tc.spanStart(k);
  const end = tc.spanEnd(k);
  if (end <= start) return false;
  return !(end - start === 1 && tc.valueAt(start) === false && tc.spanLabel(k) === "list element");
}

/**
 * The choices of `tc` with a random span's choices copied over another span with its label; undefined when the
 * pair drawn cannot take the copy, null when none of four random spans shares its label with another (most
 * likely none does: stop varying this case). Reads the span store directly: most cases are looked at and left
 * alone, and making Span objects for them would cost more than this.
 */
function copyOver(tc: TestCase, r: Random): ChoiceValue[] | undefined | null {
  const n = tc.spanCount;
  if (n < 2) return null;
  let labelled = false;
  for (let tries = 0; tries < 4; tries++) {
    const k = r.int(0, n - 1);
    if (!copyable(tc, k)) continue;
    const label = tc.spanLabel(k);
    let others = 0;
    for (let j = 0; j < n; j++) if (j !== k && tc.spanLabel(j) === label && copyable(tc, j)) others++;
    if (others === 0) continue;
    labelled = true;
    let pick = r.int(0, others - 1);
    let j = 0;
    for (; ; j++) if (j !== k && tc.spanLabel(j) === label && copyable(tc, j) && pick-- === 0) break;
    const [a, b] = tc.spanStart(k) < tc.spanStart(j) ? [k, j] : [j, k];
    const aStart = tc.spanStart(a),
      aEnd = tc.spanEnd(a),
      bStart = tc.spanStart(b),
      bEnd = tc.spanEnd(b);
    if (bStart < aEnd) return undefined; // nested: copying one into the other has no single meaning
    if (tc.typeCodeAt(aStart) !== tc.typeCodeAt(bStart)) return undefined; // differently drawn: the copy would misread
    const c = tc.choices;
    const fromA = r.int(0, 1) === 0;
    const first = c.slice(aStart, aEnd);
    const second = c.slice(bStart, bEnd);
    // Over an equal span the copy changes nothing: no variation. (Run, it would be the case itself again — a
    // duplicate, or when the tree did not keep the case, the same call twice; a list of booleans made them often.)
    if (sameChoices(first, second)) return undefined;
    const copy = fromA ? first : second;
    return [...c.slice(0, aStart), ...copy, ...c.slice(aEnd, bStart), ...copy, ...c.slice(bEnd)];
  }
  return labelled ? undefined : null;
}
