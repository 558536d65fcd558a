// A syntax error ON PURPOSE: test/test-runners/external.test.ts checks that the runner's compile error reaches the
// editor. It is in .mocharc.json's spec like every test file, so it also checks that running another file
// from the editor does not load it. (The project's own `npm test` reports it, as mocha would any broken file.)
it("never runs", () => {
  const total = (1 + ;
});
