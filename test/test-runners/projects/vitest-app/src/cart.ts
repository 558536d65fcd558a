// The cart's total, shown in the page a moment after the last change (debounced), in the shop's currency.
import { rateOf } from "@app/rates";

export const DEBOUNCE_MS = 250;
let pending: ReturnType<typeof setTimeout> | undefined;

/** Converted cents, rate in percent (250 = 2.5×), rounded half up. */
export function convert(cents: number, currency: string): number {
  return Math.round((cents * rateOf(currency)) / 100);
}

/** "12.05" for 1205 cents. The bug the property finds: the cents are padded on the wrong side. */
export function format(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padEnd(2, "0")}`;
}

export function showTotal(el: HTMLElement, prices: readonly number[], currency: string): void {
  clearTimeout(pending);
  pending = setTimeout(() => {
    const total = convert(prices.reduce((a, b) => a + b, 0), currency);
    el.textContent = format(total);
    el.dataset.cents = String(total);
  }, DEBOUNCE_MS);
}
