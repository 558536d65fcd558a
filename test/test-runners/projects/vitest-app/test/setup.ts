// setupFiles: a matcher the tests use, and the page's root element (jsdom's document, from the config).
import { expect } from "vitest";

expect.extend({
  toShowCents(el: HTMLElement, cents: number) {
    const want = (cents / 100).toFixed(2);
    const pass = el.textContent === want;
    return { pass, message: () => `expected the total to show ${want} (${cents} cents), it shows ${JSON.stringify(el.textContent)}` };
  },
});

document.body.innerHTML = '<output id="total"></output>';

declare module "vitest" {
  interface Assertion {
    toShowCents(cents: number): void;
  }
}
