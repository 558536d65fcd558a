/**
 * The test case the property body is running in, for assume/note/event/target, which the user calls without
 * passing it around. Set by the engine around each call of the body.
 */
import type { TestCase } from "./testcase.ts";

let current: TestCase | null = null;

export function setCurrent(tc: TestCase | null): TestCase | null {
  const previous = current;
  current = tc;
  return previous;
}

export function getCurrent(api: string): TestCase {
  if (current === null) throw new Error(`${api}() was called outside a running property; call it inside the property's body`);
  return current;
}
