// Jest config for examples/profiles: setup.cjs runs before the tests (test/test-runners/profiles.test.ts).
/** @type {import("jest").Config} */
module.exports = {
  rootDir: __dirname,
  testMatch: ["<rootDir>/jest.test.cjs"],
  testEnvironment: "node",
  setupFiles: ["<rootDir>/setup.cjs"],
  transform: {},
  watchman: false,
};
