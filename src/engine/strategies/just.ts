/** st.just: always the same value; makes no choice. */
import { Strategy } from "./strategy.ts";

class Just<T> extends Strategy<T> {
  constructor(private readonly value: T) {
    super(undefined);
  }
  protected doDraw(): T {
    return this.value;
  }
}

/** Always `value`; makes no choice. */
export function just<T>(value: T): Strategy<T> {
  return new Just(value);
}
