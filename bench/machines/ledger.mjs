// The ledger state-machine fixture, for bench/stateful.mjs: the same system, model and machine as
// test/engine/stateful/machine.test.ts, plus the equivalent fast-check fc.commands definition on the SAME classes.
//
// The system: accounts opened with a balance of 100; transfer(src, dst, amount) moves money. The bug: a transfer
// from an account to itself credits it twice, so money appears. The model only tracks what was opened (a transfer
// never changes the total), and the invariant totalsMatch compares the ledger's total with the model's.
//
// Normal form (the seed-minimal answer): open "a", then transfer a → a 1.
//   Shrinkscope: LEDGER_NORMAL_FORM (its PropertyFailure.repro)
//   fast-check:  open("a"),transfer("a","a",1) (the counterexample's command list)
// FixedLedger / FixedLedgerMachine are the same without the bug, for the steps-per-second runs.
import assert from "node:assert/strict";
import fc from "fast-check";
import { machine, bundle, st } from "../../dist/engine.mjs";
import { makeCounts } from "./counts.mjs";

export const counts = makeCounts();
export const NAMES = ["a", "b", "c", "d"];

// ------------------------------------------------------------------------------------------------ the systems

export class Ledger {
  balances = new Map();
  open(name) {
    if (!this.balances.has(name)) this.balances.set(name, 100);
  }
  transfer(src, dst, amount) {
    this.balances.set(src, this.balances.get(src) - amount);
    // The bug: a transfer to the same account credits it twice.
    this.balances.set(dst, this.balances.get(dst) + amount + (src === dst ? amount : 0));
  }
  total() {
    let t = 0;
    for (const v of this.balances.values()) t += v;
    return t;
  }
}

export class FixedLedger extends Ledger {
  transfer(src, dst, amount) {
    this.balances.set(src, this.balances.get(src) - amount);
    this.balances.set(dst, this.balances.get(dst) + amount);
  }
}

// ------------------------------------------------------------------------------------------------ the model

/** What the ledger should hold in total: 100 per opened account. */
export class LedgerModel {
  balances = new Map();
  open(name) {
    if (!this.balances.has(name)) this.balances.set(name, 100);
  }
  total() {
    let t = 0;
    for (const v of this.balances.values()) t += v;
    return t;
  }
}

function totalsMatch(ledger, model) {
  const got = ledger.total();
  const want = model.total();
  if (got !== want) counts.failed();
  assert.equal(got, want);
}

// ------------------------------------------------------------------------------------------------ Shrinkscope

export class AccountRef {
  constructor(name) {
    this.name = name;
  }
}

export class LedgerMachine {
  static System = Ledger;
  ledger = new this.constructor.System();
  model = new LedgerModel();
  constructor() {
    counts.constructions++;
  }
  open({ name }) {
    counts.ruleCalls++;
    this.ledger.open(name);
    this.model.open(name);
    return new AccountRef(name);
  }
  transfer({ src, dst, amount }) {
    counts.ruleCalls++;
    this.ledger.transfer(src.name, dst.name, amount);
  }
  totalsMatch() {
    totalsMatch(this.ledger, this.model);
  }
  teardown() {}
  toString() {
    return `balances ${JSON.stringify([...this.ledger.balances])}`;
  }
}

export class FixedLedgerMachine extends LedgerMachine {
  static System = FixedLedger;
}

export const accounts = bundle("accounts");
export const ledgerSpec = {
  rules: {
    open: { args: { name: st.sampledFrom(NAMES) }, target: accounts },
    transfer: { args: { src: accounts, dst: accounts, amount: st.integers({ min: 0, max: 100 }) } },
  },
  invariants: ["totalsMatch"],
};

export const LEDGER_NORMAL_FORM = [
  "const state = new LedgerMachine();",
  'const accounts_0 = state.open({ name: "a" });',
  "state.transfer({ src: accounts_0, dst: accounts_0, amount: 1 });",
  "state.totalsMatch();",
  "state.teardown();",
].join("\n");

/** The Shrinkscope property: the buggy machine, or with { fixed: true } the one without the bug. */
export function ledgerMachine(settings, { fixed = false } = {}) {
  return machine(fixed ? FixedLedgerMachine : LedgerMachine, ledgerSpec, settings);
}

// ------------------------------------------------------------------------------------------------ fast-check

// fast-check has no bundles: a transfer names its accounts and check() skips it until both are open (the
// usual fc.commands idiom). The invariant runs after every command, as Shrinkscope's does after every step.

class OpenCommand {
  constructor(name) {
    this.name = name;
  }
  check() {
    return true;
  }
  run(model, real) {
    counts.ruleCalls++;
    real.open(this.name);
    model.open(this.name);
    totalsMatch(real, model);
  }
  toString() {
    return `open(${JSON.stringify(this.name)})`;
  }
}

class TransferCommand {
  constructor(src, dst, amount) {
    this.src = src;
    this.dst = dst;
    this.amount = amount;
  }
  check(model) {
    return model.balances.has(this.src) && model.balances.has(this.dst);
  }
  run(model, real) {
    counts.ruleCalls++;
    real.transfer(this.src, this.dst, this.amount);
    totalsMatch(real, model);
  }
  toString() {
    return `transfer(${JSON.stringify(this.src)},${JSON.stringify(this.dst)},${this.amount})`;
  }
}

export const fcLedgerCommands = [
  fc.constantFrom(...NAMES).map((name) => new OpenCommand(name)),
  fc
    .tuple(fc.constantFrom(...NAMES), fc.constantFrom(...NAMES), fc.integer({ min: 0, max: 100 }))
    .map(([s, d, a]) => new TransferCommand(s, d, a)),
];

export const LEDGER_FC_NORMAL_FORM = 'open("a"),transfer("a","a",1)';

/**
 * The fast-check property (fc.commands + fc.modelRun): at most stepCount commands per run; size "max" lets the
 * lengths reach stepCount (fast-check's default size stops at 10 commands).
 */
export function ledgerFastCheck({ fixed = false, stepCount = 50, size = "max" } = {}) {
  const System = fixed ? FixedLedger : Ledger;
  const setup = () => {
    counts.constructions++;
    return { model: new LedgerModel(), real: new System() };
  };
  return fc.property(fc.commands(fcLedgerCommands, { maxCommands: stepCount, size }), (cmds) => {
    fc.modelRun(setup, cmds);
  });
}

export const fixture = {
  name: "ledger",
  counts,
  shrinkscope: ledgerMachine,
  normalForm: LEDGER_NORMAL_FORM,
  fastcheck: ledgerFastCheck,
  fcNormalForm: LEDGER_FC_NORMAL_FORM,
};
