// The strategy laws (laws.ts) over the strategies that came before the suite.
import { st } from "../../../src/engine/index.ts";
import { strategyLaws } from "./laws.ts";

strategyLaws({
  name: "st.integers({ min: -1000, max: 1000 })",
  strategy: st.integers({ min: -1000, max: 1000 }),
  valid: (n) => (Number.isInteger(n) && n >= -1000 && n <= 1000) || "out of range",
  simplest: 0,
  boundaries: { "-1000": (n) => n === -1000, "1000": (n) => n === 1000 },
  badOptions: [[() => st.integers({ min: 2, max: 1 }), /^st\.integers: min \(2\) must not be greater than max \(1\)/]],
});

strategyLaws({
  name: "st.lists(st.text())",
  strategy: st.lists(st.text()),
  valid: (xs) => (Array.isArray(xs) && xs.every((s) => typeof s === "string")) || "not an array of strings",
  simplest: [],
  boundaries: { "[]": (xs) => xs.length === 0 },
});
