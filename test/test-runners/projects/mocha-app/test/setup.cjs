// Required by .mocharc.json before any test file: a global helper the tests read their data with.
const fs = require("node:fs");
const path = require("node:path");

globalThis.loadFixture = (name) => JSON.parse(fs.readFileSync(path.join(__dirname, "data", `${name}.json`), "utf8"));
