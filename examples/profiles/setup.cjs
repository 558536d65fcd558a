// The setup file of examples/profiles/setup.mjs for jest's setupFiles (CommonJS): the same settings.
const { configure, registerProfile } = require("shrinkscope");

configure({ maxExamples: 13 });
registerProfile("quick", { maxExamples: 7 });
