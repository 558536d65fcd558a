// A syntax error ON PURPOSE: test/test-runners/external.test.ts checks that the runner's compile error reaches the
// editor. (The project's `npm test` does not list it.)
import { test } from "node:test";

test("never runs", () => {
  const total: number = (1 + ;
});
