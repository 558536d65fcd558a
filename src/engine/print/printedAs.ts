/**
 * Values that print as code of their own: a generated function prints as the lookup over the calls its test case
 * made (strategies/functions.ts), which only the strategy that made it can write. The printer asks here first.
 */
const forms = new WeakMap<object, () => string>();

/** From now on `value` prints as what `code()` returns when printed. */
export function printAs(value: object, code: () => string): void {
  forms.set(value, code);
}

/** The code `value` prints as, if it was given one. */
export function printedForm(value: object): string | undefined {
  return forms.get(value)?.();
}
