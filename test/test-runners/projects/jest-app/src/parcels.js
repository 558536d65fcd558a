// The parcel size a weight (in grams) ships as. The bug the property finds: a typo in the table leaves
// 12 000–12 199 g out, so those parcels get no size at all.
const SIZES = [
  { from: 0, to: 1999, size: "S" },
  { from: 2000, to: 11_999, size: "M" },
  { from: 12_200, to: 30_000, size: "L" },
];

exports.parcelSize = function parcelSize(grams) {
  return SIZES.find((s) => grams >= s.from && grams <= s.to)?.size;
};
