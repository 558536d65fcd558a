/**
 * The target phase: hill climbing on what `target(value, label)` records.
 *
 * Random generation rarely reaches the far corners a bug may live in (a list whose sum is near its maximum,
 * a queue at its fullest). A property that says what "further" means with `target()` gets a search toward it
 * (targeted property-based testing, after Hypothesis's Optimiser):
 * - During generation, the best valid case per label is kept (`Targets`): the highest score (the first to reach it).
 * - Halfway through generation (by valid examples), each label's best case is climbed in turn: from its last
 *   choice to its first, a choice is moved "k further" — an integer or float by +k and −k, a boolean to true or
 *   false — with k counted from the choice's value when its search began and found by findInteger (1, 2, 3, 4,
 *   8, 16 … then bisecting), a decrease tried only when no increase helped, each attempt run with the rest of
 *   the case as it was and anything it needs beyond that drawn at random. An attempt with a better score (or
 *   an equal score and fewer choices: a sideways move toward simpler cases) becomes the case being climbed, and
 *   the climb goes on from its end, skipping the choices it already examined.
 *   When a move changes how many choices a span takes (a list that grows because its "more" flag flipped), the
 *   attempt's new span is spliced into the old case and run again, so the choices after it keep their meaning.
 * - Rounds repeat with twice the allowance of improvements while any label still improves; the phase ends there
 *   (generation then goes on with its remaining examples), on a failure (which is then shrunk like any other),
 *   or when the example budget is spent. Attempts count as examples: the phase spends the run's budget, it
 *   does not add to it.
 * Strings are not climbed (a string has no "further" that a hill climb can find).
 */
import type { ChoiceNode, ChoiceValue } from "../choice/types.ts";
import { permitted } from "../choice/domain.ts";
import { Status } from "./datatree.ts";
import { findIntegerG } from "./shrinking/findInteger.ts";
import type { Span, TestCase } from "./testCase.ts";

/** A case kept as a label's best: a snapshot (a generated case's storage is reused by the next one). */
export interface Best {
  readonly score: number;
  readonly nodes: readonly ChoiceNode[];
  readonly spans: readonly Span[];
}

function snapshot(tc: TestCase, score: number): Best {
  return { score, nodes: tc.nodes.slice(), spans: tc.spans.slice() };
}

/** The best valid case per label seen so far. */
export class Targets {
  readonly best = new Map<string, Best>();

  /**
   * Take note of a concluded case's observations; true when some label's best score rose. `ties`: an equal
   * score with fewer choices replaces the best too (the climb's sideways moves, toward simpler cases; generation
   * keeps only rises, so that a constant target does not copy every case).
   */
  observe(tc: TestCase, ties: boolean): boolean {
    if (tc.status !== Status.Valid || !tc.hasTargets) return false;
    let rose = false;
    for (const { label, value } of tc.targets) {
      const best = this.best.get(label);
      if (best === undefined || value > best.score) rose = true;
      if (
        best === undefined ||
        value > best.score ||
        (ties && value === best.score && tc.choiceCount < best.nodes.length)
      ) {
        this.best.set(label, snapshot(tc, value));
      }
    }
    return rose;
  }

  /** Each label's best score, for events (own keys whatever the label: `out["__proto__"] = 5` would set no key). */
  scores(): Record<string, number> {
    return Object.fromEntries(Array.from(this.best, ([label, b]) => [label, b.score]));
  }
}

/** What the climb needs from the engine. */
export interface ClimbHost {
  /** Run `choices` as a prefix, with random draws beyond it; the executed case (recorded by the host). */
  run(choices: readonly ChoiceValue[]): Generator<TestCase, TestCase, TestCase>;
  /** Asked before every attempt: false once the example budget is spent, a failure was found, or the run must stop. */
  more(): boolean;
  /** Called when an attempt raised some label's best score. */
  improved(): void;
  /** Called with an attempt that failed (the climb then stops: `more()` says so). */
  failed(tc: TestCase): void;
}

type Climb = Generator<TestCase, boolean, TestCase>;

/** The largest |k| tried: beyond it a score that keeps improving is not bounded (Hypothesis's limit too). */
const MAX_STEP = 2 ** 20;

/**
 * Climb every label's best case, in rounds of growing allowance, until no label improves or `host.more()`
 * says stop. `targets` is kept up to date with every attempt's observations (any label may improve).
 */
export function* optimise(targets: Targets, host: ClimbHost): Generator<TestCase, void, TestCase> {
  const climbers = new Map<string, Climber>();
  let allowance = 10;
  for (;;) {
    let any = false;
    for (const label of [...targets.best.keys()]) {
      if (!host.more()) return;
      let climber = climbers.get(label);
      if (climber === undefined) climbers.set(label, (climber = new Climber(targets, host, label)));
      if ((yield* climber.climb(allowance)) > 0) any = true;
    }
    if (!any || !host.more()) return;
    allowance *= 2;
  }
}

/**
 * One label's climb. It remembers which choices of its best case it has examined across rounds, so a round
 * goes on where the last one stopped instead of trying every choice again (a label at its local maximum costs
 * nothing in later rounds) — unless the best case was replaced by another label's attempt, which starts afresh.
 */
class Climber {
  private examined = new Set<number>();
  private prev: Best | undefined;
  private i = -1;
  /** The best case as this climber last left it. */
  private left: Best | undefined;

  constructor(
    private readonly targets: Targets,
    private readonly host: ClimbHost,
    private readonly label: string,
  ) {}

  private get current(): Best {
    return this.targets.best.get(this.label) as Best;
  }

  /** Improve the best case up to `allowance` times (a choice moved further counts once); the improvements made. */
  *climb(allowance: number): Generator<TestCase, number, TestCase> {
    if (this.current !== this.left) {
      this.examined = new Set();
      this.prev = undefined;
    }
    let improvements = 0;
    while (improvements < allowance && this.host.more()) {
      if (this.prev !== this.current) {
        this.prev = this.current;
        this.i = this.prev.nodes.length - 1;
      }
      const i = this.i;
      if (i < 0) break;
      if (this.examined.has(i)) {
        this.i--;
        continue;
      }
      this.examined.add(i);
      const node = this.current.nodes[i];
      if (node === undefined || node.forced) continue;
      if (node.type !== "integer" && node.type !== "float" && node.type !== "boolean") continue;
      // k counts from the value the choice had when its search began (not from each improvement), so that
      // the search for the furthest improving k is a search of one monotone question and ends exactly at a
      // bound. Down only when up found nothing: a choice whose increase helped rarely helps by decreasing too.
      const from = node.value;
      let moved = yield* findIntegerG((k) => this.replace(i, from, k));
      if (moved === 0) moved = yield* findIntegerG((k) => this.replace(i, from, -k));
      if (moved > 0) improvements++;
    }
    this.left = this.current;
    return improvements;
  }
  /**
   * Set choice `i` of the current best to `from` moved k further; true if that raised the score (the attempt
   * is then the best). A value the choice cannot take, or already has, costs no call.
   */
  private *replace(i: number, from: ChoiceValue, k: number): Climb {
    if (Math.abs(k) > MAX_STEP || !this.host.more()) return false;
    const cur = this.current;
    const node = cur.nodes[i];
    if (node === undefined || node.forced) return false;
    let value: ChoiceValue;
    if (node.type === "boolean") {
      if (Math.abs(k) !== 1) return false;
      value = k === 1;
    } else if (typeof from === "number") value = from + k;
    else return false;
    if (Object.is(value, node.value) || !permitted(node.type, value, node.constraints)) return false;
    const choices = cur.nodes.map((n) => n.value);
    choices[i] = value;
    const tc = yield* this.host.run(choices);
    if (this.consider(tc)) return true;
    if (tc.status === Status.Overrun || tc.status === Status.Interesting || tc.choiceCount === cur.nodes.length)
      return false;
    // The move changed how many choices some span takes: splice the attempt's version of the innermost span
    // holding choice i into the old case, so that what follows keeps its meaning.
    const spans = tc.spans;
    for (let j = cur.spans.length - 1; j >= 0; j--) {
      const old = cur.spans[j] as Span;
      if (old.start > i || old.end <= i) continue;
      const now = spans[j];
      if (now === undefined || now.start !== old.start || now.end - now.start === old.end - old.start) continue;
      const spliced = [
        ...choices.slice(0, old.start),
        ...tc.choices.slice(now.start, now.end),
        ...choices.slice(old.end),
      ];
      if (!this.host.more()) return false;
      return this.consider(yield* this.host.run(spliced));
    }
    return false;
  }

  /**
   * Whether `tc` raised this label's score (the targets are updated either way; a sideways move to a shorter
   * case is kept but does not count: findInteger must not stride along a plateau).
   */
  private consider(tc: TestCase): boolean {
    const before = this.current;
    if (tc.status === Status.Interesting) {
      this.host.failed(tc);
      return false;
    }
    if (this.targets.observe(tc, true)) this.host.improved();
    return this.current.score > before.score;
  }
}
