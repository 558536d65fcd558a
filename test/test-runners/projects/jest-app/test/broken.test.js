// A syntax error ON PURPOSE: test/test-runners/external.test.ts checks that the runner's compile error reaches the
// editor. (The project's own `npm test` reports it too, as jest would for any broken file.)
test("never runs", () => {
  const total = (1 + ;
});
