// setupFilesAfterEnv: a matcher the tests use.
expect.extend({
  toCoverWeight(cents, grams, centsPerKg) {
    const chargedGrams = (cents / centsPerKg) * 1000;
    const pass = chargedGrams >= grams;
    return { pass, message: () => `expected ${cents} cents at ${centsPerKg} per kg to cover ${grams} g, it covers ${chargedGrams} g` };
  },
});
