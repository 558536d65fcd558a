// The delivery zone of a postcode. The bug the property finds: a typo in the table leaves 45000–45599 out,
// so those addresses get no zone at all.
const ZONES = [
  { from: 10_000, to: 44_999, zone: "north" },
  { from: 45_600, to: 69_999, zone: "centre" },
  { from: 70_000, to: 99_999, zone: "south" },
];

export function zoneOf(postcode) {
  return ZONES.find((z) => postcode >= z.from && postcode <= z.to)?.zone;
}
