// Counters shared by the state-machine bench fixtures (bench/machines/*.mjs) and bench/stateful.mjs.
//
// The fixtures count for themselves, so that both libraries are measured the same way:
//   constructions — a fresh system + model was set up: a Shrinkscope machine instance, or one fast-check
//                   fc.modelRun setup. One construction is one run of a command sequence.
//   ruleCalls     — rules (Shrinkscope) or commands' run() (fast-check) actually executed; invariant checks and
//                   commands whose check() refused them are not counted.
//   firstFailureAt — the value of `constructions` when an invariant first failed in this run of the library
//                   (null until then); runs after the first failure = constructions − firstFailureAt.

export function makeCounts() {
  const counts = {
    constructions: 0,
    ruleCalls: 0,
    firstFailureAt: null,
    reset() {
      counts.constructions = 0;
      counts.ruleCalls = 0;
      counts.firstFailureAt = null;
    },
    /** Call where an invariant fails, before throwing. */
    failed() {
      if (counts.firstFailureAt === null) counts.firstFailureAt = counts.constructions;
    },
  };
  return counts;
}
