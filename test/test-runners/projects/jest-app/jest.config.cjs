// A jest project as its users write one: the alias, the setup file's matcher and test/shipping.test.js's
// jest.mock are what the bundled runner could not honour (issue #12). Plain CommonJS, jest's default
// transform (babel-jest, which hoists jest.mock above the requires).
/** @type {import("jest").Config} */
module.exports = {
  testEnvironment: "node",
  testMatch: ["<rootDir>/test/**/*.test.js"],
  moduleNameMapper: { "^@app/(.*)$": "<rootDir>/src/$1" },
  setupFilesAfterEnv: ["<rootDir>/test/setup.js"],
  // A property runs many cases in one test: jest's 5 s default is for a single example.
  testTimeout: 60_000,
};
