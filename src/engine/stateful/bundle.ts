/**
 * Bundles: the values a machine's rules produce, named so that later rules can take them as arguments
 * (Hypothesis's Bundle and consumes). A rule whose `target` is a bundle puts its result there; a bundle as an
 * argument draws one of its values, and consumes(bundle) draws one and removes it. The name becomes a variable
 * in the printed steps (`const accounts_0 = state.open(…)`), so it must be identifier-like.
 */
import { describe } from "../strategies/strategy.ts";
import { invalid } from "../util/errors.ts";

/** A name the printed steps can use as it is: a variable, a key, a member after a dot. */
export const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A named collection of values returned by rules that target it; usable as a rule argument. */
export class Bundle<T> {
  declare readonly __type?: T;
  constructor(readonly name: string) {}
}

/** A bundle argument that removes the value it draws. */
export class Consumed<T> {
  declare readonly __type?: T;
  constructor(readonly bundle: Bundle<T>) {}
}

/** A bundle: `target` of rules puts their return values in it; as an argument it draws one of them. */
export function bundle<T>(name: string): Bundle<T> {
  if (typeof name !== "string" || !IDENTIFIER.test(name))
    invalid("bundle", `name must be an identifier-like string, got ${describe(name)}`);
  return new Bundle<T>(name);
}

/** As a rule argument: draw a value from the bundle and remove it. */
export function consumes<T>(b: Bundle<T>): Consumed<T> {
  if (!(b instanceof Bundle)) invalid("consumes", `expects a bundle, got ${describe(b)}`);
  return new Consumed(b);
}
