/**
 * The engine: one run of one property, phase by phase. The main loop fits on a screen (`run`):
 *
 *   explicit  the examples pinned in settings, as given (no shrinking of a value that is not choices)
 *   reuse     choice sequences that failed before, from the database, replayed first
 *   generate  fresh cases, steered by the DataTree so none repeats, until maxExamples valid cases, a failure,
 *             or the whole input space has been run; its first cases are watched by the health checks (health.ts)
 *   shrink    the first failure, to a minimal one (shrinker.ts)
 *   final     the first failure and the simplest candidates the shrinker rejected run again, since the minimal
 *             case is only minimal if they still behave as they did (a property failing from its 30th call
 *             onwards would otherwise be "minimal" at the first value it had not yet passed on); then the
 *             minimal case, replayed once more to report its arguments and error exactly
 *
 * Verdicts are never silent. A run passes only if test cases ran and some were valid: a run where every
 * input was rejected (even a finite space, exhausted) gives up, and so does one that ran nothing (e.g.
 * phases without "generate", no explicit examples and nothing saved). And the engine watches the DataTree:
 * when a case disagrees with what the same choices did before (another outcome, more or fewer draws,
 * another kind of draw), the property is flaky; the run stops there — in any phase — and reports it with
 * both outcomes instead of a minimal example that rests on answers which no longer hold.
 *
 * The engine does not know how the property is called: `run` is a generator that yields each TestCase to execute
 * and is resumed with it executed, so that one engine serves sync and async bodies (see property/driver.ts). The
 * generate loop calls the driver's executor in place (`inline`) and yields only a case whose body went async.
 */
import type { ChoiceNode, ChoiceValue } from "../choice/types.ts";
import { compareNodes } from "../choice/order.ts";
import { sameChoices } from "../choice/identity.ts";
import { savedAtOf, type ExampleDatabase } from "../databases/exampleDatabase.ts";
import type { Conclusion, Divergence } from "./datatree.ts";
import type { ChoiceData } from "../choice/storage.ts";
import { GenerationLog } from "./generationLog.ts";
import { conclusionOf, DataTree, Inserted, repeatsFiltered, Status, TreeCursor } from "./datatree.ts";
import type { CaseOrigin, Phase, Presentation, RunStatistics } from "../events/events.ts";
import type { HealthCheck } from "./health.ts";
import { gaveUpCheck, HealthWindow } from "./health.ts";
import type { Slice } from "./explain.ts";
import { argumentSlices, explain } from "./explain.ts";
import { Mutations } from "./variations.ts";
import { optimise, Targets } from "./targetPhase.ts";
import { Random } from "../util/random.ts";
import { formatArgs } from "../print/printer.ts";
import { Shrinker } from "./shrinker.ts";
import type { DomainPass } from "./shrinker.ts";
import { CaseStore, TestCase, giveBackStores, takeStore } from "./testCase.ts";
import { now as clock } from "../util/clock.ts";
import { CaseView } from "./caseView.ts";
import type { RunObserver } from "../events/observer.ts";
import { errorLine } from "../print/errorLine.ts";

export interface EngineSettings {
  readonly maxExamples: number;
  readonly seed: number;
  readonly derandomize: boolean;
  readonly deadline: number | null;
  readonly database: ExampleDatabase | null;
  readonly databasePath: string | null;
  readonly databaseKey: string;
  readonly phases: readonly Phase[];
  /** Who watches the run (observer.ts: the event tap settings.onEvent, the editor's tap); none, no events are built. */
  readonly observer: RunObserver | undefined;
  readonly maxChoices: number;
  readonly maxShrinkCalls: number;
  readonly maxShrinkTimeMs: number;
  readonly examples: readonly (readonly unknown[])[];
  readonly suppressHealthCheck: readonly HealthCheck[];
  /** Run exactly this one case (a pasted replay): no other phase, no database. */
  readonly replayChoices?: readonly ChoiceValue[];
}

export type EngineResult =
  | { readonly outcome: "passed" | "exhausted"; readonly statistics: RunStatistics }
  /** A replayed case (EngineSettings.replayChoices) that did not fail: passed, rejected or over the budget. */
  | { readonly outcome: "replayed"; readonly statistics: RunStatistics; readonly case: TestCase }
  | {
      readonly outcome: "gave-up";
      readonly statistics: RunStatistics;
      readonly reason: string;
      readonly healthCheck?: HealthCheck;
    }
  | {
      readonly outcome: "failed";
      readonly statistics: RunStatistics;
      readonly case: TestCase;
      /**
       * Set when the property behaved differently on the same choices (a replay that no longer failed, or any
       * disagreement with the DataTree): then `case` is a failure that happened once, not a minimal example,
       * and `flakiness` says what disagreed — both outcomes, with the calls they happened on.
       */
      readonly flaky: boolean;
      readonly flakiness?: string;
      readonly shrinkStopped: string | undefined;
      readonly explicit: boolean;
      /** The explain phase's finding: the slices of `case` that vary freely without changing the failure. */
      readonly free?: readonly Slice[];
      /** For a failure replayed from the example database: when it was saved (ms since the epoch), if known. */
      readonly savedAt?: number;
      /** The case is a pasted replay (EngineSettings.replayChoices), run once: not searched for, not shrunk. */
      readonly replayed?: true;
    };

type Run<T> = Generator<TestCase, T, TestCase>;
/**
 * What `run` yields: a case to execute (the driver resumes it with the case executed), or — from the generate
 * loop, which runs its cases itself through `Engine.inline` — a case whose body went async, to wait for
 * (resumed once it has settled).
 */
export type EngineStep = TestCase | Settling;

/** A case the generate loop ran itself (Engine.inline) whose body went async: resume the engine once it settles. */
export class Settling {
  constructor(
    readonly tc: TestCase,
    readonly settled: Promise<void>,
  ) {}
}

/**
 * The error of a flaky run in which nothing failed (e.g. draws that depend on a global counter): there is
 * no error of the property's own to show.
 */
export class Flaky extends Error {
  override name = "Flaky";
}

/** A case that disagreed with the DataTree: the call it ran on, and how it disagreed. */
interface FlakyObservation {
  readonly tc: TestCase;
  readonly call: number;
  readonly divergence: Divergence;
}

/** Each status as what a case did, for the flakiness report. */
const OUTCOME_WORDS = [
  "ran over the choice budget",
  "was rejected by assume() or a filter",
  "passed",
  "failed",
] as const;

function argsText(args: readonly unknown[]): string {
  try {
    return formatArgs(args);
  } catch {
    return "(arguments that cannot be printed)";
  }
}

/**
 * The flakiness report: what disagreed, both outcomes with their calls, why it happens, and what the shown
 * arguments are. E.g. "the same arguments passed on call 3 and failed on call 45 with Error: …".
 */
function flakinessText(tc: TestCase, call: number, d: Divergence, shown: TestCase): { what: string; text: string } {
  const prev = d.previous;
  const then = prev !== undefined && prev.call >= 0 ? `call ${prev.call}` : "an earlier call";
  const thenDid = prev === undefined ? "ran" : OUTCOME_WORDS[prev.status];
  const thenError = prev?.status === Status.Interesting && prev.origin !== undefined ? ` (${prev.origin})` : "";
  const nowDid = tc.status === Status.Interesting ? "failed" : OUTCOME_WORDS[tc.status];
  const error = tc.status === Status.Interesting ? ` with ${errorLine(tc.error)}` : "";
  const at =
    d.position === 0 ? "from the start" : `after the same first ${d.position} choice${d.position === 1 ? "" : "s"}`;
  let what: string;
  switch (d.kind) {
    case "conclusion":
      what = `the same arguments ${thenDid} on ${then}${thenError} and ${nowDid} on call ${call}${error}`;
      break;
    case "continued":
      what = `${at}, ${then} drew nothing more and ${thenDid}${thenError}, but call ${call} drew more and ${nowDid}${error}`;
      break;
    case "ended":
      what = `${at}, ${then} drew more and ${thenDid}${thenError}, but call ${call} drew nothing more and ${nowDid}${error}`;
      break;
    case "draw":
      what = `${at}, ${then} drew ${article(d.before ?? "different choice")} and ${thenDid}${thenError}, but call ${call} drew ${article(d.now ?? "different choice")} and ${nowDid}${error}`;
      break;
  }
  const lines = [
    `Flaky: ${what}.`,
    "The property depends on something besides its arguments: state kept between calls (a counter, a cache), the time, Math.random(), or a strategy or st.data() draw that reads such state.",
  ];
  if (shown === tc) {
    lines.push(
      tc.status === Status.Interesting
        ? `Shown: the arguments of call ${call}; they failed once, and are not a minimal example.`
        : `Nothing failed; shown: the arguments of call ${call}.`,
    );
  } else {
    if (d.kind !== "conclusion" || !sameChoices(tc.choices, shown.choices))
      lines.push(`The arguments of call ${call}: ${argsText(tc.args)}.`);
    lines.push("Shown: an earlier failure of this run; it failed once, and is not a minimal example.");
  }
  return { what, text: lines.join("\n") };
}

function article(noun: string): string {
  return /^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`;
}

const NO_CHOICES: ChoiceValue[] = [];
const TARGETS_EVERY_MS = 100;
/**
 * The first cases grow to at most SMALL_GROWTH times the simplest case's choices, for one valid case in
 * SMALL_SHARE and at most SMALL_CASES (Hypothesis: one in 10, at most 50 — with one in 10, a run of 100 spent too
 * much of itself on small cases: bugs that need 9 or 10 elements took twice as many examples to find).
 */
const SMALL_GROWTH = 5;
const SMALL_SHARE = 20;
const SMALL_CASES = 50;

export class Engine {
  private treeOrNull: DataTree | null = null;
  /** Whether the tree records generated cases frugally (DataTree.frugal), applied when it is made. */
  private frugalTree = false;
  /** The DataTree, made when first needed: a passing run on the generation log never needs it. */
  get tree(): DataTree {
    let tree = this.treeOrNull;
    if (tree === null) {
      tree = this.treeOrNull = new DataTree();
      tree.frugal = this.frugalTree;
    }
    return tree;
  }
  private frugal(on: boolean): void {
    this.frugalTree = on;
    if (this.treeOrNull !== null) this.treeOrNull.frugal = on;
  }
  private readonly random: Random;
  /** The variations' own stream (variations.ts): whether they run does not change the cases generated. */
  private readonly mutationRandom: Random;
  private readonly observer: RunObserver | undefined;
  /** The one ConcludedCase shown to the observer, pointed at each case in turn. */
  private readonly view = new CaseView((tc) => this.spanned(tc));
  private readonly started = clock();
  private nextId = 0;
  /** Property calls so far (the DataTree records on which call each case concluded, for flakiness reports). */
  private calls = 0;
  /** The first case that disagreed with the DataTree: the property is flaky and the run stops. */
  private flaky: FlakyObservation | null = null;
  /** Receives the exhausted depths of each recording when events are on (copied out only when non-empty). */
  private readonly depthsScratch: number[] = [];
  private readonly stats = {
    examples: 0,
    valid: 0,
    invalid: 0,
    overrun: 0,
    duplicates: 0,
    shrinkCalls: 0,
    shrinkCases: 0,
    shrinks: 0,
  };
  private readonly eventCounts: Record<string, number> = {};
  /** The generation log of a property whose choices all come from its arguments, while it runs (generationLog.ts). */
  private log: GenerationLog | null = null;
  /** Duplicates found on the log before the tree steered (they do not use up generation's attempts). */
  private unsteeredDuplicates = 0;
  /** When the last targets event went out, and whether a rise since has not been sent. */
  private targetsSent = 0;
  private targetsHeld = false;

  constructor(
    readonly settings: EngineSettings,
    /** Shrink passes of the property's own kind (a machine's: machine.ts). */
    private readonly extraPasses: readonly DomainPass[] = [],
    /** What the explain phase varies: the parts a person reads as one thing (arguments; a machine's step arguments). */
    private readonly slicesOf: (tc: TestCase) => readonly Slice[] = argumentSlices,
    /**
     * A shrink target as a person reads it, when its case did not describe itself (a property's arguments, drawn
     * again from its choices without calling the body): only with events on, once per accepted shrink.
     */
    private readonly present?: (choices: readonly ChoiceValue[], maxChoices: number) => Presentation | undefined,
  ) {
    this.random = new Random(settings.seed);
    this.mutationRandom = new Random(settings.seed ^ 0x5bd1e995);
    this.observer = settings.observer;
  }

  statistics(): RunStatistics {
    const st = this.stats;
    // Field by field: a spread of the counters was a runtime call, a twentieth of a small property's setup.
    return {
      examples: st.examples,
      valid: st.valid,
      invalid: st.invalid,
      overrun: st.overrun,
      duplicates: st.duplicates,
      shrinkCalls: st.shrinkCalls,
      shrinkCases: st.shrinkCases,
      shrinks: st.shrinks,
      timeMs: Math.round(clock() - this.started),
      events: { ...this.eventCounts },
    };
  }

  /**
   * The executor, when the run hands it over (property/run.ts): the generate loop then runs each case in place
   * instead of yielding it — a generator's round trip per case was a tenth of a small property's run — and
   * yields only a case whose body went async (Settling).
   */
  inline: ((tc: TestCase) => void | Promise<void>) | undefined = undefined;
  /**
   * Given by the driver for a property whose spans all come from drawing its arguments (no st.data(), not a
   * machine): draws a case's arguments again from its choices and gives the case their spans (adoptSpans). Set,
   * the generate loop's cases record no spans (TestCase.spansOff: spans were 5–13% of a list's run) unless an
   * observer reads them, and get them here when they are read after all.
   */
  respan: ((tc: TestCase) => void) | undefined = undefined;
  /**
   * Given by the driver for the same properties as respan: draws a case's arguments from `choices` (random draws
   * beyond them) without calling the body; the case with its spans, or undefined when drawing ended it. The
   * explain phase reads a variation's length this way before calling the property once.
   */
  drawOnly:
    ((choices: readonly ChoiceValue[], random: Random, maxChoices: number) => TestCase | undefined) | undefined =
    undefined;

  *run(): Generator<EngineStep, EngineResult, TestCase> {
    const s = this.settings;
    this.observer?.event({
      type: "run-start",
      seed: s.seed,
      settings: {
        maxExamples: s.maxExamples,
        derandomize: s.derandomize,
        deadline: s.deadline,
        database: s.databasePath,
        phases: s.phases,
      },
    });
    if (s.replayChoices !== undefined) return yield* this.replayOnly(s.replayChoices);
    let failure: TestCase | undefined;

    // Explicit examples are the user's own: they neither count toward maxExamples nor stand in for
    // generated inputs when deciding whether the strategies could produce anything valid.
    let explicitValid = 0;
    let explicitRun = 0;
    if (s.phases.includes("explicit") && s.examples.length > 0) {
      this.phase("explicit");
      for (const args of s.examples) {
        const tc = new TestCase([], null, s.maxChoices);
        tc.explicitArgs = [...args];
        yield* this.execute(tc, "explicit");
        if (tc.status === Status.Interesting) return this.failedAsIs(tc, { explicit: true });
        explicitRun++;
        if (tc.status === Status.Valid) explicitValid++;
      }
    }

    // A property whose choices all come from its arguments generates on the log (generationLog.ts). It remembers the
    // cases replayed from the database too, so that generation does not run one again.
    const filteredKeys = new Set<string>();
    const smallCases = Math.min(Math.floor(s.maxExamples / SMALL_SHARE), SMALL_CASES);
    this.log =
      this.respan !== undefined && s.phases.includes("generate") ? new GenerationLog(filteredKeys, smallCases) : null;
    const saved = s.phases.includes("reuse") && s.database !== null ? s.database.fetch(s.databaseKey) : [];
    let savedAt: number | undefined;
    if (saved.length > 0) {
      this.phase("reuse");
      for (const choices of saved) {
        const tc = yield* this.execute(new TestCase(choices, null, s.maxChoices), "reuse");
        // A saved case that passes now (the bug was fixed) is dropped from the database.
        if (tc.status !== Status.Interesting) s.database?.delete(s.databaseKey, choices);
        else if (failure === undefined || this.simpler(tc, failure)) {
          failure = tc;
          savedAt = s.database === null ? undefined : savedAtOf(s.database, choices);
        }
        if (this.flaky !== null) return this.flakyResult(failure, saved);
      }
    }

    let exhausted = false;
    const generating = failure === undefined && s.phases.includes("generate");
    if (generating) {
      this.phase("generate");
      // Counted from here: the explicit and replayed cases before do not use up generation's attempts.
      const limit = this.stats.examples + s.maxExamples * 10 + 100;
      const wanted = s.maxExamples + explicitValid;
      // Shared by the generated cases, one after another (a failure's spans are copied out in finish()).
      const spanStore = takeStore();
      // The DataTree's cursor, made when a case first needs it (a passing run on the log never does).
      let treeCursor: TreeCursor | null = null;
      const cursor = () => (treeCursor ??= new TreeCursor(this.tree, filteredKeys));
      /**
       * The cursor a new generated case gets: none on the log (until the tree steers), watched or not: a watched
       * case goes into the tree from its root when it concludes (finish), drawn on the same path as an unwatched one.
       */
      const cursorFor = (log: GenerationLog | null) => (log === null || log.treeSteers ? cursor() : null);
      // Watches the first cases only (health.ts); dropped once closed, so later cases pay nothing for it.
      let health = HealthWindow.open(s.suppressHealthCheck, s.deadline, s.maxChoices);
      // Targeting: halfway through (by valid examples), the target phase climbs what target() recorded so far.
      const targeting = s.phases.includes("target");
      const targets = new Targets();
      const climbAt = explicitValid + Math.max(Math.floor(s.maxExamples / 2), 1);
      let climbed = !targeting;
      // Repeats the log found before the tree steered do not use up attempts (nothing steered generation away from
      // them), up to as many as the cases run: a space the tree never steers in (the log forgot cases) still ends.
      const more = () =>
        this.stats.valid < wanted &&
        this.stats.examples + this.stats.duplicates - Math.min(this.unsteeredDuplicates, this.stats.examples) < limit;
      const mutations = new Mutations();
      // Variations share storage too, two stores: a new one is never written into the one of the case it varies.
      const variationStores: CaseStore[] = [];
      const mutationHost = {
        random: this.mutationRandom,
        // Through the DataTree cursor like a fresh case: a variation the tree has run is not run again (duplicate).
        run: (choices: readonly ChoiceValue[], base: TestCase) => {
          if (variationStores.length === 0) variationStores.push(takeStore(), takeStore());
          const store = variationStores[variationStores[0].owner === base ? 1 : 0];
          const log = this.log;
          const tc = new TestCase(choices, null, s.maxChoices, cursorFor(log), store);
          tc.seen = log;
          tc.cursor?.reset(tc.data);
          return this.execute(tc, "generate");
        },
        more: () => this.flaky === null && more(),
      };
      // The simplest case first (Hypothesis's "zero data"): a bug that needs nothing is found in one call. Its
      // size bounds how far the first cases grow (a twentieth of the valid examples, at most SMALL_CASES; see
      // TestCase.growthLimit): a bug a small case shows is then found small, and shrinks in a few calls.
      let simplestFirst = true;
      let growthLimit = Infinity;
      const smallUntil = explicitValid + smallCases;
      // Generated cases that the tree need not keep are not kept (DataTree.frugal): memory stays bounded.
      this.frugal(true);
      while (more()) {
        if (this.treeOrNull?.exhausted === true) {
          exhausted = true;
          break;
        }
        if (!climbed && this.stats.valid >= climbAt && targets.best.size > 0) {
          climbed = true;
          failure = yield* this.climb(targets, more);
          if (failure !== undefined || this.flaky !== null) break;
          this.phase("generate");
          continue;
        }
        // Inlined execute(): one generator step per case instead of a delegated generator per case.
        // On the log, the simplest case goes into it like any other; with the tree, it runs without the cursor.
        const log = this.log;
        const tc = simplestFirst
          ? new TestCase(NO_CHOICES, null, s.maxChoices)
          : new TestCase(NO_CHOICES, this.random, s.maxChoices, cursorFor(log), spanStore);
        tc.seen = log;
        if (!simplestFirst && this.stats.valid < smallUntil) tc.growthLimit = growthLimit;
        if (this.observer !== undefined) tc.presenting = true;
        // Spans are recorded only for a case that variations may read (counted, it is example number examples + 1):
        // drawing its arguments again afterwards (respan) cost more than recording them the first time. A watched
        // case's spans are drawn again only if its observer reads them (CaseView): most of a fast run's are not sent.
        if (this.respan !== undefined) tc.spansOff = !mutations.allowed(this.stats.examples + 1);
        // The cursor checks each draw against the kinds recorded on its path (a flaky property's draws differ).
        tc.cursor?.reset(tc.data);
        health?.watch(tc);
        const inline = this.inline;
        if (inline === undefined) yield tc;
        else {
          const pending = inline(tc);
          if (pending !== undefined) yield new Settling(tc, pending);
        }
        this.finish(tc, "generate", undefined);
        if (simplestFirst) {
          simplestFirst = false;
          // Run without the cursor: what its filters accepted is remembered, so no later case runs it again by value
          // (on the log, asking whether it repeats remembered it).
          if (log === null && tc.filtered && !tc.duplicate) repeatsFiltered(filteredKeys, tc.acceptedKey());
          if (tc.status !== Status.Overrun) growthLimit = SMALL_GROWTH * Math.max(tc.choiceCount, 1);
        }
        if (targeting && tc.hasTargets && targets.observe(this.spanned(tc), false)) this.reportTargets(targets, false);
        if (tc.status === Status.Interesting || this.flaky !== null) {
          if (tc.status === Status.Interesting) failure = this.spanned(tc);
          break;
        }
        if (health !== null) {
          const unhealthy = health.record(tc);
          if (unhealthy !== undefined)
            return {
              outcome: "gave-up",
              statistics: this.statistics(),
              reason: unhealthy.message,
              healthCheck: unhealthy.check,
            };
          if (health.closed) health = null;
        }
        // A few variations of the case, with a value repeated (variations.ts). The health window does not count them:
        // it judges what generation alone makes of the strategies.
        if (tc.status !== Status.Overrun && !tc.duplicate && mutations.allowed(this.stats.examples)) {
          failure = yield* mutations.vary(this.spanned(tc), mutationHost);
          if (failure !== undefined || this.flaky !== null) break;
        }
      }
      // A failure (found by a target climb, too) is shrunk with every case run in the tree; a pass drops the log.
      if (failure !== undefined) this.replayLog();
      // The cases kept from here (a failure, a flaky case) took their choices out of the stores (finish, noteFlaky).
      giveBackStores([spanStore, ...variationStores]);
      this.frugal(false);
      if (targeting) this.reportTargets(targets, true);
      if (this.flaky !== null) return this.flakyResult(failure, saved);
      if (failure === undefined && this.treeOrNull?.exhausted === true) exhausted = true;
    }

    this.log?.release();
    this.log = null;

    if (failure === undefined) {
      const gaveUp = this.gaveUp(generating, exhausted, explicitValid, explicitRun);
      if (gaveUp !== undefined) return { outcome: "gave-up", statistics: this.statistics(), reason: gaveUp };
      return { outcome: exhausted ? "exhausted" : "passed", statistics: this.statistics() };
    }

    let targetNodes: readonly ChoiceNode[] = failure.nodes;
    let shrunk: TestCase = failure;
    let shrinkStopped: string | undefined;
    let rejected: readonly (readonly ChoiceNode[])[] = [];
    if (s.phases.includes("shrink")) {
      this.phase("shrink");
      const shrinker = new Shrinker(
        {
          tree: this.tree,
          observer: this.observer,
          execute: (choices, pass, filterRetries) => {
            const tc = new TestCase(choices, null, s.maxChoices);
            tc.filterRetries = filterRetries;
            return this.execute(tc, "shrink", pass);
          },
          stop: () => (this.flaky !== null ? "the property turned out to be flaky" : undefined),
          extraPasses: this.extraPasses,
          ...(this.present !== undefined
            ? {
                present: (nodes: readonly ChoiceNode[]) =>
                  this.present!(
                    nodes.map((n) => n.value),
                    s.maxChoices,
                  ),
              }
            : {}),
        },
        { nodes: failure.nodes, spans: failure.spans, origin: failure.origin, case: failure },
        { maxCalls: s.maxShrinkCalls, maxTimeMs: s.maxShrinkTimeMs },
      );
      const outcome = yield* shrinker.run();
      this.stats.shrinkCalls = outcome.calls;
      this.stats.shrinkCases = outcome.cases;
      this.stats.shrinks = outcome.shrinks;
      shrinkStopped = outcome.stoppedBy;
      if (outcome.target.case !== undefined) shrunk = outcome.target.case;
      if (this.flaky !== null) return this.flakyResult(shrunk, saved, shrinkStopped);
      targetNodes = outcome.target.nodes;
      rejected = shrinker.rejected;
    }

    let free: readonly Slice[] = [];
    if (s.phases.includes("explain")) {
      this.phase("explain");
      free = yield* this.explain(targetNodes.map((n) => n.value));
      if (this.flaky !== null) return this.flakyResult(shrunk, saved, shrinkStopped);
    }

    this.phase("final");
    // The minimal case is minimal only if the answers it rests on still hold: the first failure must fail
    // again, and the simplest candidates rejected on the way must still not fail the same way. Run them
    // again (a deterministic property costs a few calls; one whose behaviour changed is caught), then the
    // minimal case itself, last, for its arguments and error.
    const target = targetNodes.map((n) => n.value);
    const again: (readonly ChoiceValue[])[] = [];
    if (!sameChoices(failure.choices, target)) again.push(failure.choices);
    for (const nodes of rejected) if (compareNodes(nodes, targetNodes).order < 0) again.push(nodes.map((n) => n.value));
    for (const choices of again) {
      yield* this.execute(new TestCase(choices, null, s.maxChoices), "final");
      if (this.flaky !== null) return this.flakyResult(shrunk, saved, shrinkStopped);
    }
    const final = yield* this.execute(new TestCase(target, null, s.maxChoices), "final");
    if (this.flaky === null && final.status !== Status.Interesting) {
      // The DataTree sees a replay that does not fail where the same choices failed; this is the net under it.
      this.flaky = {
        tc: final,
        call: this.calls,
        divergence: {
          kind: "conclusion",
          position: final.choiceCount,
          previous: { status: Status.Interesting, origin: shrunk.origin, call: -1 },
          before: undefined,
          now: undefined,
        },
      };
    }
    if (this.flaky !== null) return this.flakyResult(shrunk, saved, shrinkStopped);
    if (s.database !== null) {
      for (const choices of saved) s.database.delete(s.databaseKey, choices);
      s.database.save(s.databaseKey, final.choices);
    }
    return {
      outcome: "failed",
      statistics: this.statistics(),
      case: final,
      flaky: false,
      shrinkStopped,
      explicit: false,
      free,
      ...(savedAt !== undefined ? { savedAt } : {}),
    };
  }

  /** A pasted replay: its one case, run as given (simplest choices past its end), and what it did. */
  private *replayOnly(choices: readonly ChoiceValue[]): Run<EngineResult> {
    this.phase("reuse");
    const tc = yield* this.execute(new TestCase(choices, null, this.settings.maxChoices), "reuse");
    if (tc.status !== Status.Interesting) return { outcome: "replayed", statistics: this.statistics(), case: tc };
    return this.failedAsIs(tc, { explicit: false, replayed: true });
  }

  /** A failure reported as it happened, neither shrunk nor explained: an explicit example's, a pasted replay's. */
  private failedAsIs(tc: TestCase, how: { explicit: boolean; replayed?: true }): EngineResult {
    return {
      outcome: "failed",
      statistics: this.statistics(),
      case: tc,
      flaky: false,
      shrinkStopped: undefined,
      ...how,
    };
  }

  /**
   * The explain phase (explain.ts) on the minimal case: the slices that vary freely. The case is run once more
   * first, presenting whether events are on or not: a machine then records its steps, whose arguments are
   * the slices.
   */
  private *explain(target: readonly ChoiceValue[]): Run<readonly Slice[]> {
    const s = this.settings;
    const minimal = new TestCase(target, null, s.maxChoices);
    minimal.presenting = true;
    yield* this.execute(minimal, "explain");
    if (minimal.status !== Status.Interesting || this.flaky !== null) return [];
    return yield* explain(minimal, this.slicesOf(minimal), {
      run: (choices, extend) =>
        this.execute(new TestCase(choices, extend ? this.random : null, s.maxChoices), "explain"),
      random: this.random,
      stop: () => this.flaky !== null,
      ...(this.drawOnly !== undefined
        ? { draw: (choices: readonly ChoiceValue[]) => this.drawOnly!(choices, this.random, s.maxChoices) }
        : {}),
    });
  }

  /** The target phase (targetPhase.ts): the failure it ran into, if any. */
  private *climb(targets: Targets, more: () => boolean): Run<TestCase | undefined> {
    const s = this.settings;
    this.phase("target");
    let failure: TestCase | undefined;
    yield* optimise(targets, {
      // On the log like a generated case: a climb that reaches a case already run does not run it again.
      run: (choices) => {
        const tc = new TestCase(choices, this.random, s.maxChoices);
        tc.seen = this.log;
        return this.execute(tc, "target");
      },
      more: () => failure === undefined && this.flaky === null && more(),
      improved: () => this.reportTargets(targets, false),
      failed: (tc) => {
        failure = tc;
      },
    });
    this.reportTargets(targets, true);
    return failure;
  }

  /**
   * Send the best scores when they rose — at most every TARGETS_EVERY_MS (a score rising on every case must not
   * flood the panel), and always when `final` and something was held back.
   */
  private reportTargets(targets: Targets, final: boolean): void {
    if (this.observer === undefined) return;
    const now = clock();
    if (!final) this.targetsHeld = true;
    if (!this.targetsHeld || (!final && now - this.targetsSent < TARGETS_EVERY_MS)) return;
    this.targetsSent = now;
    this.targetsHeld = false;
    this.observer.event({ type: "targets", best: targets.scores() });
  }

  /**
   * Why a run in which nothing failed must not pass, if it must not: nothing ran at all, or no input the
   * strategies produced was valid (each rejected by assume() or a filter, or over the choice budget) —
   * whether the space was exhausted or the attempts ran out.
   */
  private gaveUp(
    generating: boolean,
    exhausted: boolean,
    explicitValid: number,
    explicitRun: number,
  ): string | undefined {
    const s = this.settings;
    const st = this.stats;
    if (st.examples === 0) {
      const why: string[] = [];
      if (!s.phases.includes("generate")) why.push(`"generate" is not among the phases`);
      if (!s.phases.includes("explicit")) why.push(`"explicit" is not among the phases`);
      else if (s.examples.length === 0) why.push("there are no explicit examples");
      if (!s.phases.includes("reuse")) why.push(`"reuse" is not among the phases`);
      else if (s.database === null) why.push("the database is off");
      else why.push("the database holds no saved example of this property");
      return `Nothing was tested: phases ${JSON.stringify(s.phases)} ran no test case (${why.join("; ")})`;
    }
    // With generation, the generated (and replayed) inputs must include a valid one; without, any case.
    const valid = generating ? st.valid - explicitValid : st.valid;
    if (valid > 0) return undefined;
    const rejected =
      st.overrun === 0
        ? `assume() or .filter() rejected all ${st.invalid} test cases`
        : st.invalid === 0
          ? `every test case exceeded the ${s.maxChoices}-choice budget (a strategy draws too much)`
          : `no test case was valid: assume() or .filter() rejected ${st.invalid}, and ${st.overrun} exceeded the ${s.maxChoices}-choice budget (a strategy draws too much)`;
    const space = exhausted
      ? `every possible input was rejected (the input space is exhausted: all ${st.examples - explicitRun} distinct inputs were tried) — `
      : "";
    return `Unable to satisfy the property's preconditions: ${space}${rejected}${gaveUpCheck(st.invalid, st.overrun, s.suppressHealthCheck)}`;
  }

  /**
   * The result of a run stopped by flakiness (this.flaky): the case that disagreed if it failed the way the
   * run's failure did (or there was none), else `failed` (the failure found earlier in the run: another
   * error now, e.g. a deadline exceeded on a re-run, must not hide the property's own failure), else the
   * disagreeing case with a Flaky error — with both outcomes explained. A failing case is saved to the
   * database; a run where nothing failed saves nothing.
   */
  private flakyResult(
    failed: TestCase | undefined,
    saved: readonly (readonly ChoiceValue[])[],
    shrinkStopped?: string,
  ): EngineResult {
    const { tc, call, divergence } = this.flaky as FlakyObservation;
    const now = tc.status === Status.Interesting && (failed === undefined || tc.origin === failed.origin);
    const shown = now ? tc : (failed ?? tc);
    const { what, text } = flakinessText(tc, call, divergence, shown);
    if (shown.status !== Status.Interesting && shown.error === undefined) {
      shown.error = new Flaky(what);
      shown.origin = "Flaky";
    }
    const s = this.settings;
    if (s.database !== null && shown.status === Status.Interesting && shown.explicitArgs === undefined) {
      for (const choices of saved) s.database.delete(s.databaseKey, choices);
      s.database.save(s.databaseKey, shown.choices);
    }
    return {
      outcome: "failed",
      statistics: this.statistics(),
      case: shown,
      flaky: true,
      flakiness: text,
      shrinkStopped,
      explicit: false,
    };
  }

  /** Record the log's cases in the tree (the shrinker's cache; flakiness among them is found here). */
  private replayLog(): void {
    this.log?.replayInto(this.tree, (data, conclusion, call) => this.flakyLogged(data, conclusion, call));
  }

  /**
   * Repeats keep coming: the tree steers generation from here on (generationLog.ts), once it has every case the
   * log holds. Not after the log forgot cases: the tree would not know them, and steer elsewhere than a watched
   * run, whose tree has them all.
   */
  private steerWithTree(): void {
    const log = this.log;
    if (log === null || log.treeSteers || log.forgotten) return;
    this.replayLog();
    log.treeSteers = true;
  }

  /** A repeat of a case already run, found by the log (`small`: a case kept small): it may hand over to the tree. */
  private logRepeat(log: GenerationLog, small: boolean): void {
    if (log.treeSteers) return;
    this.unsteeredDuplicates++;
    if (log.repeatsAdd(small)) this.steerWithTree();
  }

  /** A logged case the tree found flaky as it was replayed into it: its arguments drawn again, the body not called. */
  private flakyLogged(data: ChoiceData, conclusion: Conclusion, call: number): void {
    const s = this.settings;
    const choices = Array.from({ length: data.length }, (_, i) => data.value(i));
    const tc = this.drawOnly?.(choices, this.random, s.maxChoices) ?? new TestCase(choices, null, s.maxChoices);
    tc.status = conclusion.status;
    tc.origin = conclusion.origin;
    this.noteFlaky(tc, call);
  }

  private noteFlaky(tc: TestCase, call: number): void {
    tc.own();
    if (this.flaky === null) this.flaky = { tc, call, divergence: this.tree.divergence as Divergence };
  }

  /** `tc`, with its spans if it was drawn without (TestCase.spansOff). */
  private spanned(tc: TestCase): TestCase {
    if (tc.spansOff) this.respan?.(tc);
    return tc;
  }

  private simpler(a: TestCase, b: TestCase): boolean {
    return a.nodes.length < b.nodes.length;
  }

  private phase(phase: Phase): void {
    this.observer?.event({ type: "phase", phase });
  }

  /** Hand a case to the executor, then record it: statistics, DataTree, events. */
  *execute(tc: TestCase, origin: CaseOrigin, pass?: string): Run<TestCase> {
    if (this.observer !== undefined) tc.presenting = true;
    yield tc;
    return this.finish(tc, origin, pass);
  }

  /** Account for an executed case: statistics, DataTree, events. */
  private finish(tc: TestCase, origin: CaseOrigin, pass: string | undefined): TestCase {
    const st = this.stats;
    const log = this.log;
    if (tc.duplicate) {
      st.duplicates++;
      if (log !== null && tc.seen === log && origin === "generate") this.logRepeat(log, tc.growthLimit !== Infinity);
      return tc;
    }
    if (log !== null && tc.seen === log && !tc.called && !tc.cut && tc.status !== Status.Interesting && log.known(tc)) {
      // Rejected or over the budget again while drawing (the body was not called): a duplicate like any other.
      tc.duplicate = true;
      st.duplicates++;
      if (origin === "generate") this.logRepeat(log, tc.growthLimit !== Infinity);
      return tc;
    }
    const call = ++this.calls;
    // Examples are the cases that searched for a failure. Shrink candidates (counted by the shrinker), the final
    // replays and the explain phase's variations examine a failure already found: not examples, nor their events.
    if (origin !== "shrink" && origin !== "final" && origin !== "explain") {
      st.examples++;
      if (tc.status === Status.Valid) st.valid++;
      else if (tc.status === Status.Invalid) st.invalid++;
      else if (tc.status === Status.Overrun) st.overrun++;
      const events = tc.eventsOrNull;
      if (events !== null) for (const e of events) this.eventCounts[e] = (this.eventCounts[e] ?? 0) + 1;
    }
    if (tc.explicitArgs !== undefined) return tc;
    const observer = this.observer;
    const conclusion = conclusionOf(tc.status, tc.origin);
    // Generation on the log (generationLog.ts), watched or not: the same cases run, the same repeats are skipped.
    // Unwatched, the log keeps the case; watched, the tree does too (the panel draws it), and the log its fingerprint.
    // A case the log did not generate (replayed from the database, climbed by the target phase) or generated once the
    // tree steers goes into the tree, and the log remembers its fingerprint.
    if (log !== null && !tc.cut) {
      if (tc.seen !== log || log.treeSteers) log.remember(tc);
      else if (tc.status === Status.Interesting)
        this.replayLog(); // the cases before it go in first, in call order
      else {
        log.record(tc, conclusion, call, observer === undefined);
        if (observer === undefined) return tc;
      }
    }
    if (observer === undefined) {
      if (
        !tc.cut &&
        this.tree.insert(tc.data, tc.base, tc.choiceCount, conclusion, tc.cursor, null, call) === Inserted.Flaky
      )
        this.noteFlaky(tc, call);
      // A failure is read later (by the shrinker): take it out of the shared storage now.
      if (tc.status === Status.Interesting) tc.own();
      return tc;
    }
    const before = this.tree.nodeCount;
    const depths = this.depthsScratch;
    if (depths.length !== 0) depths.length = 0; // (the length setter is a runtime call even when it changes nothing)
    if (
      !tc.cut &&
      this.tree.insert(tc.data, tc.base, tc.choiceCount, conclusion, tc.cursor, depths, call) === Inserted.Flaky
    )
      this.noteFlaky(tc, call);
    if (tc.status === Status.Interesting) tc.own();
    const tree = this.tree;
    observer.concluded(
      this.view.show(
        tc,
        this.nextId++,
        origin,
        pass,
        tree.nodeCount - before,
        tree.nodeCount,
        depths,
        tree.root.exhausted,
      ),
    );
    this.view.release();
    return tc;
  }
}

export type { ChoiceValue };
