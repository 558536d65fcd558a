// The discount an order gets: the tier of the highest threshold its amount reaches. The bug the property
// finds: it takes the last tier reached in list order, as if the tiers were sorted, and the price list
// (test/data/discounts.json) is not.
export function discountPercent(amount, tiers) {
  let percent = 0;
  for (const tier of tiers) if (amount >= tier.from) percent = tier.percent;
  return percent;
}
