// A rule-based state machine that FAILS on purpose: it finds the bug in Ledger and prints the minimal steps.
// Run it with `npm run build && node --import tsx --test examples/machines/ledger.test.ts`.
//
// The bug: Ledger.transfer(src, dst, amount) credits the destination twice when src === dst, so a transfer from
// an account to itself creates money. The machine opens accounts (a bundle of references) and transfers between
// them, and after every step the invariant totalsMatch checks that the ledger holds 100 per opened account.
//
// With the seed below, Shrinkscope's PropertyFailure ends on these steps, printed as executable TypeScript
// (bench/stateful.mjs counts on how many of 20 seeds it does):
//
//   const state = new LedgerMachine();
//   const accounts_0 = state.open({
//     name: "a" // or any other generated value
//   });
//   state.transfer({ src: accounts_0, dst: accounts_0, amount: 1 });
//   state.totalsMatch();
//   state.teardown();
//
//   Explanation: assertion failed in invariant totalsMatch
//   State at the failing step:
//     balances [["a",101]]
//
// The same fixture, with fast-check's fc.commands beside it, is benchmarked by bench/stateful.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { machine, bundle, st } from "shrinkscope";

class Ledger {
  balances = new Map<string, number>();
  open(name: string): void {
    if (!this.balances.has(name)) this.balances.set(name, 100);
  }
  transfer(src: string, dst: string, amount: number): void {
    this.balances.set(src, this.balances.get(src)! - amount);
    // The bug: a transfer to the same account credits it twice.
    this.balances.set(dst, this.balances.get(dst)! + amount + (src === dst ? amount : 0));
  }
  total(): number {
    let t = 0;
    for (const v of this.balances.values()) t += v;
    return t;
  }
}

class AccountRef {
  constructor(readonly name: string) {}
}

class LedgerMachine {
  ledger = new Ledger();
  /** The model: what each opened account started with (transfers never change the total). */
  model = new Map<string, number>();
  open({ name }: { name: string }): AccountRef {
    this.ledger.open(name);
    if (!this.model.has(name)) this.model.set(name, 100);
    return new AccountRef(name);
  }
  transfer({ src, dst, amount }: { src: AccountRef; dst: AccountRef; amount: number }): void {
    this.ledger.transfer(src.name, dst.name, amount);
  }
  totalsMatch(): void {
    let sum = 0;
    for (const v of this.model.values()) sum += v;
    assert.equal(this.ledger.total(), sum);
  }
  teardown(): void {}
  toString(): string {
    return `balances ${JSON.stringify([...this.ledger.balances])}`;
  }
}

const accounts = bundle<AccountRef>("accounts");

test(
  "the ledger's total is 100 per opened account, whatever the transfers",
  machine(
    LedgerMachine,
    {
      rules: {
        open: { args: { name: st.sampledFrom(["a", "b", "c", "d"]) }, target: accounts },
        transfer: { args: { src: accounts, dst: accounts, amount: st.integers({ min: 0, max: 100 }) } },
      },
      invariants: ["totalsMatch"],
    },
    // A fixed seed and no example database, so every run prints the same; stepCount 50 is the default.
    { database: null, seed: 1, deadline: null },
  ),
);
