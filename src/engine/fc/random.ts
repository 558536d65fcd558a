/**
 * fc.Random: fast-check's wrapper of a pure-rand generator, for code under test that takes one
 * (`new Random(xorshift128plus(seed))`). Its draws are the generator's, so the same seed gives the same numbers run
 * after run; they are not choices of the case (the code's own randomness, as the seed it was given).
 */
type Generator = { next(): number | [number, Generator]; unsafeNext?(): number; clone?(): Generator };

export class Random {
  #g: Generator;
  constructor(generator: Generator) {
    this.#g = generator;
  }
  /** A 32-bit signed integer from the generator. */
  #int32(): number {
    const g = this.#g;
    if (typeof g.unsafeNext === "function") return g.unsafeNext() | 0;
    const out = g.next();
    if (Array.isArray(out)) {
      this.#g = out[1];
      return out[0] | 0;
    }
    return out | 0;
  }
  /** `bits` random bits (at most 31), as a non-negative integer. */
  next(bits: number): number {
    return (this.#int32() >>> 0) >>> (32 - bits);
  }
  nextBoolean(): boolean {
    return (this.#int32() & 1) === 1;
  }
  /** An integer from min to max, both included (default: the 32-bit signed range). */
  nextInt(min = -0x80000000, max = 0x7fffffff): number {
    const span = max - min + 1;
    return min + Math.floor(this.nextDouble() * span);
  }
  /** A double in [0, 1) from 53 random bits. */
  nextDouble(): number {
    const high = (this.#int32() >>> 0) >>> 6;
    const low = (this.#int32() >>> 0) >>> 5;
    return (high * 2 ** 27 + low) / 2 ** 53;
  }
  nextBigInt(min: bigint, max: bigint): bigint {
    const span = max - min + 1n;
    let r = 0n;
    for (let bits = 0n; 1n << bits < span * 2n ** 32n; bits += 32n) r = (r << 32n) + BigInt(this.#int32() >>> 0);
    return min + (r % span);
  }
  clone(): Random {
    const g = this.#g;
    return new Random(typeof g.clone === "function" ? g.clone() : g);
  }
}
