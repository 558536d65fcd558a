/**
 * The DataTree where it pays: generation records its cases in a flat log, and the tree is built only when it is
 * needed.
 *
 * The tree gives generation three things. It steers fresh draws away from subtrees already run through, so a
 * small space is enumerated and its exhaustion reported. It recognises a case already run, so the body is not
 * called on it twice. And it catches flakiness: a prefix that once led to one kind of draw now leads to
 * another. Most passing properties need none of them. Their inputs come from a large space, few draws repeat,
 * and their strategies draw the same kinds from the same choices. Yet walking and growing the tree was the
 * largest single cost of such a case after drawing it.
 *
 * So for a property whose choices all come from drawing its arguments (no st.data(), not a machine or a
 * schedule), generation starts on the log:
 * - each case's choices are appended to one flat ChoiceData, with the case's conclusion and call number;
 * - a 64-bit fingerprint of each case's choices goes into a set (fingerprints.ts), so a case whose arguments
 *   draw exactly what a case already run drew is a duplicate, as the tree would have found (executor.ts asks
 *   `repeats`);
 * - duplicates that keep coming say the space is small (at least TREE_AFTER of them, one per TREE_SHARE cases
 *   run or more; those of the first cases, kept small, count apart: `repeatsAdd`): the log is replayed into the
 *   tree, in call order, and generation goes on steered by the tree (the log goes on, remembering fingerprints).
 *   Three booleans still exhaust after 8 calls. A few duplicates are common in a large space (the empty list,
 *   drawn again) and change nothing: they are not called;
 * - a failure replays the log into the tree before the failure itself goes in, so the shrinker finds every
 *   case generation ran (it never calls the property on one again), and a disagreement among them is reported
 *   as flakiness, as before;
 * - the fingerprints stay for the whole generate phase (the tree steering or not), and the engine adds those of
 *   the cases replayed from the database and climbed by the target phase: no input runs twice;
 * - past LOG_CHOICES choices the log forgets the cases it holds and starts again; their fingerprints stay, up to
 *   FINGERPRINTS of them. A failure after that puts only the later cases into the tree: the shrinker may call an
 *   earlier one again, as it could one the tree did not keep past its own budgets (DataTree.frugal). After a
 *   forget the tree never steers (it would not know every case, and would steer elsewhere than a watched run).
 *
 * A watched run (an observer: the panel draws the tree) generates the same way — the same cases run, the same
 * repeats are skipped — and the engine also puts each case into the tree as it runs; the log then keeps only
 * fingerprints. What an unwatched run that passes gives up: flakiness among its generated cases (a strategy
 * reading state that changes between cases) is not looked for. Its cases never go into the tree.
 */
import { ChoiceData } from "../choice/storage.ts";
import type { Conclusion, DataTree } from "./datatree.ts";
import { Inserted, repeatsFiltered } from "./datatree.ts";
import type { SeenCases, TestCase } from "./testCase.ts";
import { FingerprintSet, print, printA, printB } from "./fingerprints.ts";

/**
 * Duplicates before the tree steers generation: at least TREE_AFTER, and one per TREE_SHARE cases run or more — as
 * many repeats as cases run, half the draws. A union whose small branch keeps repeating (`st.oneOf(st.integers(),
 * st.text(), st.booleans())`: a third of its draws) stays on the log, where drawing the repeats costs less than the
 * tree's path for every case (one per two cases steered it, and the union ran 1.2–1.4× slower); a small space's
 * repeats soon outnumber its cases, and the tree still ends it (three booleans: exhausted after 8 calls).
 */
export const TREE_AFTER = 4;
export const TREE_SHARE = 1;
/** Choices the log holds before it forgets them and starts again. */
export const LOG_CHOICES = 1 << 14;
/** Fingerprints remembered at most (past them, a repeat of an unremembered case may be called again). */
export const FINGERPRINTS = 1 << 18;

/**
 * Log storage a finished run gave back (`release`), for the next run's log: grown once, not run after run (a log
 * grows to a few thousand choices, and growing it was 4% of a small property's run).
 */
let spare: ChoiceData | null = null;

export class GenerationLog implements SeenCases {
  /** The logged cases' choices, one after another; entry k is [starts[k], starts[k + 1] or data.length). */
  private data: ChoiceData;
  private readonly starts: number[] = [];
  private readonly conclusions: Conclusion[] = [];
  private readonly calls: number[] = [];
  private readonly seen = new FingerprintSet(FINGERPRINTS);
  /**
   * Set once the tree steers generation (the engine replayed the log into it: `steerWithTree`). The log goes on
   * remembering fingerprints, so a case run before the tree knew it (forgotten, or run outside generation) is
   * still a duplicate.
   */
  treeSteers = false;
  /** Set once the log has forgotten cases (`forget`): the tree can no longer know every case, and never steers. */
  forgotten = false;
  /** Choices logged since the last `forget` (counted watched or not, so both forget at the same case). */
  private loggedChoices = 0;
  /** Cases remembered, and duplicates found (repeatsAdd): of the cases kept small, and of the others. */
  private cases = 0;
  private duplicates = 0;
  private smallDuplicates = 0;
  /** The last case `repeats` fingerprinted, and over how many choices: record() reuses it. */
  private checked: TestCase | null = null;
  private checkedCount = -1;
  private checkedA = 0;
  private checkedB = 0;

  constructor(
    /** What filters accepted in the generate phase, shared with its cursor (TreeCursor.repeatsFiltered). */
    private readonly filteredKeys: Set<string>,
    /** How many of the first valid cases the engine keeps small (TestCase.growthLimit). */
    private readonly smallCases = 0,
  ) {
    this.data = spare ?? new ChoiceData();
    spare = null;
    this.data.clear();
  }

  /** Give the log's storage to the next run's log: this log is not used again. */
  release(): void {
    this.seen.release();
    const data = this.data;
    data.clear();
    data.objects = null; // the strings and bytes it held are not kept alive
    if (data.codes.length <= LOG_CHOICES * 2) spare = data;
  }

  /** Whether `tc`, its arguments drawn, is a case already run (or reached values a filter accepted before). */
  repeats(tc: TestCase): boolean {
    return this.known(tc) || (tc.filtered && repeatsFiltered(this.filteredKeys, tc.acceptedKey()));
  }

  /** Whether the choices of `tc` so far are those of a case already run. */
  known(tc: TestCase): boolean {
    print(tc.data, tc.choiceCount);
    this.checked = tc;
    this.checkedCount = tc.choiceCount;
    this.checkedA = printA;
    this.checkedB = printB;
    return this.seen.has(printA, printB);
  }

  /** Remember that `tc` ran (a case that went into the tree itself: its repeats are duplicates too). */
  remember(tc: TestCase): void {
    const count = tc.choiceCount;
    this.cases++;
    if (this.checked === tc && this.checkedCount === count) this.seen.add(this.checkedA, this.checkedB);
    else {
      print(tc.data, count);
      this.seen.add(printA, printB);
    }
    this.checked = null;
  }

  /**
   * Count a duplicate (`small`: of a case kept small); whether duplicates come often enough that the tree should
   * steer generation from here on. Cases kept small repeat often in any space (a list stopped after two elements),
   * so theirs count apart, and only more of them than there are such cases says the space is small (three
   * booleans, whose few cases never end the small ones).
   */
  repeatsAdd(small: boolean): boolean {
    if (small) return ++this.smallDuplicates >= TREE_AFTER + this.smallCases;
    const n = ++this.duplicates;
    return n >= TREE_AFTER && n * TREE_SHARE >= this.cases;
  }

  /**
   * Log `tc`, concluded `conclusion` on call `call`: its choices kept when `keep` (unwatched: the tree does not
   * have them), else only counted (watched: the engine records the case in the tree itself). Past LOG_CHOICES
   * choices the log forgets what it holds.
   */
  record(tc: TestCase, conclusion: Conclusion, call: number, keep: boolean): void {
    this.remember(tc);
    if (keep) {
      this.starts.push(this.data.length);
      this.conclusions.push(conclusion);
      this.calls.push(call);
      this.data.append(tc.data, tc.choiceCount);
    }
    this.loggedChoices += tc.choiceCount;
    if (this.loggedChoices >= LOG_CHOICES) this.forget();
  }

  /** Forget the cases logged so far; their fingerprints stay (repeats of them are still duplicates). */
  forget(): void {
    this.empty();
    this.loggedChoices = 0;
    this.forgotten = true;
  }

  /** Drop the logged cases (replayed or forgotten). */
  private empty(): void {
    this.starts.length = 0;
    this.conclusions.length = 0;
    this.calls.length = 0;
    this.data.clear();
  }

  /**
   * Record the logged cases in `tree`, in call order, and empty the log. A case the tree finds flaky stops the
   * replay: `flaky` is given its choices, conclusion and call (the tree's `divergence` says how it disagreed).
   */
  replayInto(tree: DataTree, flaky: (choices: ChoiceData, conclusion: Conclusion, call: number) => void): void {
    const n = this.starts.length;
    const data = this.data;
    for (let k = 0; k < n; k++) {
      const start = this.starts[k];
      const end = k + 1 < n ? this.starts[k + 1] : data.length;
      if (tree.insert(data, start, end - start, this.conclusions[k], null, null, this.calls[k]) === Inserted.Flaky) {
        const choices = new ChoiceData(Math.max(end - start, 1));
        choices.append(data, end - start, start);
        flaky(choices, this.conclusions[k], this.calls[k]);
        break;
      }
    }
    this.empty();
  }
}
