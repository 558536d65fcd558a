/**
 * The engine's source of randomness: pure-rand's xoroshiro128+ (the generator fast-check uses), wrapped with
 * the few distributions generation needs. One instance per run, seeded from the run's seed, so that the same
 * seed replays the same test cases.
 */
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";

type Generator = ReturnType<typeof xoroshiro128plus>;

const TWO_32 = 2 ** 32;
const INV_TWO_32 = 2 ** -32;
/** Ranges up to this size use the division-free path of int() (r · n stays below 2^53). */
const SMALL_RANGE = 2 ** 21;

export class Random {
  private readonly g: Generator;

  constructor(seed: number) {
    this.g = xoroshiro128plus(seed | 0);
    // Mix the high bits of large seeds in, so seeds differing only above 2^32 differ.
    const high = Math.floor(seed / TWO_32) | 0;
    for (let i = 0; i < (high & 7) + 1; i++) this.g.next();
    if (high !== 0) this.g.next();
  }

  /** Uniform in [0, 2^32). */
  uint32(): number {
    return this.g.next() >>> 0;
  }

  /** Uniform double in [0, 1) with 53 random bits. */
  double(): number {
    return ((this.g.next() >>> 11) * TWO_32 + (this.g.next() >>> 0)) / 2 ** 53;
  }

  /** Uniform integer in [lo, hi] (inclusive; any safe-integer range). */
  int(lo: number, hi: number): number {
    const n = hi - lo + 1;
    if (n <= SMALL_RANGE) {
      // Lemire's multiply-shift: r·n is exact in a double here, so no division on the common path; the
      // rare rejection (low part below 2^32 mod n) keeps it exactly uniform.
      for (;;) {
        const m = (this.g.next() >>> 0) * n;
        const high = Math.floor(m * INV_TWO_32);
        const low = m - high * TWO_32;
        if (low >= n || low >= TWO_32 % n) return lo + high;
      }
    }
    if (n <= TWO_32) {
      // Rejection sampling keeps it exactly uniform.
      const limit = TWO_32 - (TWO_32 % n);
      for (;;) {
        const r = this.g.next() >>> 0;
        if (r < limit) return lo + (r % n);
      }
    }
    const span = hi - lo; // > 2^32, at most 2^54 - 2
    const highMax = Math.floor(span / TWO_32); // 1 .. 2^22
    const mask = (1 << (32 - Math.clz32(highMax))) - 1;
    for (;;) {
      // Random bits as high·2^32 + low (high masked to the bit width of span's high part); reject above span.
      const high = (this.g.next() >>> 0) & mask;
      if (high > highMax) continue;
      const r = high * TWO_32 + (this.g.next() >>> 0);
      if (r <= span) return lo + r;
    }
  }

  /** true with probability p. */
  bool(p: number): boolean {
    if (p <= 0) return false;
    if (p >= 1) return true;
    return this.g.next() >>> 0 < p * TWO_32;
  }

  /** A uniformly chosen element. */
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(0, xs.length - 1)];
  }
}

/** A fresh random 32-bit seed (used when the user gives none). */
export function freshSeed(): number {
  return Math.floor(Math.random() * TWO_32);
}
