// Invoices: instalments and the tax bracket of an amount (in cents).

export interface Ledger {
  record(cents: number): void;
}

/** Splits a total into `count` instalments, each recorded in the ledger. The bug the property finds: the
 * remainder of the division is dropped, so the instalments do not add up to the total. */
export function instalments(totalCents: number, count: number, ledger: Ledger): number[] {
  const parts = Array.from({ length: count }, () => Math.floor(totalCents / count));
  for (const p of parts) ledger.record(p);
  return parts;
}

/** The tax bracket's rate in percent. The bug the property finds: a typo leaves 40 000–40 399 out. */
const BRACKETS: readonly { from: number; to: number; percent: number }[] = [
  { from: 0, to: 9999, percent: 0 },
  { from: 10_000, to: 39_999, percent: 10 },
  { from: 40_400, to: 100_000, percent: 20 },
];

export function taxPercent(cents: number): number | undefined {
  return BRACKETS.find((b) => cents >= b.from && cents <= b.to)?.percent;
}
