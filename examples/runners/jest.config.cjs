// Jest config for examples/runners only: rootDir is this folder, so the repo's other tests are never collected.
// Used by test/test-runners/runners.test.ts: node node_modules/jest/bin/jest.js --config examples/runners/jest.config.cjs
/** @type {import("jest").Config} */
module.exports = {
  rootDir: __dirname,
  testMatch: ["<rootDir>/jest.test.cjs"],
  testEnvironment: "node",
  transform: {}, // plain CommonJS: nothing to compile
  watchman: false,
};
