// A syntax error ON PURPOSE: test/test-runners/external.test.ts checks that the runner's compile error reaches the
// editor. (The project's own `npm test` reports it too, as vitest would for any broken file.)
import { test } from "vitest";

test("never runs", () => {
  const total = (1 + ;
});
