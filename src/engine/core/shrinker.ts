/**
 * The shrinker: from a failing test case to a minimal one, by editing the choice sequence.
 *
 * Design (after Hypothesis's Shrinker and minithesis):
 * - The shrink target is the simplest failing case known. Every edit goes through one `consider(choices)`:
 *   the candidate is replayed (values that no longer fit become the simplest legal value; missing ones too)
 *   and becomes the new target exactly when it fails the same way (same error origin) and its *result* is
 *   shortlex-smaller than the target. So every accepted shrink is strictly simpler, and shrinking terminates.
 * - Candidates the DataTree has seen are answered from it, without calling the property.
 * - Passes are named entries in one list and run in rounds until a whole round makes no progress (the
 *   fixpoint). Whether a pass makes progress is deterministic: passes try every edit of their kind, in a fixed
 *   order, so "no pass improved" really means none can. A second, short list of fallback passes — costly or
 *   narrow edits — runs only in a round where the main passes all failed; if a fallback succeeds, the main
 *   passes run again.
 * - The passes, by what they edit: structure first (delete every discarded span at once — the attempts a
 *   filter rejected —, delete spans, delete chunks, delete-and-decrement a length drawn up front,
 *   delete-and-fold a list element into a scalar drawn before the list, join the lists of neighbouring
 *   elements, replace a span by its simplest form, replace a span by a same-label descendant,
 *   sort sibling spans), then values (each choice toward its simplest value, equal values together, pairs
 *   together, pairs redistributed). Numbers move by `searchTogether`: all the way first, then by halving the
 *   distance, then one step and a bisection — a few dozen calls from 2^53 to the boundary of the failure. A
 *   pass that can guess the boundary (lower with raise: where a product would keep its value) tries the guess
 *   and gallops up from it instead. A move a filter rejects says nothing about the boundary: the search asks
 *   the values next to it instead (`farthest`), so an odd number shrinks to the nearest odd one that fails.
 * - Budget: at most `maxCalls` property calls and `maxTimeMs` of shrinking; when either runs out the current
 *   target is reported with the reason, never lost. The host can also stop shrinking after any call (`stop`:
 *   the engine does when the property turned out flaky, since then no answer can be trusted).
 * - A minimal example rests on the answers that rejected simpler candidates, some of them cached from long
 *   before. The shrinker keeps the few simplest such candidates (`rejected`), so that the engine can run them
 *   again at the end and notice a property whose behaviour changed under it.
 *
 * The engine runs the test cases: the shrinker is a generator that yields each TestCase to execute, so sync
 * and async properties share one implementation.
 */
import type {
  ChoiceNode,
  ChoiceValue,
  FloatConstraints,
  IntegerConstraints,
  StringConstraints,
  BytesConstraints,
} from "../choice/types.ts";
import { choiceEquals, choiceKey } from "../choice/identity.ts";
import { choiceFromIndex, choiceToIndex, compareChoice } from "../choice/complexityIndex.ts";
import { compareNodes } from "../choice/order.ts";
import { permitted, simplest } from "../choice/domain.ts";
import { stringFromCodePoints } from "../util/strings.ts";
import type { CachedResult, DataTree } from "./datatree.ts";
import { Status, STATUS_NAMES } from "./datatree.ts";
import type { Presentation } from "../events/events.ts";
import type { RunObserver } from "../events/observer.ts";
import { findIntegerG } from "./shrinking/findInteger.ts";
import type { Span, TestCase } from "./testCase.ts";
import { now } from "../util/clock.ts";

/** What the shrinker needs from the engine. */
export interface ShrinkHost {
  readonly tree: DataTree;
  /**
   * Replay `choices` (no randomness) and return the executed case; recorded in the tree by the host. Without
   * `filterRetries`, a filter whose first attempt is rejected cuts the case short (TestCase.cutShort) instead
   * of drawing again from the choices that follow, which were made for something else.
   */
  execute(
    choices: readonly ChoiceValue[],
    pass: string,
    filterRetries: boolean,
  ): Generator<TestCase, TestCase, TestCase>;
  /** Who watches the run (observer.ts): told of each pass, candidate and new target; none, nothing is built for it. */
  readonly observer: RunObserver | undefined;
  /** Asked after every call: a reason to stop shrinking now (the target so far is kept), or undefined. */
  stop?(): string | undefined;
  /** The target as a person reads it, when its case did not say (TestCase.presentation): a property's arguments. */
  present?(nodes: readonly ChoiceNode[]): Presentation | undefined;
  /** Passes a kind of property brings for its own structure (a machine's steps: machine.ts); run after the generic main passes. */
  readonly extraPasses?: readonly DomainPass[];
}

/**
 * A pass that knows the structure of one kind of test case: from the target, candidate choice sequences to
 * try, most promising first. After each accepted candidate it is asked again, on the new target.
 */
export interface DomainPass {
  readonly name: string;
  candidates(target: ShrinkTarget): Iterable<readonly ChoiceValue[]>;
  /** Run only when a whole round of the other passes made no progress (costly, and rarely the way forward). */
  readonly fallback?: boolean;
}

export interface ShrinkTarget {
  readonly nodes: readonly ChoiceNode[];
  readonly spans: readonly Span[];
  readonly origin: string | undefined;
  /** The executed case that made it the target (with its error), when there was one. */
  readonly case?: TestCase;
}

/** How many of the simplest values (after the simplest) try small values tries. */
const SMALL_VALUES = 5n;

/**
 * Labels of the spans that open with the choice of a branch whose simplest is the one with the fewest choices: a
 * schema's union, a regex alternative (the shortest match). Not st.oneOf: its simplest is documented as the
 * first option's, which generation starts from.
 */
const BRANCHES = new Set(["union", "alternative"]);

/** How many values around a move a filter rejected the number searches ask instead, nearest first (see `farthest`). */
const FILTER_NEIGHBOURS = 4;

/** How many of the simplest rejected candidates the shrinker remembers (see `rejected`). */
export const KEPT_REJECTED = 3;

export interface ShrinkOptions {
  readonly maxCalls: number;
  readonly maxTimeMs: number;
}

export interface ShrinkOutcome {
  readonly target: ShrinkTarget;
  readonly calls: number;
  readonly cases: number;
  readonly shrinks: number;
  /** Set when the budget ran out before the fixpoint. */
  readonly stoppedBy: string | undefined;
}

type PassGen = Generator<TestCase, void, TestCase>;

/** A string's code points or a byte string's bytes: the elements the sequence passes edit. */
function elementsOf(isBytes: boolean, value: ChoiceValue): number[] {
  return isBytes ? Array.from(value as Uint8Array) : Array.from(value as string, (ch) => ch.codePointAt(0) as number);
}

/** The string or byte string made of `elements` (elementsOf's inverse). */
function sequenceOf(isBytes: boolean, elements: number[]): ChoiceValue {
  return isBytes ? Uint8Array.from(elements) : stringFromCodePoints(elements);
}

/** How far "delete and lower elsewhere" looks: the last elements, and the integers nearest the front. */
const ELSEWHERE_ELEMENTS = 16;
const ELSEWHERE_INTEGERS = 8;

/** Thrown inside the passes to end shrinking early (a budget ran out, or the host asked to stop). */
class StopShrinking {
  constructor(readonly reason: string) {}
}

export class Shrinker {
  target: ShrinkTarget;
  calls = 0;
  /** Candidates executed: the calls and the ones rejected before the property ran (see count). */
  cases = 0;
  shrinks = 0;
  private readonly started = now();
  private currentPass = "";
  private passCalls = 0;
  private passAccepted = 0;

  /** The passes, in the order each round runs them. Each is named for events and tests. */
  readonly passes: readonly { readonly name: string; readonly run: () => PassGen }[] = [
    { name: "remove discarded", run: () => this.removeDiscarded() },
    { name: "delete spans", run: () => this.deleteSpans() },
    { name: "delete and decrement", run: () => this.deleteAndDecrement() },
    // Before the value passes: a product or sum kept by folding an element into a scalar is one call, where
    // lowering that scalar while raising the elements takes a search each.
    { name: "delete and fold", run: () => this.deleteAndFold() },
    { name: "join lists", run: () => this.joinLists() },
    { name: "simplify spans", run: () => this.simplifySpans() },
    { name: "pass to descendant", run: () => this.passToDescendant() },
    // Equal values before single ones: alone, neither of two values that must stay equal can move, and the
    // attempts would be wasted calls.
    { name: "lower duplicates", run: () => this.lowerDuplicates() },
    { name: "minimise choices", run: () => this.minimiseChoices() },
    { name: "sort siblings", run: () => this.sortSiblings() },
    { name: "lower pairs", run: () => this.lowerPairs() },
    { name: "lower with raise", run: () => this.lowerWithRaise() },
    { name: "redistribute pairs", run: () => this.redistributePairs() },
  ];

  /** Passes too costly to run every round: only when a whole round of the others made no progress. */
  readonly fallbackPasses: readonly { readonly name: string; readonly run: () => PassGen }[] = [
    { name: "delete and lower siblings", run: () => this.deleteAndLowerSiblings() },
    { name: "delete and lower elsewhere", run: () => this.deleteAndLowerElsewhere() },
    { name: "merge siblings", run: () => this.mergeSiblings() },
    { name: "delete chunks", run: () => this.deleteChunks() },
    { name: "relabel", run: () => this.relabel() },
    { name: "try small values", run: () => this.trySmallValues() },
    { name: "try small pairs", run: () => this.trySmallPairs() },
    { name: "lower and refill", run: () => this.lowerAndRefill() },
    { name: "redistribute into simplest", run: () => this.redistributePairs(true) },
  ];

  constructor(
    private readonly host: ShrinkHost,
    initial: ShrinkTarget,
    private readonly options: ShrinkOptions,
  ) {
    this.target = initial;
    if (host.extraPasses !== undefined && host.extraPasses.length > 0) {
      // Right after the bulk span deletion: they delete what it could not without breaking later steps.
      const [first, ...rest] = this.passes;
      const pass = (p: DomainPass) => ({ name: p.name, run: () => this.domainPass(p) });
      this.passes = [first!, ...host.extraPasses.filter((p) => p.fallback !== true).map(pass), ...rest];
      this.fallbackPasses = [...this.fallbackPasses, ...host.extraPasses.filter((p) => p.fallback === true).map(pass)];
    }
  }

  /** Try the pass's candidates in order; after an accepted one, start over from the new target. */
  private *domainPass(p: DomainPass): PassGen {
    for (;;) {
      let improved = false;
      for (const c of p.candidates(this.target)) {
        if (yield* this.consider(c)) {
          improved = true;
          break;
        }
      }
      if (!improved) return;
    }
  }

  /** Run passes to a fixpoint (or until the budget runs out). */
  *run(): Generator<TestCase, ShrinkOutcome, TestCase> {
    try {
      for (;;) {
        const before = this.shrinks;
        for (const pass of this.passes) yield* this.runPass(pass.name, pass.run);
        if (this.shrinks !== before) continue;
        // The first fallback that makes progress hands back to the main passes: they are cheaper, and what the
        // fallback unblocked is usually theirs to finish.
        for (const pass of this.fallbackPasses) {
          yield* this.runPass(pass.name, pass.run);
          if (this.shrinks !== before) break;
        }
        if (this.shrinks === before) break;
      }
    } catch (e) {
      if (e instanceof StopShrinking)
        return {
          target: this.target,
          calls: this.calls,
          cases: this.cases,
          shrinks: this.shrinks,
          stoppedBy: e.reason,
        };
      throw e;
    }
    return { target: this.target, calls: this.calls, cases: this.cases, shrinks: this.shrinks, stoppedBy: undefined };
  }

  /** Run `choices` as a call of the current pass, within the budgets. */
  private *execute(choices: readonly ChoiceValue[]): Generator<TestCase, TestCase, TestCase> {
    if (this.calls >= this.options.maxCalls)
      throw new StopShrinking(`shrink call budget (${this.options.maxCalls}) used up`);
    if (now() - this.started > this.options.maxTimeMs)
      throw new StopShrinking(`shrink time budget (${this.options.maxTimeMs} ms) used up`);
    const tc = yield* this.host.execute(choices, this.currentPass, this.filterRetries());
    this.count(tc);
    this.checkStop();
    return tc;
  }

  /** Run a single pass once (tests drive passes one at a time). */
  *runPass(name: string, run: () => PassGen): Generator<TestCase, void, TestCase> {
    this.currentPass = name;
    this.passCalls = 0;
    this.passAccepted = 0;
    this.host.observer?.event({ type: "shrink-pass", pass: name, state: "start", calls: 0, accepted: 0 });
    try {
      yield* run();
    } finally {
      this.host.observer?.event({
        type: "shrink-pass",
        pass: name,
        state: "end",
        calls: this.passCalls,
        accepted: this.passAccepted,
      });
    }
  }

  /**
   * Try `choices`; if its replay fails the same way and is simpler than the target, it becomes the target.
   * Returns whether it was accepted.
   */
  *consider(choices: readonly ChoiceValue[]): Generator<TestCase, boolean, TestCase> {
    const t = this.target.nodes;
    if (choices.length === t.length && choices.every((v, i) => choiceEquals(t[i].type, v, t[i].value))) return false;
    let result: CachedResult | undefined = this.host.tree.lookup(choices);
    let spans: readonly Span[] | undefined;
    let executed: TestCase | undefined;
    const cached = result !== undefined;
    if (result === undefined) {
      const tc = yield* this.execute(choices);
      result = { status: tc.status, origin: tc.origin, nodes: tc.nodes };
      spans = tc.spans;
      executed = tc;
      this.lastCase = tc;
    }
    const comparison = compareNodes(result.nodes, t);
    const accepted =
      result.status === Status.Interesting && result.origin === this.target.origin && comparison.order < 0;
    this.inconclusive = result.status === Status.Invalid;
    if (this.inconclusive) this.sawInvalid = true;
    const observer = this.host.observer;
    observer?.candidate({
      pass: this.currentPass,
      nodes: result.nodes,
      comparison,
      status: STATUS_NAMES[result.status],
      accepted,
      cached,
    });
    if (!accepted) {
      if (comparison.order < 0) this.keepRejected(result.nodes);
      return false;
    }
    if (spans === undefined) {
      // Accepted from the cache: replay once to learn its spans (rare: the tree only holds cases already run).
      // The replay is recorded like any call, so a property that no longer fails on it is caught (stop).
      const tc = yield* this.host.execute(
        result.nodes.map((n) => n.value),
        this.currentPass,
        true,
      );
      this.count(tc);
      this.checkStop();
      spans = tc.spans;
      executed = tc;
    }
    this.target = { nodes: result.nodes, spans, origin: this.target.origin, case: executed };
    this.shrinks++;
    this.passAccepted++;
    observer?.target({
      pass: this.currentPass,
      nodes: result.nodes,
      spans,
      presentation: executed?.presentation ?? this.host.present?.(result.nodes),
    });
    return true;
  }

  /**
   * Whether the last candidate `consider` judged was invalid — a filter (or assume) rejected it — rather than
   * passing or failing: it says nothing about the values around it (see `farthest`, which clears it before each
   * move, so a move refused before any candidate — an illegal value — counts as a plain failure).
   */
  private inconclusive = false;
  /** Some candidate was rejected as invalid (a filter, assume(), a precondition): moves around such walls pay. */
  private sawInvalid = false;
  /** The case `consider` last executed (not answered from the DataTree): what a probe reads back. */
  private lastCase: TestCase | undefined;

  private retriesTarget: ShrinkTarget | undefined;
  private retries = false;

  /**
   * Whether candidates' filters may retry: only while the target still has a rejected filter attempt. Without
   * one, a candidate's filters pass at once or not at all: a retry would read the next value's choices as a new
   * attempt — a property call on a misreading of the candidate (mostly the simplest value). Worked out once per
   * target, not per candidate.
   */
  private filterRetries(): boolean {
    if (this.retriesTarget !== this.target) {
      this.retriesTarget = this.target;
      this.retries = this.target.spans.some((x) => x.discarded);
    }
    return this.retries;
  }

  /**
   * Count an executed candidate. Calls are what the budget and the statistics count: candidates that reached
   * the property (or failed while drawing it). One a filter rejected or that overran before the property ran
   * cost no call — the same count as Hypothesis's — and is counted in `cases` only.
   */
  private count(tc: TestCase): void {
    this.cases++;
    if (!tc.called && tc.status !== Status.Interesting) return;
    this.calls++;
    this.passCalls++;
  }

  private values(): ChoiceValue[] {
    return this.target.nodes.map((n) => n.value);
  }

  private checkStop(): void {
    const why = this.host.stop?.();
    if (why !== undefined) throw new StopShrinking(why);
  }

  /**
   * The simplest candidates rejected while simpler than the target of the time, simplest first (at most
   * KEPT_REJECTED): the answers the minimality of the result rests on most directly.
   */
  readonly rejected: (readonly ChoiceNode[])[] = [];

  private keepRejected(nodes: readonly ChoiceNode[]): void {
    const kept = this.rejected;
    if (kept.length >= KEPT_REJECTED && compareNodes(nodes, kept[kept.length - 1]).order >= 0) return;
    let at = kept.length;
    while (at > 0) {
      const order = compareNodes(nodes, kept[at - 1]).order;
      if (order === 0) return; // already kept
      if (order > 0) break;
      at--;
    }
    kept.splice(at, 0, nodes);
    if (kept.length > KEPT_REJECTED) kept.pop();
  }

  /**
   * Delete every discarded span at once (the attempts a filter rejected, the duplicates a unique list
   * skipped): replayed without them the case draws the same values, and one call saves a deletion each.
   */
  private *removeDiscarded(): PassGen {
    const v = this.values();
    const keep = new Array<boolean>(v.length).fill(true);
    let any = false;
    for (const s of this.target.spans) {
      if (!s.discarded || s.end <= s.start) continue;
      for (let j = s.start; j < s.end; j++) keep[j] = false;
      any = true;
    }
    if (any) yield* this.consider(v.filter((_, j) => keep[j]));
  }

  /** Try with the choices in [start, end) removed. */
  private *deleteRange(start: number, end: number): Generator<TestCase, boolean, TestCase> {
    const v = this.values();
    if (start >= end || end > v.length) return false;
    return yield* this.consider([...v.slice(0, start), ...v.slice(end)]);
  }

  /**
   * Delete each span — a list element, a discarded filter attempt, a whole structure — from the last to the
   * first (later choices depend on earlier ones, so trailing structure is usually the safest to drop). When a
   * list's last element goes, the shortest prefix of the list that still fails is searched for next; after
   * any other deletion, runs of the siblings just before it. An index drawn right after the list drops with
   * the elements deleted before it (tried first), and a list's closing flag is never deleted alone.
   */
  private *deleteSpans(): PassGen {
    for (let i = this.target.spans.length - 1; i >= 0; i--) {
      const spans = this.target.spans;
      if (i >= spans.length) continue;
      const s = spans[i];
      // One choice that is not a list element (an integer argument): deleting it only shifts what follows
      // into its place, which delete chunks tries when nothing else works.
      if (s.end <= s.start || this.isListEnd(s) || (s.end - s.start === 1 && s.label !== "list element")) continue;
      // The siblings before this span keep their places when it goes, so a success can grow backwards.
      const earlier = spans.filter(
        (x, k) =>
          k < i && x.parent === s.parent && x.label === s.label && !x.discarded && x.end <= s.start && x.end > x.start,
      );
      const last = !spans.some(
        (x, k) =>
          k > i &&
          x.parent === s.parent &&
          x.label === s.label &&
          !x.discarded &&
          x.start >= s.end &&
          x.end - x.start > 1,
      );
      const base = this.values();
      // An index into the list drawn right after it, pointing past this element: it follows the elements it
      // points at down, so the element it picks stays the same (deleting before it, it would pick the next).
      const after = this.integerAfter(i);
      const index = after !== undefined && after.value > earlier.length ? after : undefined;
      // Cut [from, s.end) from the sequence as it was before (k elements really are k siblings), the index
      // lowered by the `removed` elements when there is one.
      const cut = function* (
        this: Shrinker,
        from: number,
        removed: number,
        lowered: boolean,
      ): Generator<TestCase, boolean, TestCase> {
        const values = base.slice();
        if (lowered && index !== undefined) {
          const w = (base[index.at] as number) - removed;
          if (!permitted("integer", w, this.target.nodes[index.at]?.constraints ?? index.constraints)) return false;
          values[index.at] = w;
        }
        return yield* this.consider([...values.slice(0, from), ...values.slice(s.end)]);
      }.bind(this);
      let lowered = index !== undefined;
      if (!(lowered && (yield* cut(s.start, 1, true)))) {
        // An index at the last element, left as it is, would point past the end once one goes before it.
        if (lowered && index !== undefined && index.value === index.count - 1) continue;
        lowered = false;
        if (!(yield* cut(s.start, 1, false))) continue;
      }
      if (last && earlier.length > 0) {
        // The last element went: keep only the first few (the elements a failure needs are usually near the
        // front), the fewest that still fail — keep 0, 1, 2, 4, … then bisect.
        const keep = function* (this: Shrinker, k: number): Generator<TestCase, boolean, TestCase> {
          if (k >= earlier.length) return true;
          return yield* cut(earlier[k].start, earlier.length - k + 1, lowered);
        }.bind(this);
        // An index drawn after the list needs more elements than its value (else it points past the end).
        const floor = after !== undefined && !lowered ? Math.min(after.value + 1, earlier.length) : 0;
        let fail = floor - 1;
        let ok = floor;
        for (let step = 1; !(yield* keep(ok)); step *= 2) {
          fail = ok;
          ok = floor + step;
        }
        while (ok - fail > 1) {
          const mid = fail + Math.floor((ok - fail) / 2);
          if (yield* keep(mid)) ok = mid;
          else fail = mid;
        }
        continue;
      }
      // It went: delete as many of the siblings just before it as still fail (a list that lost one element
      // often loses the next ten just as well).
      const more = function* (this: Shrinker, k: number): Generator<TestCase, boolean, TestCase> {
        if (k > earlier.length) return false;
        return yield* cut(earlier[earlier.length - k].start, k + 1, lowered);
      }.bind(this);
      // Doubling, then bisecting: deletions tend to go in runs, so a long run costs ~2·log2 calls.
      let lo = 0;
      let hi = 1;
      while (yield* more(hi)) {
        lo = hi;
        hi *= 2;
      }
      while (hi - lo > 1) {
        const mid = lo + Math.floor((hi - lo) / 2);
        if (yield* more(mid)) lo = mid;
        else hi = mid;
      }
    }
  }

  /** A list's closing "no more" flag: deleting it alone only makes the next choice read as one. */
  private isListEnd(s: Span): boolean {
    const n = this.target.nodes[s.start];
    return s.label === "list element" && s.end - s.start === 1 && n?.type === "boolean" && n.value === false;
  }

  /**
   * The integer drawn right after the list that span si is an element of, when its value could index into the
   * list or be its length (0 ≤ value ≤ number of elements): `a list, then an index` properties.
   */
  private integerAfter(
    si: number,
  ): { at: number; value: number; count: number; constraints: IntegerConstraints } | undefined {
    const spans = this.target.spans;
    const s = spans[si];
    if (s.label !== "list element" || s.parent < 0) return undefined;
    const list = spans[s.parent];
    const n = this.target.nodes[list.end];
    if (n === undefined || n.type !== "integer" || n.forced) return undefined;
    const count = spans.filter(
      (x) => x.parent === s.parent && x.label === s.label && !x.discarded && x.end - x.start > 1,
    ).length;
    const value = n.value as number;
    return value >= 0 && value <= count
      ? { at: list.end, value, count, constraints: n.constraints as IntegerConstraints }
      : undefined;
  }

  /**
   * Join each list held by an element of an outer list to the list of the next element: drop the first's
   * closing flag and the outer "more" flag between them. [[a, b], [c]] → [[a, b, c]]: what the failure needs
   * from the elements together (five distinct values across all of them) then sits in one, and no deletion
   * or value change reaches that alone.
   */
  private *joinLists(): PassGen {
    for (let si = this.target.spans.length - 1; si >= 0; si--) {
      const spans = this.target.spans;
      const a = spans[si];
      if (a === undefined || a.label !== "list" || a.parent < 0) continue;
      const outer = spans[a.parent];
      if (outer.label !== "list element" || outer.end !== a.end) continue;
      const nodes = this.target.nodes;
      const close = nodes[a.end - 1];
      const more = nodes[a.end];
      const next = nodes[a.end + 1];
      // The next element holds a list that starts right after its flag (its own first "more" flag).
      if (
        close?.type !== "boolean" ||
        close.value !== false ||
        more?.type !== "boolean" ||
        more.value !== true ||
        next?.type !== "boolean"
      )
        continue;
      if (
        !spans.some(
          (x) =>
            x.label === "list" && x.start === a.end + 1 && x.parent >= 0 && spans[x.parent].parent === outer.parent,
        )
      )
        continue;
      yield* this.deleteRange(a.end - 1, a.end + 1);
    }
  }

  /**
   * Delete runs of k consecutive choices for k = 8, 4, 2, 1, each position from the end: catches structure
   * that spans do not mark (e.g. a list element plus the next one's "more" flag).
   */
  private *deleteChunks(): PassGen {
    for (const k of [8, 4, 2, 1]) {
      for (let i = this.target.nodes.length - k; i >= 0; i--) {
        if (i + k <= this.target.nodes.length) yield* this.deleteRange(i, i + k);
      }
    }
  }

  /** Replace every choice in a span by its simplest value at once (an element to its simplest form). */
  private *simplifySpans(): PassGen {
    for (let i = 0; i < this.target.spans.length; i++) {
      const s = this.target.spans[i];
      const nodes = this.target.nodes;
      if (s === undefined || s.end > nodes.length || s.end - s.start < 2) continue;
      let changed = 0;
      // A list element keeps its "more" flag: lowered with the rest it would cut the list off there, which
      // delete spans already tries (and simplify spans would retry for every element, every round).
      const from = s.label === "list element" ? s.start + 1 : s.start;
      const v = nodes.map((n, j) => {
        if (j < from || j >= s.end || n.forced) return n.value;
        const simple = simplest(n.type, n.constraints);
        if (!choiceEquals(n.type, simple, n.value)) changed++;
        return simple;
      });
      // One choice alone is minimise choices' to move.
      if (changed > 1) yield* this.consider(v);
    }
  }

  /**
   * Change the integer a span opens with — which branch of a union, which alternative of a regex — to one of the
   * first few values and draw the rest of that span afresh, at its simplest, keeping everything after it. The new branch usually draws a
   * different number of choices, so no edit of the old ones fits (`{ kind: "post", zip }` to
   * `{ kind: "phone", number }`, a nil UUID to the first alternative): a probe runs the prefix with the lowered
   * value and nothing after it (a replay past its end draws simplest values), its span says where the branch now
   * ends, and the candidate is the probe's branch followed by the old suffix. A fallback: two calls per try.
   */
  private *lowerAndRefill(): PassGen {
    for (let si = 0; si < this.target.spans.length; si++) {
      const s = this.target.spans[si];
      if (s === undefined || s.discarded || s.end - s.start < 2 || !BRANCHES.has(s.label)) continue;
      const n = this.target.nodes[s.start];
      if (n === undefined || n.type !== "integer" || n.forced) continue;
      const simple = simplest("integer", n.constraints) as number;
      const v = n.value as number;
      // The first few values from the simplest, the current one's neighbours above it included: a later branch
      // may draw fewer choices, and fewer is simpler (`{ kind: "post", zip }` is, when `phone` needs more).
      for (let w = simple, tries = 0; tries < 4; w += 1, tries++) {
        if (w === v || !permitted("integer", w, n.constraints)) continue;
        const values = this.values();
        const head = [...values.slice(0, s.start), w];
        this.lastCase = undefined;
        if (yield* this.consider(head)) break;
        // Answered by the DataTree, the probe has no spans to read: run it.
        const probe = (this.lastCase as TestCase | undefined) ?? (yield* this.execute(head));
        const branch = probe.spans.find((x) => x.start === s.start && x.label === s.label && x.depth === s.depth);
        if (branch === undefined || branch.end <= s.start) continue;
        if (yield* this.consider([...probe.choices.slice(0, branch.end), ...values.slice(s.end)])) break;
      }
    }
  }

  /**
   * Delete a span and lower an integer drawn before its parent structure by one: a list whose length was
   * drawn up front (n, then n elements via flatMap) loses an element only if n drops with it.
   */
  private *deleteAndDecrement(): PassGen {
    for (let si = this.target.spans.length - 1; si >= 0; si--) {
      const spans = this.target.spans;
      const s = spans[si];
      if (s === undefined || s.end <= s.start || s.parent < 0) continue;
      const parentStart = spans[s.parent].start;
      const nodes = this.target.nodes;
      // Only integers that look like this structure's length: equal to the number of its siblings
      // (give or take the terminating span a list draws).
      const count = spans.filter((x) => x.parent === s.parent && x.label === s.label && !x.discarded).length;
      for (let j = parentStart - 1, tried = 0; j >= 0 && tried < 2; j--) {
        const n = nodes[j];
        if (n.type !== "integer" || n.forced) continue;
        tried++;
        if (n.value !== count && n.value !== count - 1) continue;
        const c = n.constraints as IntegerConstraints;
        const t = simplest("integer", c) as number;
        const v = n.value as number;
        if (v === t) continue;
        const base = this.values();
        const dir = v > t ? -1 : 1;
        // Delete `count` sibling spans ending with s, lowering the length by as many.
        const earlier = spans.filter(
          (x, k) =>
            k < si &&
            x.parent === s.parent &&
            x.label === s.label &&
            !x.discarded &&
            x.end <= s.start &&
            x.end > x.start,
        );
        const attempt = function* (this: Shrinker, count: number): Generator<TestCase, boolean, TestCase> {
          if (count > earlier.length + 1 || Math.abs(v - t) < count) return false;
          const from = count === 1 ? s.start : earlier[earlier.length - count + 1].start;
          const values = base.slice();
          values[j] = v + dir * count;
          return yield* this.consider([...values.slice(0, from), ...values.slice(s.end)]);
        }.bind(this);
        if (!(yield* attempt(1))) continue;
        // It worked for one: as many more as still fail (findInteger), from the same starting point.
        yield* findIntegerG(function* (k: number) {
          return yield* attempt(1 + k);
        });
        break;
      }
    }
  }

  /**
   * Put sibling spans (same parent, same label, same length — list elements) in simplest-first order: all at
   * once, and if that no longer fails, by swapping adjacent pairs that are out of order. [1, 0] → [0, 1].
   */
  private *sortSiblings(): PassGen {
    const groups = new Map<string, number[]>();
    this.target.spans.forEach((s, i) => {
      if (s.end - s.start < 1 || s.discarded) return;
      const key = `${s.parent}|${s.label}|${s.end - s.start}`;
      const g = groups.get(key);
      if (g) g.push(i);
      else groups.set(key, [i]);
    });
    // Span indices are the target's when the groups were made: once a candidate changed it, they may name spans it
    // no longer has (a machine whose accepted candidate lost a step), so the pass ends and the next round sorts afresh.
    const spansAtStart = this.target.spans;
    for (const group of groups.values()) {
      if (this.target.spans !== spansAtStart) return;
      if (group.length < 2) continue;
      const slice = (si: number) => {
        const sp = this.target.spans[si];
        return this.target.nodes.slice(sp.start, sp.end);
      };
      const arrange = (order: readonly number[]): ChoiceValue[] => {
        const values = this.values();
        group.forEach((si, k) => {
          const into = this.target.spans[si];
          const from = this.target.spans[order[k]];
          for (let x = 0; x < into.end - into.start; x++)
            values[into.start + x] = this.target.nodes[from.start + x].value;
        });
        return values;
      };
      const sorted = [...group].sort((a, b) => compareNodes(slice(a), slice(b)).order);
      if (sorted.every((si, k) => si === group[k])) continue;
      const spansBefore = this.target.spans;
      if (yield* this.consider(arrange(sorted))) continue;
      for (let k = 0; k + 1 < group.length; k++) {
        if (this.target.spans !== spansBefore) break; // the structure changed: the next round sorts afresh
        if (compareNodes(slice(group[k + 1]), slice(group[k])).order >= 0) continue;
        const order = [...group];
        [order[k], order[k + 1]] = [order[k + 1], order[k]];
        yield* this.consider(arrange(order));
      }
    }
  }

  /** Indices of the spans that share span `si`'s parent and label, in order. */
  private siblings(si: number): number[] {
    const spans = this.target.spans;
    const s = spans[si];
    const out: number[] = [];
    spans.forEach((x, k) => {
      if (x.parent === s.parent && x.label === s.label && !x.discarded) out.push(k);
    });
    return out;
  }

  /**
   * Delete a span and lower every integer in its siblings by one: elements that index into their own list
   * (xs[i] < xs.length) stay valid only if they shrink with it.
   */
  private *deleteAndLowerSiblings(): PassGen {
    for (let si = this.target.spans.length - 1; si >= 0; si--) {
      const s = this.target.spans[si];
      if (s === undefined || s.parent < 0 || s.end <= s.start) continue;
      const values = this.values();
      let lowered = false;
      for (const k of this.siblings(si)) {
        const x = this.target.spans[k];
        if (k === si) continue;
        for (let j = x.start; j < x.end; j++) {
          const n = this.target.nodes[j];
          if (n.type !== "integer" || n.forced) continue;
          const d = this.direction(j);
          if (d !== 0) {
            values[j] = (n.value as number) + d;
            lowered = true;
          }
        }
      }
      if (lowered) yield* this.consider([...values.slice(0, s.start), ...values.slice(s.end)]);
    }
  }

  /**
   * Delete one element — a list's element span, or one character of a string (one byte of bytes) — and move one
   * integer drawn anywhere else one step toward its simplest: an argument that counts or indexes into another
   * (truncate(s, n), xs[i]) stays in step only if both move at once. ("0𐀀", 2) → ("𐀀", 1), where deleting
   * alone passes and lowering alone passes. An astral character also tries two steps (it is two UTF-16 units).
   * The integers tried are those outside every list element (the arguments' and fields' own; deleteAndLowerSiblings
   * moves the elements'). Bounded: the last ELSEWHERE_ELEMENTS elements, the first ELSEWHERE_INTEGERS integers.
   */
  private *deleteAndLowerElsewhere(): PassGen {
    // Integers that are not inside any list element: arguments and fields, which count or index into something.
    const inElement = new Uint8Array(this.target.nodes.length);
    for (const x of this.target.spans)
      if (x.label === "list element") for (let j = x.start; j < x.end; j++) inElement[j] = 1;
    const integers = (skip: (j: number) => boolean): number[] =>
      this.integerPositions()
        .filter((j) => inElement[j] === 0 && !skip(j) && this.direction(j) !== 0)
        .slice(0, ELSEWHERE_INTEGERS);
    const lowered = (values: ChoiceValue[], j: number, steps: number): ChoiceValue[] => {
      const out = values.slice();
      out[j] = (values[j] as number) + steps * this.direction(j);
      return out;
    };
    // List elements: spans with a parent, non-empty, the last ones first.
    let tried = 0;
    for (let si = this.target.spans.length - 1; si >= 0 && tried < ELSEWHERE_ELEMENTS; si--) {
      const s = this.target.spans[si];
      if (s === undefined || s.label !== "list element" || s.discarded || s.end <= s.start || this.isListEnd(s))
        continue;
      tried++;
      for (const j of integers((j) => j >= s.start && j < s.end)) {
        const values = lowered(this.values(), j, 1);
        if (yield* this.consider([...values.slice(0, s.start), ...values.slice(s.end)])) return;
      }
    }
    // Characters of strings (and bytes).
    for (let i = 0; i < this.target.nodes.length; i++) {
      const n = this.target.nodes[i];
      if ((n.type !== "string" && n.type !== "bytes") || n.forced) continue;
      const k = n.constraints as StringConstraints | BytesConstraints;
      const units = elementsOf(n.type === "bytes", n.value);
      if (units.length <= k.minSize) continue;
      for (let p = units.length - 1; p >= Math.max(0, units.length - ELSEWHERE_ELEMENTS); p--) {
        const value = sequenceOf(n.type === "bytes", units.slice(0, p).concat(units.slice(p + 1)));
        const steps = n.type === "string" && units[p] > 0xffff ? [1, 2] : [1];
        for (const j of integers((j) => j === i)) {
          let done = false;
          for (const d of steps) {
            const values = lowered(this.values(), j, d);
            values[i] = value;
            if ((done = yield* this.consider(values))) break;
          }
          if (done) return;
        }
      }
    }
  }

  /**
   * Merge two adjacent sibling spans holding one integer each into one whose value is their sum (wrapped
   * into the bounds): a property of the total survives, and the sequence gets shorter. [1, 32767] in int16
   * becomes [-32768].
   */
  private *mergeSiblings(): PassGen {
    for (let si = this.target.spans.length - 1; si >= 0; si--) {
      const spans = this.target.spans;
      const a = spans[si];
      if (a === undefined || a.parent < 0) continue;
      const sib = this.siblings(si);
      const next = sib[sib.indexOf(si) + 1];
      if (next === undefined) continue;
      const b = spans[next];
      const i = this.onlyInteger(a);
      const j = this.onlyInteger(b);
      if (i === undefined || j === undefined) continue;
      const c = this.target.nodes[i].constraints as IntegerConstraints;
      let sum = (this.target.nodes[i].value as number) + (this.target.nodes[j].value as number);
      if (c.min !== null && c.max !== null) {
        const size = c.max - c.min + 1;
        sum = c.min + ((((sum - c.min) % size) + size) % size);
      }
      if (!permitted("integer", sum, c)) continue;
      const values = this.values();
      values[i] = sum;
      yield* this.consider([...values.slice(0, b.start), ...values.slice(b.end)]);
    }
  }

  /** Positions i and j are in different elements of one list. */
  private sameList(i: number, j: number): boolean {
    const a = this.elementOf(i);
    const b = this.elementOf(j);
    return a !== undefined && b !== undefined && a !== b && a.parent === b.parent;
  }

  /** The innermost list element holding position x, if any. */
  private elementOf(x: number): Span | undefined {
    let found: Span | undefined;
    for (const s of this.target.spans)
      if (
        s.label === "list element" &&
        !s.discarded &&
        s.start <= x &&
        x < s.end &&
        (found === undefined || s.depth > found.depth)
      )
        found = s;
    return found;
  }

  /** The position of the one integer a span holds besides flags (an element of a list of integers), if so. */
  private onlyInteger(x: Span): number | undefined {
    let found: number | undefined;
    for (let j = x.start; j < x.end; j++) {
      const n = this.target.nodes[j];
      if (n.forced || n.type === "boolean") continue;
      if (n.type !== "integer" || found !== undefined) return undefined;
      found = j;
    }
    return found;
  }

  /**
   * Delete a list element while folding its value into a scalar integer drawn before the list (x·v, then x + v):
   * a product or sum that must stay large keeps its value with one element fewer. (10000, [10, 10]) →
   * (100000, [10]), which no deletion alone reaches (the product drops) and no raise alone accepts (longer).
   */
  private *deleteAndFold(): PassGen {
    for (let si = this.target.spans.length - 1; si >= 0; si--) {
      const spans = this.target.spans;
      const s = spans[si];
      if (s === undefined || s.parent < 0 || s.end <= s.start) continue;
      const k = this.onlyInteger(s);
      if (k === undefined) continue;
      const v = this.target.nodes[k].value as number;
      const nodes = this.target.nodes;
      fold: for (let j = spans[s.parent].start - 1, tried = 0; j >= 0 && tried < 2; j--) {
        const n = nodes[j];
        if (n.type !== "integer" || n.forced) continue;
        tried++;
        // Only a scalar drawn before the list (an argument, a tuple field): folding into another list's
        // element rarely keeps the failure, and this runs every round.
        if (this.elementOf(j) !== undefined) continue;
        const x = n.value as number;
        for (const w of x * v === x + v ? [x * v] : [x * v, x + v]) {
          if (w === x || !permitted("integer", w, n.constraints)) continue;
          const values = this.values();
          values[j] = w;
          if (yield* this.consider([...values.slice(0, s.start), ...values.slice(s.end)])) break fold;
        }
      }
    }
  }

  /**
   * Lower an integer while a later one goes to its far bound (or doubles): the earlier value decides the
   * order, so (40000, [5, 5]) → (20000, [10, 5]) is simpler though the 5 grew. A product or sum that must
   * stay large gets there no other way; the later value comes back down in the next rounds if it can.
   */
  private *lowerWithRaise(): PassGen {
    for (const [i, j] of this.pairs()) {
      const a = this.target.nodes[i];
      const b = this.target.nodes[j];
      if (a?.type !== "integer" || b?.type !== "integer" || b.forced) continue;
      const d = this.direction(i);
      if (d === 0) continue;
      const c = b.constraints as IntegerConstraints;
      const vb = b.value as number;
      const up = vb >= (simplest("integer", c) as number);
      const far = up ? (c.max ?? 2 * vb + 1) : (c.min ?? 2 * vb - 1);
      if (far === vb || !permitted("integer", far, c)) continue;
      const base = this.values();
      base[j] = far;
      const start = a.value as number;
      const gap = Math.abs((simplest("integer", a.constraints) as number) - start);
      // Where a product a·b that must stay large would put the boundary (a positive, b raised).
      const guess = start > 0 && vb > 0 && far > vb && d < 0 ? start - Math.ceil((start * vb) / far) : undefined;
      yield* this.farthest(
        gap,
        function* (this: Shrinker, k: number) {
          const values = base.slice();
          values[i] = start + d * k;
          return yield* this.consider(values);
        }.bind(this),
        false,
        guess,
      );
    }
  }

  /** Integer positions (not forced, not already simplest), for the multi-choice passes. */
  private integerPositions(): number[] {
    const out: number[] = [];
    this.target.nodes.forEach((n, i) => {
      if (n.type === "integer" && !n.forced && n.value !== simplest("integer", n.constraints)) out.push(i);
    });
    return out;
  }

  /**
   * Set the integers at `positions` to base + delta·k (bases taken before the search, so that findInteger
   * sees one monotone question however many steps get accepted on the way); false if one becomes illegal.
   */
  private *moveTogether(
    positions: readonly number[],
    bases: readonly number[],
    deltas: readonly number[],
    k: number,
  ): Generator<TestCase, boolean, TestCase> {
    const values = this.values();
    for (let p = 0; p < positions.length; p++) {
      const i = positions[p];
      const n = this.target.nodes[i];
      if (n === undefined || n.type !== "integer") return false;
      const w = bases[p] + deltas[p] * k;
      if (!permitted("integer", w, n.constraints)) return false;
      values[i] = w;
    }
    return yield* this.consider(values);
  }

  /**
   * Move `positions` together by deltas·k for the largest k that still fails, k at most the distance of the
   * first position to its target. Large distances are searched in two steps — first how many times the
   * distance can be halved, then a bisection of what is left — so shrinking 2^53 to 10 costs ~20 calls, not ~100.
   */
  private *searchTogether(positions: readonly number[], deltas: readonly number[], wholeFirst = false): PassGen {
    // Positions collected at a pass's start can fall past the end of a target that shrank meanwhile.
    if (positions.some((i) => this.target.nodes[i]?.type !== "integer")) return;
    const first = this.target.nodes[positions[0]];
    const distance = Math.abs((simplest("integer", first.constraints) as number) - (first.value as number));
    if (distance === 0) return;
    const start = positions.map((i) => this.target.nodes[i].value as number);
    yield* this.farthest(distance, (k) => this.moveTogether(positions, start, deltas, k), wholeFirst);
  }

  /**
   * The largest k ≤ distance for which move(k) is accepted (each call from the same starting point, so the
   * question stays monotone however many moves get accepted on the way).
   *
   * Through a filter: a move a filter rejects (`inconclusive`, the candidate is invalid) neither holds nor
   * fails. `n % 2 === 1` rejects every other value, and read as a failure, a rejection ends the search one
   * step from where it started, far from the boundary. So a rejected move k is answered by the nearest moves
   * around it instead — k + 1, k − 1, k + 2, k − 2, FILTER_NEIGHBOURS of them, only inside what is still
   * unknown (lo, hi) — the first that holds or fails standing in for it. With k they make five neighbouring
   * values, so any filter that accepts one value in five gets through. When all of them are rejected too, k
   * counts as failing and the search asks no more neighbours: a filter that rejects a whole neighbourhood
   * rejects a range, and probing it again at every step would be wasted. (Hypothesis's integer shrinker gets
   * past a parity filter by also moving in multiples of 2.) A filter rejects while the arguments are drawn,
   * before the property runs, so neighbours cost cases, not calls (`count`); only a rejection by the body
   * (assume) makes them calls: at most FILTER_NEIGHBOURS for each rejected move.
   */
  private *farthest(
    distance: number,
    move: (k: number) => Generator<TestCase, boolean, TestCase>,
    wholeFirst = false,
    guess?: number,
  ): PassGen {
    // Moves by lo are known to hold (0: the target itself) and by hi to fail (past distance: none asked yet).
    let lo = 0;
    let hi = distance + 1;
    // A filter that rejected a whole neighbourhood rejects ranges, not scattered values: no neighbours are
    // asked again in this search.
    let neighbours = FILTER_NEIGHBOURS;
    const ask = function* (this: Shrinker, k: number): Generator<TestCase, boolean, TestCase> {
      let asked = -1; // k itself first
      for (let s = 0; asked < neighbours; s++) {
        const up = k + s;
        const down = k - s;
        const upKnown = up >= hi || up > distance;
        if (s > 0 && upKnown && down <= lo) break;
        for (const j of s === 0 ? [k] : [up, down]) {
          if (s > 0 && (asked === neighbours || (j === up ? upKnown : j <= lo))) continue;
          asked++;
          this.inconclusive = false;
          if (yield* move(j)) {
            lo = Math.max(lo, j);
            return true;
          }
          if (!this.inconclusive) {
            hi = Math.min(hi, j);
            return false;
          }
        }
      }
      if (asked === neighbours) neighbours = 0;
      hi = Math.min(hi, k);
      return false;
    }.bind(this);
    if (wholeFirst && (yield* ask(distance))) return;
    // One step first: when not even that works (the common case at a boundary, and for most pairs) the search
    // ends after one call.
    if (!(yield* ask(1)) || distance === 1) return;
    // Beyond distance nothing is asked: the search stays below it until it asks distance itself.
    hi = Math.min(hi, distance);
    if (guess !== undefined && guess > lo && guess < hi) {
      // A guess at the boundary: if it holds, gallop up from it (a good guess costs two calls, not a search);
      // if not, the boundary is below it.
      if (yield* ask(guess)) {
        for (let step = 1; lo + step < hi; step *= 2) if (!(yield* ask(lo + step))) break;
        if (hi === distance && lo + 1 < hi && (yield* ask(distance))) return;
      }
    } else {
      // All the way, the cheapest win (a single value tried its simplest already). Far targets: how often the
      // distance halves first.
      if (yield* ask(distance)) return;
      if (distance > 64)
        yield* findIntegerG(function* (b: number) {
          if (b >= 53) return false;
          return yield* ask(distance - Math.floor(distance / 2 ** b));
        });
    }
    // Then bisect: about log2(hi − lo) calls. Past 2^53 (a distance from below -2^53 to a shrinkTowards above
    // zero) lo + 1 can round back to lo: stop when the midpoint no longer moves, or the same candidate (answered
    // by the DataTree, so never counted against the budget) would be asked forever.
    while (hi - lo > 1) {
      const mid = lo + Math.floor((hi - lo) / 2);
      if (mid <= lo || mid >= hi) break;
      yield* ask(mid);
    }
  }

  /**
   * Direction from the integer at i toward its target: −1, 0 or +1 (0 when i no longer holds an integer —
   * pair lists are computed before a pass, and an accepted shrink can shorten the target under them).
   */
  private direction(i: number): number {
    const n = this.target.nodes[i];
    if (n === undefined || n.type !== "integer") return 0;
    const t = simplest("integer", n.constraints) as number;
    return Math.sign(t - (n.value as number));
  }

  /**
   * Lower equal values together — integers, floats, strings, bytes alike (Hypothesis's
   * minimize_duplicated_choices): a property that needs two values equal (x == y ≥ 10, three equal strings in a
   * list) cannot move either alone, but can move all of them at once, each move the one its type would make.
   */
  private *lowerDuplicates(): PassGen {
    const groups = new Map<string | number | boolean, number[]>();
    this.target.nodes.forEach((n, i) => {
      if (n.forced || n.type === "boolean" || choiceEquals(n.type, n.value, simplest(n.type, n.constraints))) return;
      const key = n.type === "integer" ? (n.value as number) : `${n.type}:${String(choiceKey(n.type, n.value))}`;
      const g = groups.get(key);
      if (g) g.push(i);
      else groups.set(key, [i]);
    });
    for (const positions of groups.values()) {
      if (positions.length < 2) continue;
      const first = this.target.nodes[positions[0]];
      if (first === undefined) continue;
      switch (first.type) {
        case "integer":
          yield* this.searchTogether(
            positions,
            positions.map((i) => this.direction(i)),
            true,
          );
          break;
        case "float":
          if (!(yield* this.replaceAll(positions, simplest("float", first.constraints))))
            yield* this.minimiseFloat(positions);
          break;
        default:
          if (!(yield* this.replaceAll(positions, simplest(first.type, first.constraints))))
            yield* this.minimiseSequence(positions);
      }
    }
  }

  /**
   * Swap two values everywhere they occur among choices of one kind and constraints, when the simpler value
   * would then come first: `put 1, put 0, get 1, put 2` → `put 0, put 1, get 0, put 2`. No single deletion or
   * lowering gets there (each one change breaks the pattern of equal values), and a normal form needs it: the
   * same minimal example from every seed. Booleans are flags, not labels, and are left alone.
   */
  private *relabel(): PassGen {
    const nodes = this.target.nodes;
    const groups = new Map<string, number[]>();
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i];
      if (n.forced || n.type === "boolean") continue;
      const k = `${n.type}:${JSON.stringify(n.constraints, (_, v: unknown) => (typeof v === "bigint" ? `${v}n` : typeof v === "number" && !Number.isFinite(v) ? String(v) : v))}`;
      const g = groups.get(k);
      if (g) g.push(i);
      else groups.set(k, [i]);
    }
    for (const positions of groups.values()) {
      if (positions.length < 2) continue;
      const first = nodes[positions[0]];
      // The distinct values in order of first occurrence (a few: labels, not data).
      const distinct: ChoiceValue[] = [];
      for (const i of positions) {
        const v = nodes[i].value;
        if (!distinct.some((d) => choiceEquals(first.type, d, v))) distinct.push(v);
        if (distinct.length > 8) break;
      }
      for (let a = 0; a < distinct.length; a++) {
        for (let b = a + 1; b < distinct.length; b++) {
          const va = distinct[a];
          const vb = distinct[b];
          if (compareChoice(first.type, vb, va, first.constraints) >= 0) continue;
          const values = this.values();
          for (const i of positions) {
            if (choiceEquals(first.type, values[i], va)) values[i] = vb;
            else if (choiceEquals(first.type, values[i], vb)) values[i] = va;
          }
          // Accepted: the groups changed, so start again from the new target.
          if (yield* this.consider(values)) return yield* this.relabel();
        }
      }
    }
  }

  /** Nearby pairs of integer positions (each with the next three), the candidates for pair moves. */
  private pairs(atSimplest = false): [number, number][] {
    // The first of a pair moves toward its target. The second is one of the next three off their own target, or
    // (atSimplest, a fallback) the next integer, sitting at its target, to move off it: [3, 0] → [1, 2] when
    // a + b ≥ 3 and a ≥ 1, which no other move reaches once [0, 3] is rejected.
    const ints: number[] = [];
    this.target.nodes.forEach((n, i) => {
      if (n.type === "integer" && !n.forced) ints.push(i);
    });
    const off = (i: number) => {
      const n = this.target.nodes[i];
      return n.value !== simplest("integer", n.constraints);
    };
    const out: [number, number][] = [];
    for (let a = 0; a < ints.length; a++) {
      if (!off(ints[a])) continue;
      if (atSimplest) {
        // The next integer only: this runs when every other pass is stuck, to its end.
        if (a + 1 < ints.length && !off(ints[a + 1])) out.push([ints[a], ints[a + 1]]);
        continue;
      }
      for (let b = a + 1, k = 0; b < ints.length && k < 3; b++) {
        if (!off(ints[b])) continue;
        k++;
        out.push([ints[a], ints[b]]);
      }
    }
    return out;
  }

  /**
   * Shift two integers by the same amount, the first toward its target: their difference is what matters.
   * The second may already be at its target and move past it — b − a > 5 goes from [−6, 0] to [0, 6].
   */
  private *lowerPairs(): PassGen {
    const ints: number[] = [];
    this.target.nodes.forEach((n, i) => {
      if (n.type === "integer" && !n.forced) ints.push(i);
    });
    for (let a = 0; a < ints.length; a++) {
      const d = this.direction(ints[a]);
      if (d === 0) continue;
      for (let b = a + 1; b < Math.min(ints.length, a + 4); b++) yield* this.searchTogether([ints[a], ints[b]], [d, d]);
    }
  }

  /**
   * Move the first of two integers toward its target and the second the opposite way: their sum is what matters.
   * `atSimplest` (a fallback): the second sits at its target, and moves off it.
   */
  private *redistributePairs(atSimplest = false): PassGen {
    // Into a value at its simplest only past a wall: without one, lowering the first alone got there already.
    if (atSimplest && !this.sawInvalid) return;
    for (const [i, j] of this.pairs(atSimplest)) {
      const d = this.direction(i);
      if (d === 0) continue;
      yield* this.searchTogether([i, j], [d, -d]);
    }
  }

  /**
   * Replace a span by a strictly smaller span of the same label nested inside it: a recursive structure
   * (a tree, an expression) shrinks to one of its own subtrees in one step.
   */
  private *passToDescendant(): PassGen {
    for (let si = 0; si < this.target.spans.length; si++) {
      const outer = this.target.spans[si];
      if (outer === undefined) continue;
      for (let di = si + 1; di < this.target.spans.length; di++) {
        const spans = this.target.spans;
        if (spans[si] !== outer) break; // the target changed under us: the next round starts afresh
        const inner = spans[di];
        if (inner.start >= outer.end) break;
        if (inner.label !== outer.label || inner.end > outer.end || inner.end - inner.start >= outer.end - outer.start)
          continue;
        const v = this.values();
        if (
          yield* this.consider([...v.slice(0, outer.start), ...v.slice(inner.start, inner.end), ...v.slice(outer.end)])
        )
          break;
      }
    }
  }

  /** Try `value` at position i (everything else unchanged). */
  private *replace(i: number, value: ChoiceValue): Generator<TestCase, boolean, TestCase> {
    return yield* this.replaceAll([i], value);
  }

  /** Try `value` at every position of `at` at once (equal values moved together). */
  private *replaceAll(at: readonly number[], value: ChoiceValue): Generator<TestCase, boolean, TestCase> {
    const nodes = this.target.nodes;
    const v = this.values();
    for (const i of at) {
      const n = nodes[i];
      if (n === undefined || !permitted(n.type, value, n.constraints)) return false;
      v[i] = value;
    }
    return yield* this.consider(v);
  }

  /** Move each choice toward its simplest value, one at a time, left to right. */
  private *minimiseChoices(): PassGen {
    for (let i = 0; i < this.target.nodes.length; i++) {
      const n = this.target.nodes[i];
      if (n.forced) continue;
      const simple = simplest(n.type, n.constraints);
      if (choiceEquals(n.type, n.value, simple) || (yield* this.replace(i, simple))) continue;
      switch (n.type) {
        case "integer":
          yield* this.minimiseInteger(i);
          break;
        case "float":
          yield* this.minimiseFloat([i]);
          break;
        case "string":
        case "bytes":
          yield* this.minimiseSequence([i]);
          break;
        case "boolean":
          break;
      }
    }
  }

  /** Integers: toward shrinkTowards by findInteger in value space, and try the mirror value (−v → v). */
  private *minimiseInteger(i: number): PassGen {
    const n = this.target.nodes[i];
    const c = n.constraints as IntegerConstraints;
    const v = n.value as number;
    const t = simplest("integer", c) as number;
    const mirror = 2 * t - v;
    // The next simplest values first (Hypothesis's short circuit): a boundary right next to the target — a
    // list that must not be a palindrome, values that must differ — is met in one call, not a whole search.
    // Only from far away: near the target the search below is as short.
    const index = choiceToIndex("integer", v, c);
    if (index > 16n)
      for (let k = 1n; k <= 2n; k++) if (yield* this.replace(i, choiceFromIndex("integer", k, c))) return;
    if (v < t) yield* this.replace(i, mirror);
    yield* this.withCloseNeighbour(i);
    yield* this.towards([i], t);
  }

  /**
   * Far from its target, an integer that stays close to a later one (x ≥ 10 and |x − y| ≤ 4) moves with it
   * first: alone, each can move only a few steps before the pair breaks, and finding that costs a search over
   * the whole distance (~40 calls from 2^42). Together they cross it in a few halvings; the single search
   * that follows starts near the target.
   */
  private *withCloseNeighbour(i: number): PassGen {
    const n = this.target.nodes[i];
    const d = this.direction(i);
    if (n?.type !== "integer" || d === 0) return;
    const v = n.value as number;
    const distance = Math.abs((simplest("integer", n.constraints) as number) - v);
    if (distance <= 64) return;
    // The next three integers within a few choices (a bounded scan: this runs for every integer of the target).
    const nodes = this.target.nodes;
    for (let j = i + 1, seen = 0; j < Math.min(nodes.length, i + 16) && seen < 3; j++) {
      const m = nodes[j];
      if (m.type !== "integer" || m.forced) continue;
      seen++;
      if (this.direction(j) === d && Math.abs(v - (m.value as number)) * 16 < distance)
        return yield* this.searchTogether([i, j], [d, d]);
    }
  }

  /**
   * Fallback: set two neighbouring integers to small values together, simplest pair first. Some failures
   * need both to change at once — [2, 10] under a string-comparing sort becomes [-1, -2] only this way.
   * Only elements of one list: up to 25 calls a pair, spent where values compete with each other (a sort, a
   * set of distinct values); separate arguments reach their boundaries through the pair passes.
   */
  private *trySmallPairs(): PassGen {
    const ints = this.integerPositions();
    for (let p = 0; p + 1 < ints.length; p++) {
      const [i, j] = [ints[p], ints[p + 1]];
      if (!this.sameList(i, j)) continue;
      const a = this.target.nodes[i];
      const b = this.target.nodes[j];
      if (a?.type !== "integer" || b?.type !== "integer") continue;
      const ia = choiceToIndex("integer", a.value, a.constraints);
      const ib = choiceToIndex("integer", b.value, b.constraints);
      search: for (let x = 0n; x <= 4n && x <= ia; x++) {
        for (let y = 0n; y <= 4n; y++) {
          if (x === ia && y >= ib) break search; // only pairs simpler than the current one
          const values = this.values();
          values[i] = choiceFromIndex("integer", x, a.constraints);
          values[j] = choiceFromIndex("integer", y, b.constraints);
          if (!permitted("integer", values[i], a.constraints) || !permitted("integer", values[j], b.constraints))
            continue;
          if (yield* this.consider(values)) break search;
        }
      }
    }
  }

  /**
   * Fallback, when no other pass makes progress: try the few simplest values of each integer directly —
   * a filter or a parity condition can block every small step yet admit a small value.
   */
  private *trySmallValues(): PassGen {
    const positions = this.integerPositions();
    const done = new Set<number>();
    for (const i of positions) {
      const n = this.target.nodes[i];
      if (done.has(i) || n === undefined || n.type !== "integer") continue;
      // Equal values take each small value together (as in lower duplicates): alone, one of two values that
      // must stay equal can take none of them, and trying costs a call per value and per position.
      const at = positions.filter(
        (j) => j >= i && this.target.nodes[j]?.type === "integer" && this.target.nodes[j].value === n.value,
      );
      for (const j of at) done.add(j);
      const current = choiceToIndex("integer", n.value, n.constraints);
      // The few simplest values, and the few just below the current one (past a gap of one or two values
      // that fail differently: |a − b| = 0 between 11 and 9).
      const ks = new Set<bigint>();
      for (let k = 1n; k <= SMALL_VALUES; k++) ks.add(k);
      for (let k = current - 2n; k < current; k++) ks.add(k);
      for (const k of [...ks].sort((x, y) => (x < y ? -1 : 1))) {
        if (k < 1n || k >= current) continue;
        if (yield* this.replaceAll(at, choiceFromIndex("integer", k, n.constraints))) break;
      }
    }
  }

  /** Shift the equal numbers at `at` toward t by as much as still fails. */
  private *towards(at: readonly number[], t: number): PassGen {
    const i = at[0];
    const n = this.target.nodes[i];
    if (n.type === "integer") {
      yield* this.searchTogether(
        at,
        at.map((p) => this.direction(p)),
      );
      return;
    }
    // Integral floats: the same search in value space.
    const start = n.value as number;
    const dir = start > t ? -1 : 1;
    yield* this.farthest(Math.abs(start - t), (k) => this.replaceAll(at, start + dir * k));
  }

  /** Floats: finite first, then integral, then fewer binary digits, then toward the simplest as an integer. */
  private *minimiseFloat(at: readonly number[]): PassGen {
    const i = at[0];
    const c = this.target.nodes[i].constraints as FloatConstraints;
    const current = (): number => this.target.nodes[i]?.value as number;
    let v = current();
    if (Number.isNaN(v) || !Number.isFinite(v)) {
      const sign = v < 0 ? -1 : 1;
      for (const w of [0, sign * Number.MAX_VALUE]) if (yield* this.replaceAll(at, w)) break;
    }
    v = current();
    if (Number.isFinite(v) && !Number.isInteger(v)) {
      if (!(yield* this.replaceAll(at, Math.trunc(v)))) {
        // Fewer binary digits after the point: round to k digits for growing k until one still fails.
        for (let k = 1; k <= 52; k++) {
          const scale = 2 ** k;
          const r = Math.round(v * scale) / scale;
          if (r === v || (yield* this.replaceAll(at, r))) break;
        }
      }
    }
    v = current();
    if (Number.isFinite(v) && !Number.isInteger(v)) {
      // Below 1, the truncation and every rounding land on 0, which may pass or be out of bounds: the few
      // simplest floats themselves, in order (`x ≠ 1` over positive floats ends on 2, not on a subnormal).
      const index = choiceToIndex("float", v, c);
      for (let k = 1n; k <= SMALL_VALUES && k < index; k++) {
        const w = choiceFromIndex("float", k, c) as number;
        if (permitted("float", w, c) && (yield* this.replaceAll(at, w))) break;
      }
    }
    v = current();
    if (!Number.isInteger(v)) return;
    if (Math.abs(v) > Number.MAX_SAFE_INTEGER) {
      // Huge integral floats: halve the magnitude as often as still fails (findInteger over the exponent).
      const start = v;
      yield* findIntegerG(
        function* (this: Shrinker, k: number) {
          return yield* this.replaceAll(at, Math.sign(start) * Math.floor(Math.abs(start) / 2 ** k));
        }.bind(this),
      );
      v = current();
    }
    const t = simplest("float", c) as number;
    if (Math.abs(v) <= Number.MAX_SAFE_INTEGER && Number.isInteger(t)) {
      if (v < 0 && (yield* this.replaceAll(at, -v))) v = -v;
      yield* this.towards(at, t);
    }
  }

  /** Strings and bytes: drop elements from the end, then each element toward the simplest character. */
  private *minimiseSequence(at: readonly number[]): PassGen {
    const i = at[0];
    const n = this.target.nodes[i];
    const isBytes = n.type === "bytes";
    const k = n.constraints as StringConstraints | BytesConstraints;
    const toArray = (x: ChoiceValue): number[] => elementsOf(isBytes, x);
    const fromArray = (a: number[]): ChoiceValue => sequenceOf(isBytes, a);
    // The target's elements, converted once per target value: reading them per position would be quadratic
    // on long strings. units() is a copy to edit; current() is only read.
    let convertedFrom: ChoiceValue | undefined;
    let converted: number[] = [];
    const current = (): number[] => {
      const v = this.target.nodes[i].value;
      if (v !== convertedFrom) converted = toArray((convertedFrom = v));
      return converted;
    };
    const units = (): number[] => current().slice();
    // Shorter: remove each element, last first (at minSize nothing more can go: the value only gets shorter).
    for (let j = current().length - 1; j >= 0; j--) {
      if (current().length <= k.minSize) break;
      if (j >= current().length) continue;
      const a = units();
      a.splice(j, 1);
      yield* this.replaceAll(at, fromArray(a));
    }
    const alphabet = isBytes ? undefined : (k as StringConstraints).alphabet;
    const rank = (u: number): number => (alphabet ? alphabet.shrinkIndex(u) : u);
    const unrank = (r: number): number => (alphabet ? alphabet.atShrinkIndex(r) : r);
    // An astral character (two UTF-16 units) becomes two of the simplest character when that one is in the
    // BMP: the same `.length`, simpler at that position — "0𐀀" → "000", which no one-character edit reaches.
    const narrow = unrank(0);
    if (alphabet !== undefined && narrow <= 0xffff) {
      for (let j = current().length - 1; j >= 0; j--) {
        if (j >= current().length || current()[j] <= 0xffff) continue;
        const a = units();
        a.splice(j, 1, narrow, narrow);
        yield* this.replaceAll(at, fromArray(a));
      }
    }
    // Simpler elements: each toward the alphabet's simplest by findInteger on its shrink index.
    for (let j = 0; j < current().length; j++) {
      const start = rank(current()[j]);
      if (start === 0) continue;
      const trySet = function* (this: Shrinker, r: number): Generator<TestCase, boolean, TestCase> {
        const a = units();
        if (j >= a.length) return false;
        a[j] = unrank(r);
        return yield* this.replaceAll(at, fromArray(a));
      }.bind(this);
      if (yield* trySet(0)) continue;
      yield* findIntegerG(function* (d: number) {
        if (d >= start) return false;
        return yield* trySet(start - d);
      });
    }
    // Equal elements together: a run of "b"s that must stay a run reaches "a"s only if every "b" moves at once
    // (one at a time, each change breaks the run) — without this the same bug ends on "bbbbbbbbbb" or
    // "aaaaaaaaaa" depending on the seed.
    for (const u of new Set(current())) {
      const start = rank(u);
      if (start === 0 || current().filter((x) => x === u).length < 2) continue;
      const setAll = function* (this: Shrinker, r: number): Generator<TestCase, boolean, TestCase> {
        const a = units();
        let changed = false;
        for (let j = 0; j < a.length; j++) {
          if (a[j] === u) {
            a[j] = unrank(r);
            changed = true;
          }
        }
        return changed && (yield* this.replaceAll(at, fromArray(a)));
      }.bind(this);
      if (yield* setAll(0)) continue;
      yield* findIntegerG(function* (d: number) {
        if (d >= start) return false;
        return yield* setAll(start - d);
      });
    }
  }
}
