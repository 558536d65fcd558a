// Shipping fees by the cart's weight in grams, in cents. The bug the property finds: a typo in the table
// leaves 5000–5199 g out, so those carts get no fee at all.
const BANDS: readonly (readonly [from: number, to: number, cents: number])[] = [
  [0, 999, 390],
  [1000, 4999, 590],
  [5200, 19_999, 990],
];

export function shippingFee(grams: number): number | undefined {
  return BANDS.find(([from, to]) => grams >= from && grams <= to)?.[2];
}
