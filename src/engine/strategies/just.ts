/** st.just: always the same value; makes no choice. */
import { Strategy } from "./strategy.ts";

class Just<T> extends Strategy<T> {
  constructor(private readonly value: T) {
    super(undefined);
  }
  protected doDraw(): T {
    return this.value;
  }
  override distinctValues(): number {
    return 1;
  }
}

/** Always `value`; makes no choice. */
export function just<T>(value: T): Strategy<T> {
  return new Just(value);
}
