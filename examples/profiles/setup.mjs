// A setup file, as vitest's setupFiles and `node --import` load it before the tests: every property of the run
// gets its settings from here. test/test-runners/profiles.test.ts runs it with each runner.
import { configure, registerProfile } from "shrinkscope";

// Defaults for every property (a property's own settings win).
configure({ maxExamples: 13 });
// SHRINKSCOPE_PROFILE=quick npm test: a quicker run while editing (it wins over configure()'s defaults).
registerProfile("quick", { maxExamples: 7 });
