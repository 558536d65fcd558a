/** st.data: draw inside the property body, when what to draw depends on earlier values; the draws print on failure. */
import { getCurrent } from "../core/context.ts";
import type { TestCase } from "../core/testCase.ts";
import { requireStrategy, Strategy } from "./strategy.ts";

/** Draw inside the property body, when what to draw depends on earlier values. */
export interface DataObject {
  draw<T>(strategy: Strategy<T>, label?: string): T;
}

class Data extends Strategy<DataObject> {
  constructor() {
    super(undefined);
  }
  protected doDraw(tc: TestCase): DataObject {
    const object: DataObject & { toString(): string } = {
      draw<T>(strategy: Strategy<T>, label?: string): T {
        requireStrategy("data.draw", strategy);
        const live = getCurrent("data.draw");
        if (live !== tc) throw new Error("data.draw was called after its test case ended (an un-awaited promise?)");
        tc.startSpan("data.draw");
        // Drawing in the body is still drawing: timed for the tooSlow health check while it watches.
        const v = tc.drawMs < 0 ? strategy.draw(tc) : tc.timedDraw(() => strategy.draw(tc));
        tc.endSpan();
        tc.interactiveDraws.push({ label, value: v });
        return v;
      },
      toString() {
        return "data(...)";
      },
    };
    return object;
  }
}

/** An object whose draw(strategy) draws values inside the property body; the draws are printed on failure. */
export function data(): Strategy<DataObject> {
  return new Data();
}
