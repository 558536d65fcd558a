// What shipping a parcel costs, in cents. The carrier charges per started kilogram; the bug the property
// finds: this counts whole kilograms only, so a parcel under 1 kg ships for free.
const { pricePerKg } = require("@app/carrier");

exports.quote = function quote(grams, country) {
  return Math.floor(grams / 1000) * pricePerKg(country);
};
