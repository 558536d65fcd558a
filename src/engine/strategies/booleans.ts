/** st.booleans: one boolean choice; shrinks to false. */
import type { BooleanConstraints } from "../choice/types.ts";
import type { TestCase } from "../core/testCase.ts";
import { Strategy } from "./strategy.ts";

const COIN: BooleanConstraints = { p: 0.5 };

class Booleans extends Strategy<boolean> {
  protected doDraw(tc: TestCase): boolean {
    return tc.drawBoolean(COIN);
  }
  override draw(tc: TestCase): boolean {
    return tc.drawBoolean(COIN);
  }
  override distinctValues(): number {
    return 2;
  }
}

/** true or false; shrinks to false. */
export function booleans(): Strategy<boolean> {
  return new Booleans(undefined);
}
