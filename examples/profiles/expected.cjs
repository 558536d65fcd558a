// What the profile tests expect: the examples each property runs, by SHRINKSCOPE_PROFILE (unset: CI's own).
module.exports = { expectedExamples: () => ({ "": 13, quick: 7, dev: 13 })[process.env.SHRINKSCOPE_PROFILE ?? ""] };
