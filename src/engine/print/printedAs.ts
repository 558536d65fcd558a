/**
 * Values that print as code of their own, which the printer asks for first:
 * - a generated function prints as the lookup over the calls its test case made (strategies/functions.ts), which
 *   only the strategy that made it can write;
 * - an object with a method under fast-check's `toStringMethod` symbol prints as that method says. A fast-check
 *   suite's own classes carry it, and shrinkscope/fc's command lists do, so a report prints them as fast-check's
 *   would (`[push(1),pop()]`) rather than as their fields.
 */
const forms = new WeakMap<object, () => string>();

/** From now on `value` prints as what `code()` returns when printed. */
export function printAs(value: object, code: () => string): void {
  forms.set(value, code);
}

/** fast-check's symbol for an object's own printed form (the same registered symbol, so either library's works). */
export const TO_STRING_METHOD: unique symbol = Symbol.for("fast-check/toStringMethod") as never;

/** The code `value` prints as, if it was given one or names one (a method that returns a string). */
export function printedForm(value: object): string | undefined {
  const given = forms.get(value);
  if (given !== undefined) return given();
  const method: unknown = (value as { [TO_STRING_METHOD]?: unknown })[TO_STRING_METHOD];
  if (typeof method !== "function") return undefined;
  const code: unknown = method.call(value);
  return typeof code === "string" ? code : undefined;
}
