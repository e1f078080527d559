/** Port: a source of random bytes (cryptographically strong in production, seeded in tests). */
export interface RandomSource {
  bytes(length: number): Uint8Array;
}
