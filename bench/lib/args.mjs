// Command-line flags for the benches: each flag in turn, its value read on demand, and the checks the
// numeric ones share (a bench run with `--seeds 0` should stop at once, not print an empty table).

/** Calls `on(flag, value)` for each argument; `value()` takes the next argument as this flag's value. */
export function eachFlag(argv, on) {
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    on(flag, () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    });
  }
}

export function positiveInt(flag, v) {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} must be a positive integer, got ${v}`);
  return n;
}
