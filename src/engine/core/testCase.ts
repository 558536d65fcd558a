/**
 * A TestCase is one run of the property: the choices it drew, the spans that say which strategy call drew
 * which run of choices, and how it ended.
 *
 * Where values come from, in order: a forced value (the strategy fixed it); the replayed prefix (a value
 * that no longer fits its constraints is replaced by the simplest legal one — "misaligned"); fresh random
 * generation steered by the DataTree away from exhausted subtrees; or, when replaying without randomness
 * (shrinking), the simplest legal value. A case that draws more than `maxChoices` stops as an overrun, so no
 * strategy can loop forever; the characters of strings (UTF-16 code units) and the bytes of byte arrays count
 * toward that budget too, one each, so no case can grow without bound inside a single choice either.
 *
 * The choices are stored flat (choice/storage.ts, ChoiceData: kind, constraints, value per choice, numbers unboxed),
 * which the DataTree copies what it keeps from; `nodes` builds ChoiceNode objects from it on demand. Generated
 * cases share one storage (a CaseStore), reused case after case; a case the engine keeps is given its own copy
 * first (`own`). Notes, events, targets
 * and interactive draws are made only when first used, so a plain generated case allocates little.
 */
import type {
  BooleanConstraints,
  BytesConstraints,
  StringConstraints,
  ChoiceNode,
  ChoiceType,
  ChoiceValue,
  Choices,
  Constraints,
  ConstraintsOf,
  IntegerConstraints,
  ValueOf,
} from "../choice/types.ts";
import { ChoiceData, FORCED_BIT, nodeAt, typeCode } from "../choice/storage.ts";
import { choiceText } from "../choice/identity.ts";
import { choiceFromIndex } from "../choice/complexityIndex.ts";
import { domainSize, permitted, simplest } from "../choice/domain.ts";
import { Status } from "./datatree.ts";
import { InvalidArgument } from "../util/errors.ts";
import type { TreeCursor } from "./datatree.ts";
import { generateChoice, generateInteger } from "./distribution.ts";
import type { Random } from "../util/random.ts";
import type { Presentation, SpanInfo } from "../events/events.ts";
import { now } from "../util/clock.ts";
import { notedStringHash } from "./fingerprints.ts";

/** A labelled run of choices [start, end) drawn by one strategy call. */
export interface Span {
  readonly label: string;
  readonly start: number;
  end: number;
  readonly depth: number;
  readonly parent: number;
  /** Set when the strategy threw the span's draws away (a rejected filter attempt, a duplicate). */
  discarded: boolean;
}

/** What a case generated on the generation log asks of it (generationLog.ts). */
export interface SeenCases {
  /** Whether `tc`, its arguments drawn, is a case already run (or reached values a filter accepted before). */
  repeats(tc: TestCase): boolean;
  /** Whether the DataTree steers generation now (repeats showed a small space): the case's cursor steers. */
  readonly treeSteers: boolean;
}

/** Thrown to unwind a test case that has concluded early (overrun or rejected); never seen by users. */
export class StopTest extends Error {
  constructor(readonly status: Status) {
    super("Shrinkscope StopTest (internal control flow)");
  }
}

const MAX_SPAN_DEPTH = 400;
const INTEGER_CODE = typeCode("integer");
const BOOLEAN_CODE = typeCode("boolean");
const STRING_CODE = typeCode("string");
/** How many recent integers near-value generation picks from (a power of two). */
const RECENT = 8;

export interface TargetObservation {
  readonly label: string;
  readonly value: number;
}

const NO_ARGS: unknown[] = [];

/** Numbers per span in a CaseStore: start, end, depth, parent, discarded (0/1). */
const SPAN_STRIDE = 5;

/** The first `count` spans of flat span storage (a CaseStore's labels and numbers) as SpanInfo. */
export function spanInfosOf(labels: readonly string[], nums: readonly number[], count: number): SpanInfo[] {
  const out = new Array<SpanInfo>(count);
  for (let k = 0; k < count; k++) {
    const at = k * SPAN_STRIDE;
    out[k] = {
      label: labels[k],
      start: nums[at],
      end: nums[at + 1],
      depth: nums[at + 2],
      discarded: nums[at + 4] === 1,
    };
  }
  return out;
}

/**
 * Flat span and choice storage. Generated cases share one store, reused case after case (spans are only read
 * for failures and event taps, and the engine reads those, or takes a copy, before the next case), so
 * generating allocates no span objects and no choice arrays; `TestCase.spans` builds span objects on demand.
 */
export class CaseStore {
  readonly labels: string[] = [];
  readonly nums: number[] = [];
  count = 0;
  constructor(
    /** The choices of the case writing into this store now. */
    readonly choices: ChoiceData = new ChoiceData(64),
  ) {}
  /** The case writing into this store now (a shared store), or null (a case's own); "given back" between runs. */
  owner: TestCase | "given back" | null = null;
  /** The ring of the integers its case generated last (TestCase.recentCount of them), reused case after case. */
  readonly recent: number[] = [];
  /** TestCase.rangeStack's storage, reused case after case. */
  readonly ranges: number[] = [];
}

/** Stores a run gave back (giveBackStores), for the next run's generated cases: the engine's stores, as many as one run takes. */
const spareStores: CaseStore[] = [];
/** A store held at most this many choices is kept for the next run (a store grows with the largest case it held). */
const SPARE_STORE_CHOICES = 1024;

/**
 * A store for a run's generated cases: one a finished run gave back, or a new one. A store's typed arrays past
 * 64 bytes live off the JS heap, slow to make: a run of one example made one more than it ran cases.
 */
export function takeStore(): CaseStore {
  return spareStores.pop() ?? new CaseStore();
}

/**
 * Give a run's stores back once no case it still reads writes into them: the next run's cases reuse them. A case
 * of this run that reads its choices later must have taken them out first (own()), or it reads another run's.
 */
export function giveBackStores(stores: readonly CaseStore[]): void {
  for (const store of stores) {
    if (spareStores.length >= 4 || store.choices.codes.length > SPARE_STORE_CHOICES) continue;
    store.owner = "given back"; // a case still reading it is an engine bug: checkLive throws
    store.choices.objects = null; // the strings and bytes it held are not kept alive
    spareStores.push(store);
  }
}

export class TestCase {
  /**
   * The choices, flat (see choice/storage.ts), choice i at position base + i (base is 0: the DataTree API takes a
   * base so that cases could share storage). Append-only while the case runs.
   */
  data: ChoiceData;
  readonly base = 0;
  /** Number of choices drawn so far. */
  choiceCount = 0;
  /** Characters and bytes in the string and bytes choices so far: they count toward `maxChoices` too. */
  private elements = 0;
  private nodeCache: ChoiceNode[] | null = null;
  private spanStore: CaseStore;
  private spanCache: Span[] | null = null;
  status: Status = Status.Valid;
  misaligned = 0;
  /** For interesting cases: the error and which failure it is (type and location), set by the executor. */
  error: unknown = undefined;
  origin: string | undefined = undefined;
  /** The arguments the body was called with, and how long the call took (timed when a deadline or event tap needs it). */
  args: unknown[] = NO_ARGS;
  durationMs = 0;
  /** Time spent drawing the arguments (ms), measured only when the engine asks by setting it to 0 (health.ts). */
  drawMs = -1;
  /**
   * The case whose choices this one draws again without calling the body, to print pristine arguments (report.ts):
   * a strategy whose value records what the body did with it (st.functions' calls) hands back the original's.
   */
  redrawOf: TestCase | null = null;
  /** For explicit examples: the arguments to call the body with, instead of drawing them. */
  explicitArgs: unknown[] | undefined = undefined;
  /** The arguments were drawn and the DataTree already had this exact case: the body was not called. */
  duplicate = false;
  /**
   * Set on a case generated on the log (generationLog.ts): the log that says whether its arguments draw a case
   * already run. Such a case is steered by the DataTree only once the log says the tree steers (before that, a
   * watched run's cursor only follows it, so that the tree records it cheaply).
   */
  seen: SeenCases | null = null;
  /** The body was called: a case a filter rejected or that overran while its arguments were drawn was not. */
  called = false;
  /**
   * Ended by cutShort(): a filter rejected its first attempt where it may not retry. Not a conclusion of these
   * choices (with retries, the same choices go on to a second attempt), so the DataTree does not record it.
   */
  cut = false;
  /**
   * While generating, lists stop adding elements once the case holds this many choices (their "more" flag is
   * generated false; replays are unaffected): the engine keeps its first cases small this way.
   */
  growthLimit = Infinity;
  /** Whether a filter may draw again after a rejected attempt (the shrinker turns it off: ShrinkHost.execute). */
  filterRetries = true;
  /** Whether a filter drew in this case (then acceptedKey tells its values apart). */
  filtered = false;
  /** The label of the filter that rejected the case (`.filter(p, label)`), for the filterTooMuch health check. */
  rejectedBy: string | undefined = undefined;
  /** The choice ranges of the attempts filters rejected in this case: start, end pairs. */
  private rejectedRanges: number[] | null = null;
  private notesList: string[] | null = null;
  private eventsList: string[] | null = null;
  private targetsList: TargetObservation[] | null = null;
  private drawsList: { label: string | undefined; value: unknown }[] | null = null;
  /** How many of the last few integers generated in this case (a ring of RECENT in the store) are there, for near-value generation. */
  private recentCount = 0;
  private recentNext = 0;
  private openSpan = -1;
  private depth = 0;
  /**
   * Values to generate next instead of random ones (while they fit): how a list repeats an earlier element
   * during generation, so duplicates are common. Only consulted when generating, never when replaying.
   */
  replayQueue: ChoiceValue[] | null = null;
  private replayNext = 0;
  /** Recursion bookkeeping for st.recursive: leaves drawn in the current top-level recursive value. */
  recursionLeaves = 0;
  /** Set by the engine when events are on: the body then describes the case in `presentation` (a machine's steps). */
  presenting = false;
  presentation: Presentation | undefined = undefined;
  /** Structure the body recorded for shrink passes of its own (a machine's steps and bundle draws; machine.ts). */
  trace: unknown = undefined;

  /** The choices as ChoiceNode objects (built on first use, extended as more are drawn). */
  get nodes(): ChoiceNode[] {
    this.checkLive();
    let cache = this.nodeCache;
    if (cache === null) cache = this.nodeCache = [];
    for (let i = cache.length; i < this.choiceCount; i++) cache.push(nodeAt(this.data, this.base + i));
    return cache;
  }

  /** The type code of choice i (choice/storage.ts: typeCode). */
  typeCodeAt(i: number): number {
    return this.data.codes[this.base + i] & ~FORCED_BIT;
  }

  /** The value of choice i. */
  valueAt(i: number): ChoiceValue {
    return this.data.value(this.base + i);
  }

  /** Human-readable notes (note()), events (event()) and target observations (target()). */
  get notes(): string[] {
    return (this.notesList ??= []);
  }
  get events(): string[] {
    return (this.eventsList ??= []);
  }
  /** The events, or null if none were recorded (without allocating). */
  get eventsOrNull(): readonly string[] | null {
    return this.eventsList;
  }
  get targets(): TargetObservation[] {
    return (this.targetsList ??= []);
  }
  /**
   * Run `draw`, adding its time to drawMs (the tooSlow health check). Callers ask only when drawMs >= 0, so an
   * unwatched case pays neither the clock nor the closure.
   */
  timedDraw<T>(draw: () => T): T {
    const t0 = now();
    try {
      return draw();
    } finally {
      this.drawMs += now() - t0;
    }
  }
  /** Whether target() was called (without allocating). */
  get hasTargets(): boolean {
    return this.targetsList !== null && this.targetsList.length > 0;
  }
  /** The values drawn interactively (st.data()), for printing. */
  get interactiveDraws(): { label: string | undefined; value: unknown }[] {
    return (this.drawsList ??= []);
  }

  constructor(
    readonly prefix: Choices,
    readonly random: Random | null,
    readonly maxChoices: number,
    readonly cursor: TreeCursor | null = null,
    /** Storage shared case after case (generation), instead of its own. */
    store: CaseStore | null = null,
  ) {
    if (store !== null) {
      store.owner = this;
      store.count = 0;
      store.choices.clear();
      this.spanStore = store;
      this.data = store.choices;
    } else {
      this.data = new ChoiceData();
      this.spanStore = new CaseStore(this.data);
    }
  }

  /**
   * A stack of numbers strategies use while drawing, up to `rangeTop`: each writes above the top it found and
   * sets the top back before it returns (lists keep their elements' choice ranges here, not an array per list).
   */
  get rangeStack(): number[] {
    return this.spanStore.ranges;
  }
  rangeTop = 0;

  /** Throws if this case's shared storage was taken by a later case (an engine bug: it should have called own()). */
  private checkLive(): void {
    const owner = this.spanStore.owner;
    if (owner !== null && owner !== this)
      throw new Error("Shrinkscope internal error: the storage of this test case was recycled");
  }

  /**
   * Take this case's choices and spans out of the shared storage, so that they outlive the next case (the
   * engine keeps failures and flaky cases). Idempotent; a case with storage of its own is unchanged.
   */
  own(): void {
    const store = this.spanStore;
    if (store.owner !== this) return;
    void this.spans;
    this.data = store.choices.copy();
    const own = new CaseStore(this.data);
    own.labels.push(...store.labels.slice(0, store.count));
    own.nums.push(...store.nums.slice(0, store.count * SPAN_STRIDE));
    own.count = store.count;
    this.spanStore = own;
  }

  /** The spans, as objects (built on first use; a case using a shared CaseStore must be read before the next case starts). */
  get spans(): Span[] {
    if (this.spanCache !== null) return this.spanCache;
    this.checkLive();
    const store = this.spanStore;
    const out = new Array<Span>(store.count);
    const nums = store.nums;
    for (let k = 0; k < store.count; k++) {
      const at = k * SPAN_STRIDE;
      out[k] = {
        label: store.labels[k],
        start: nums[at],
        end: nums[at + 1],
        depth: nums[at + 2],
        parent: nums[at + 3],
        discarded: nums[at + 4] === 1,
      };
    }
    return (this.spanCache = out);
  }

  /** The spans as plain SpanInfo data for events, read straight from the store (no Span objects). */
  spanInfos(): SpanInfo[] {
    this.checkLive();
    const store = this.spanStore;
    return spanInfosOf(store.labels, store.nums, store.count);
  }

  /** Copy the spans' labels and numbers into `labels` and `nums` (overwriting them); returns how many. */
  copySpans(labels: string[], nums: number[]): number {
    this.checkLive();
    const store = this.spanStore;
    for (let k = 0; k < store.count; k++) labels[k] = store.labels[k];
    for (let k = 0; k < store.count * SPAN_STRIDE; k++) nums[k] = store.nums[k];
    return store.count;
  }

  /** Number of spans started so far. */
  get spanCount(): number {
    return this.spanStore.count;
  }

  /** Span k's label, and where its choices start and end (end = start when empty or discarded: variations.ts skips those), read straight from the store. */
  spanLabel(k: number): string {
    return this.spanStore.labels[k];
  }
  spanStart(k: number): number {
    return this.spanStore.nums[k * SPAN_STRIDE];
  }
  spanEnd(k: number): number {
    const nums = this.spanStore.nums;
    return nums[k * SPAN_STRIDE + 4] === 1 ? nums[k * SPAN_STRIDE] : nums[k * SPAN_STRIDE + 1];
  }

  /** Draw one choice. `forced` fixes the value (it is recorded, never shrunk). */
  draw<T extends ChoiceType>(type: T, constraints: ConstraintsOf[T], forced?: ValueOf[T]): ValueOf[T] {
    const i = this.choiceCount;
    if (i >= this.maxChoices) {
      this.status = Status.Overrun;
      throw new StopTest(Status.Overrun);
    }
    let value: ChoiceValue;
    const code = typeCode(type);
    let kind = code;
    // Strings and bytes (codes 3 and 4): a value that cannot fit in what is left of the budget is never made.
    if (code >= 3 && i + 1 + this.elements + (constraints as BytesConstraints).minSize > this.maxChoices)
      this.overBudget(code, constraints as BytesConstraints);
    if (forced !== undefined) {
      value = forced;
      kind |= FORCED_BIT;
    } else if (i < this.prefix.length) {
      value = this.prefix[i];
      if (!permitted(type, value, constraints)) {
        this.misaligned++;
        value = simplest(type, constraints);
      }
    } else if (this.random !== null) {
      const queued = this.replayQueue;
      // A queued value is steered like a generated one: one that leads only to cases already run is dropped
      // (with the queue). Unsteered, a small case's forced "no more elements" repeated the same few exhausted
      // cases as duplicates until the run's attempts ran out, and the run passed after a handful of calls.
      if (
        queued !== null &&
        this.replayNext < queued.length &&
        permitted(type, queued[this.replayNext], constraints) &&
        !this.exhaustedBelow(type, queued[this.replayNext])
      ) {
        value = queued[this.replayNext++];
      } else {
        this.replayQueue = null;
        value = this.generate(type, constraints, this.random);
      }
      if (code >= 3) value = this.fitted(type, constraints, i, value as string | Uint8Array);
    } else {
      value = simplest(type, constraints);
    }
    if (code >= 3) this.countElements(code, constraints as BytesConstraints, i, (value as string | Uint8Array).length);
    this.data.push(kind, constraints as Constraints, value);
    if (code === STRING_CODE) this.data.values[i] = notedStringHash(value as string);
    this.choiceCount = i + 1;
    this.advanceCursor(type, value);
    return value as ValueOf[T];
  }

  /**
   * draw("boolean", c) — the same value, the same randomness — with the path of a fresh draw made straight (a
   * list draws one before each element): none of draw()'s checks for forced, replayed or queued values.
   */
  drawBoolean(c: BooleanConstraints): boolean {
    const random = this.freshRandom();
    if (random === null) return this.draw("boolean", c);
    const value = this.generate("boolean", c, random) as boolean;
    this.data.pushNumber(BOOLEAN_CODE, c, value ? 1 : 0);
    this.choiceCount++;
    this.advanceCursor("boolean", value);
    return value;
  }

  /** draw("integer", c), made straight in the same way as drawBoolean. */
  drawInteger(c: IntegerConstraints): number {
    const random = this.freshRandom();
    if (random === null) return this.draw("integer", c);
    const value = this.generate("integer", c, random) as number;
    this.data.pushNumber(INTEGER_CODE, c, value);
    this.choiceCount++;
    this.advanceCursor("integer", value);
    return value;
  }

  /**
   * The randomness when the draws from here on are generated with nothing to steer or record around them — no
   * prefix left, nothing queued, no DataTree cursor, spans off, nesting far from its limit — else null. A
   * collection's loop then draws its flags and primitive elements with the `fresh…` methods, which skip what
   * such a draw cannot need (the same values from the same randomness as drawBoolean and drawInteger).
   */
  freshStream(): Random | null {
    return this.cursor === null &&
      this.spansOff &&
      this.replayQueue === null &&
      this.choiceCount >= this.prefix.length &&
      this.depth < MAX_SPAN_DEPTH - 2
      ? this.random
      : null;
  }

  /** drawBoolean(c) inside a loop that freshStream() gave `random` (what may have changed since is checked). */
  freshBoolean(c: BooleanConstraints, random: Random): boolean {
    const i = this.choiceCount;
    if (i >= this.maxChoices || this.replayQueue !== null) return this.drawBoolean(c);
    const value = random.bool(c.p);
    this.data.pushNumber(BOOLEAN_CODE, c, value ? 1 : 0);
    this.choiceCount = i + 1;
    return value;
  }

  /** drawInteger(c) inside a loop that freshStream() gave `random`, as freshBoolean. */
  freshInteger(c: IntegerConstraints, random: Random): number {
    const i = this.choiceCount;
    if (i >= this.maxChoices || this.replayQueue !== null) return this.drawInteger(c);
    const value = this.generateInteger(c, random);
    this.data.pushNumber(INTEGER_CODE, c, value);
    this.choiceCount = i + 1;
    return value;
  }

  /**
   * drawInteger(c) answered by a queue holding just `value` (a list repeating an integer element), inside a loop
   * that freshStream() allowed: the value pushed as it stands, unless the budget or a queue says otherwise.
   */
  repeatInteger(c: IntegerConstraints, value: number): number {
    const i = this.choiceCount;
    if (i < this.maxChoices && this.replayQueue === null) {
      this.data.pushNumber(INTEGER_CODE, c, value);
      this.choiceCount = i + 1;
      return value;
    }
    this.setReplayQueue([value]);
    const v = this.drawInteger(c);
    this.setReplayQueue(null);
    return v;
  }

  /** draw("string", c), made straight in the same way as drawBoolean (the budget kept as draw() keeps it). */
  drawString(c: StringConstraints): string {
    const random = this.freshRandom();
    const i = this.choiceCount;
    if (random === null || i + 1 + this.elements + c.minSize > this.maxChoices) return this.draw("string", c);
    const value = this.fitted("string", c, i, this.generate("string", c, random) as string) as string;
    this.countElements(STRING_CODE, c, i, value.length);
    this.data.push(STRING_CODE, c, value);
    this.data.values[i] = notedStringHash(value);
    this.choiceCount = i + 1;
    this.advanceCursor("string", value);
    return value;
  }

  /**
   * The randomness when draw() would generate the next choice fresh — within the budget, nothing replayed or
   * queued — else null.
   */
  private freshRandom(): Random | null {
    const i = this.choiceCount;
    if (i < this.prefix.length || this.replayQueue !== null || i >= this.maxChoices) return null;
    return this.random;
  }

  /** A fresh integer, noted among the recent ones (generateInteger's near values). */
  private generateInteger(c: IntegerConstraints, random: Random): number {
    const recent = this.spanStore.recent;
    const v = generateInteger(c, random, recent, this.recentCount);
    recent[this.recentNext] = v;
    if (this.recentCount < RECENT) this.recentCount++;
    this.recentNext = (this.recentNext + 1) & (RECENT - 1);
    return v;
  }

  /**
   * A fresh string or byte string `value` for choice i, or the simplest one when it does not fit in what is left
   * of the budget (astral characters are two units each): had it ended the case as an overrun, the same prefix
   * would overrun on one draw and go on on another — a flaky run. When even the simplest does not fit,
   * countElements' overrun no longer depends on the random draw.
   */
  private fitted(type: ChoiceType, c: ConstraintsOf[ChoiceType], i: number, value: string | Uint8Array): ChoiceValue {
    return i + 1 + this.elements + value.length > this.maxChoices ? simplest(type, c) : value;
  }

  /** Count the `length` characters or bytes of choice i toward the budget: an overrun (or misuse) when they do not fit. */
  private countElements(code: number, c: BytesConstraints, i: number, length: number): void {
    const elements = this.elements + length;
    if (i + 1 + elements > this.maxChoices) this.overBudget(code, c);
    this.elements = elements;
  }

  /**
   * A string or bytes choice does not fit in the budget: an overrun, or, when even the shortest legal value can
   * never fit in an empty case, the strategy's misuse (an endless run of overruns would only say "too much").
   */
  private overBudget(code: number, c: BytesConstraints): never {
    if (c.minSize + 1 > this.maxChoices) {
      const api = code === 3 ? "st.text" : "st.bytes";
      const unit = code === 3 ? "character" : "byte";
      throw new InvalidArgument(
        `${api}: minSize (${c.minSize}) can never fit in the choice budget of a test case (maxChoices is ${this.maxChoices}, and each ${unit} counts as one choice); raise the maxChoices setting above ${c.minSize} or lower minSize`,
      );
    }
    this.status = Status.Overrun;
    throw new StopTest(Status.Overrun);
  }

  /** Generate these values next (while they fit), instead of random ones; null to stop. */
  setReplayQueue(values: ChoiceValue[] | null): void {
    this.replayQueue = values;
    this.replayNext = 0;
  }

  /**
   * Whether queued values are still waiting to be generated: a strategy that queues values of its own (a list's
   * repeated element, a collection's planned entries) leaves a queue another one set alone, so an outer plan is
   * followed through the strategies nested in it.
   */
  get queueing(): boolean {
    const queued = this.replayQueue;
    return queued !== null && this.replayNext < queued.length;
  }

  /** Follow the DataTree cursor past the value just drawn, while it is in the tree. */
  private advanceCursor(type: ChoiceType, value: ChoiceValue): void {
    const cursor = this.cursor;
    if (cursor !== null && cursor.alive) cursor.advance(type, value);
  }

  /**
   * Whether drawing `value` next leads only to cases the DataTree has run (false without a live cursor, and for a
   * case generated on the log: a watched run's cursor only follows, so that it draws what an unwatched one draws).
   */
  private exhaustedBelow(type: ChoiceType, value: ChoiceValue): boolean {
    const cursor = this.cursor;
    const seen = this.seen;
    return (
      cursor !== null && (seen === null || seen.treeSteers) && cursor.alive && cursor.leadsToExhausted(type, value)
    );
  }

  /** A fresh value, avoiding values below which the DataTree says everything has been run. */
  private generate(type: ChoiceType, constraints: ConstraintsOf[ChoiceType], random: Random): ChoiceValue {
    // Integers: now and then a value next to one drawn earlier in this case (generateInteger): "x == y + 1" bugs.
    const value =
      type === "integer"
        ? this.generateInteger(constraints as IntegerConstraints, random)
        : generateChoice(type, constraints, random);
    return this.exhaustedBelow(type, value) ? this.steer(type, constraints, random, value) : value;
  }

  /** Another value than `value`, which leads only to cases already run: one that does not, if one is found. */
  private steer(
    type: ChoiceType,
    constraints: ConstraintsOf[ChoiceType],
    random: Random,
    value: ChoiceValue,
  ): ChoiceValue {
    const cursor = this.cursor as TreeCursor;
    for (let attempt = 0; attempt < 3; attempt++) {
      const v = generateChoice(type, constraints, random);
      if (!cursor.leadsToExhausted(type, v)) return v;
    }
    // Small domains: walk the indices from a random start to find a value not yet exhausted.
    const size = domainSize(type, constraints);
    if (size <= 1 << 16) {
      const start = random.int(0, size - 1);
      for (let k = 0; k < size; k++) {
        const v = choiceFromIndex(type, BigInt((start + k) % size), constraints);
        if (!cursor.leadsToExhausted(type, v)) return v;
      }
    }
    return value;
  }

  /**
   * Set by the engine on a generated case whose spans nothing may read (no observer, a plain property): its
   * draws record none (the nesting depth is still counted), and the engine gives it the spans of its choices
   * drawn again (adoptSpans) if it turns out to be read after all — a failure, a case varied or climbed from.
   */
  spansOff = false;

  /** Take the spans `replay` recorded drawing this case's choices again (see spansOff). */
  adoptSpans(replay: TestCase): void {
    this.checkLive();
    const to = this.spanStore;
    to.count = replay.copySpans(to.labels, to.nums);
    this.spanCache = null;
    this.spansOff = false;
  }

  startSpan(label: string): void {
    // Nesting this deep is a strategy recursing without end: stop as an overrun before the stack overflows.
    if (this.depth >= MAX_SPAN_DEPTH) {
      this.status = Status.Overrun;
      throw new StopTest(Status.Overrun);
    }
    if (this.spansOff) {
      this.depth++;
      return;
    }
    const store = this.spanStore;
    const k = store.count++;
    const at = k * SPAN_STRIDE;
    const nums = store.nums;
    store.labels[k] = label;
    nums[at] = this.choiceCount;
    nums[at + 1] = -1;
    nums[at + 2] = this.depth;
    nums[at + 3] = this.openSpan;
    nums[at + 4] = 0;
    this.openSpan = k;
    this.depth++;
    this.spanCache = null;
  }

  endSpan(discard = false): void {
    if (this.spansOff) {
      this.depth--;
      return;
    }
    const at = this.openSpan * SPAN_STRIDE;
    const nums = this.spanStore.nums;
    nums[at + 1] = this.choiceCount;
    nums[at + 4] = discard ? 1 : 0;
    this.openSpan = nums[at + 3];
    this.depth--;
    this.spanCache = null;
  }

  /** End the case as invalid (assume(false), an exhausted filter). */
  reject(): never {
    this.status = Status.Invalid;
    throw new StopTest(Status.Invalid);
  }

  /** Close spans left open by an exception, so that spans are always well formed. */
  closeOpenSpans(): void {
    while (this.openSpan >= 0) this.endSpan();
  }

  /** A filter rejected the attempt that drew choices [start, end). */
  rejectedAttempt(start: number, end: number): void {
    (this.rejectedRanges ??= []).push(start, end);
  }

  /**
   * The case's choices without those of the attempts its filters rejected, as text: two cases with equal keys drew
   * the same values, though their choice sequences differ (a value the bias favours, reached again after other
   * rejected attempts). The generate phase counts such a case as a duplicate (executor.ts).
   */
  acceptedKey(): string {
    const ranges = this.rejectedRanges;
    const parts: string[] = [];
    for (let i = 0; i < this.choiceCount; i++) {
      if (ranges !== null && insideRange(ranges, i)) continue;
      parts.push(choiceText(this.data.value(i)));
    }
    return parts.join(",");
  }

  /** Whether the next draw will be freshly generated (not replayed from the prefix). */
  get generating(): boolean {
    return this.random !== null && this.choiceCount >= this.prefix.length;
  }

  /**
   * End the case as rejected by a filter (its first attempt failed and it may not retry: `filterRetries`),
   * without the DataTree recording it (see `cut`).
   */
  cutShort(): never {
    this.cut = true;
    this.status = Status.Invalid;
    throw new StopTest(Status.Invalid);
  }

  /** The value sequence, for replay and the database. */
  get choices(): ChoiceValue[] {
    this.checkLive();
    const out = new Array<ChoiceValue>(this.choiceCount);
    const data = this.data;
    for (let i = 0; i < out.length; i++) out[i] = data.value(this.base + i);
    return out;
  }
}

/** Whether position i lies in one of the [start, end) pairs of `ranges`. */
function insideRange(ranges: readonly number[], i: number): boolean {
  for (let k = 0; k < ranges.length; k += 2) if (i >= ranges[k]! && i < ranges[k + 1]!) return true;
  return false;
}
