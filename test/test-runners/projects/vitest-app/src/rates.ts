// The exchange-rate service: a network call in production, so the tests replace it with vi.mock.
export function rateOf(currency: string): number {
  throw new Error(`rates: no network in tests (asked for ${currency})`);
}
