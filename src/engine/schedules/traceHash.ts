/**
 * A run's trace hash: 64-bit FNV-1a over the code points of every trace event's text (each code point XORed in
 * whole, then a multiply by the FNV prime, modulo 2^64). Kept in four 16-bit limbs of plain numbers: the same
 * value BigInt arithmetic gives (the hash the reports print, pinned by seeds), without a BigInt allocated per
 * character — which had been a twentieth of a simulated run and much of its garbage.
 */

/** The FNV-1a 64-bit offset basis, 0xcbf29ce484222325, low limb first. */
const BASIS = [0x2325, 0x8422, 0x9ce4, 0xcbf2] as const;

export class TraceHash {
  private h0: number = BASIS[0];
  private h1: number = BASIS[1];
  private h2: number = BASIS[2];
  private h3: number = BASIS[3];

  /** Hash in every code point of `text`. */
  add(text: string): void {
    let h0 = this.h0;
    let h1 = this.h1;
    let h2 = this.h2;
    let h3 = this.h3;
    for (let k = 0; k < text.length; k++) {
      const cp = text.codePointAt(k)!;
      if (cp > 0xffff) k++; // the second unit of a surrogate pair: the code point took both
      h0 ^= cp & 0xffff;
      h1 ^= cp >>> 16;
      // × 0x100000001b3 = × 0x1b3 plus × 2^40 (the low limbs shifted up two limbs and 8 bits), modulo 2^64.
      const m0 = h0 * 0x1b3;
      const m1 = h1 * 0x1b3 + (m0 >>> 16);
      const m2 = h2 * 0x1b3 + (m1 >>> 16) + ((h0 << 8) & 0xffff);
      const m3 = h3 * 0x1b3 + (m2 >>> 16) + (((h1 << 8) | (h0 >>> 8)) & 0xffff);
      h0 = m0 & 0xffff;
      h1 = m1 & 0xffff;
      h2 = m2 & 0xffff;
      h3 = m3 & 0xffff;
    }
    this.h0 = h0;
    this.h1 = h1;
    this.h2 = h2;
    this.h3 = h3;
  }

  /** The hash as 16 hex digits. */
  get hex(): string {
    const limb = (n: number) => n.toString(16).padStart(4, "0");
    return limb(this.h3) + limb(this.h2) + limb(this.h1) + limb(this.h0);
  }
}
