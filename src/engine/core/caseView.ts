/**
 * The engine's side of observing a run (observer.ts): the ConcludedCase it shows its observer, and the copies
 * of a case an observer keeps to project later.
 */
import { ChoiceData } from "../choice/storage.ts";
import { STATUS_NAMES } from "./datatree.ts";
import type { CaseOrigin, Presentation, StatusName, TestCaseEvent } from "../events/events.ts";
import type { CaseFields, ConcludedCase, KeptCase } from "../events/observer.ts";
import { caseEvent, dataChoiceInfos } from "../events/observer.ts";
import type { TestCase } from "./testCase.ts";
import { spanInfosOf } from "./testCase.ts";

const NO_EVENTS: readonly string[] = Object.freeze([]);
const NO_DEPTHS: readonly number[] = Object.freeze([]);

/**
 * The engine's ConcludedCase: one object per run, pointed at each case in turn (`show`), since it is valid
 * only during the `concluded` call.
 */
export class CaseView implements ConcludedCase {
  private tc: TestCase | undefined;
  constructor(
    /** The case with its spans, drawn again if it was drawn without (TestCase.spansOff): for the cases an observer projects. */
    private readonly spanned: (tc: TestCase) => TestCase,
  ) {}
  id = 0;
  origin: CaseOrigin = "generate";
  pass: string | undefined = undefined;
  newNodes = 0;
  totalNodes = 0;
  exhaustedDepths: readonly number[] = NO_DEPTHS;
  rootExhausted = false;

  show(
    tc: TestCase,
    id: number,
    origin: CaseOrigin,
    pass: string | undefined,
    newNodes: number,
    totalNodes: number,
    exhaustedDepths: readonly number[],
    rootExhausted: boolean,
  ): this {
    this.tc = tc;
    this.id = id;
    this.origin = origin;
    this.pass = pass;
    this.newNodes = newNodes;
    this.totalNodes = totalNodes;
    this.exhaustedDepths = exhaustedDepths.length > 0 ? exhaustedDepths.slice() : NO_DEPTHS;
    this.rootExhausted = rootExhausted;
    return this;
  }

  private get case(): TestCase {
    if (this.tc === undefined)
      throw new Error("Shrinkscope internal error: a concluded case was read outside its call");
    return this.tc;
  }
  /** The case, its spans drawn again first if it was drawn without. */
  private withSpans(): TestCase {
    return this.spanned(this.case);
  }
  get status(): StatusName {
    return STATUS_NAMES[this.case.status];
  }
  get choiceCount(): number {
    return this.case.choiceCount;
  }
  get spanCount(): number {
    return this.withSpans().spanCount;
  }
  get presentation(): Presentation | undefined {
    return this.case.presentation;
  }
  get args(): readonly unknown[] | undefined {
    const tc = this.case;
    return tc.presentation === undefined ? tc.args : undefined;
  }

  fields(): CaseFields {
    const tc = this.case;
    return {
      id: this.id,
      origin: this.origin,
      pass: this.pass,
      status: STATUS_NAMES[tc.status],
      durationMs: tc.durationMs,
      events: tc.eventsOrNull ?? NO_EVENTS,
      presentation: tc.presentation,
    };
  }

  event(): TestCaseEvent {
    const tc = this.withSpans();
    return caseEvent(this.fields(), dataChoiceInfos(tc.data, tc.choiceCount), tc.spanInfos());
  }

  keep(reuse?: KeptCase): KeptCase {
    const kept = reuse instanceof KeptCopy ? reuse : new KeptCopy();
    kept.take(this.fields(), this.withSpans());
    return kept;
  }

  /** Done with the call: the case may be reused. */
  release(): void {
    this.tc = undefined;
  }
}

/** A kept copy of a case's event data: its choices and spans copied out of storage that is reused. */
class KeptCopy implements KeptCase {
  private fields: CaseFields | undefined;
  private data = new ChoiceData(16);
  private readonly labels: string[] = [];
  private readonly nums: number[] = [];
  private spans = 0;

  take(fields: CaseFields, tc: TestCase): void {
    this.fields = fields;
    this.data.assign(tc.data, tc.choiceCount);
    this.spans = tc.copySpans(this.labels, this.nums);
  }

  event(): TestCaseEvent {
    return caseEvent(
      this.fields as CaseFields,
      dataChoiceInfos(this.data, this.data.length),
      spanInfosOf(this.labels, this.nums, this.spans),
    );
  }
}
