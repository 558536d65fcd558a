/**
 * The argument of a property whose body draws for itself — a state machine's steps, a schedule's decisions:
 * it draws nothing and hands the body the test case to draw from.
 */
import type { TestCase } from "../core/testCase.ts";
import { Strategy } from "./strategy.ts";

export class CaseHandle extends Strategy<TestCase> {
  /** A machine's class: the database key hashes the strategies' fields, so machines of two classes differ. */
  constructor(readonly Class?: Function) {
    super(undefined);
  }
  protected doDraw(tc: TestCase): TestCase {
    return tc;
  }
}
