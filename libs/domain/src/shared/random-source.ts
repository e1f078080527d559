/** Port: a source of random bytes (cryptographically strong in production, seeded in tests). */
export interface RandomSource {
  bytes(length: number): Uint8Array;
}

/** Deterministic bytes from a seed (xorshift32): reproducible tests, never for secrets. */
export class SeededRandomSource implements RandomSource {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }

  bytes(length: number): Uint8Array {
    const out = new Uint8Array(length);
    for (let i = 0; i < length; i++) {
      let x = this.state;
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      this.state = x >>> 0;
      out[i] = this.state & 0xff;
    }
    return out;
  }
}
