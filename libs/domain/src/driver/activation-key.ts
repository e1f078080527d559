import type { RandomSource } from '../shared/random-source';

const KEY_SPACE = 1_000_000;
// The largest multiple of 10^6 below 2^32: values at or above it are drawn again, so every key is equally likely.
const UNBIASED_LIMIT = Math.floor(0x1_0000_0000 / KEY_SPACE) * KEY_SPACE;

/** Six decimal digits, uniformly drawn (leading zeros kept). */
export function newActivationKey(random: RandomSource): string {
  for (;;) {
    const b = random.bytes(4);
    const value = ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) >>> 0;
    if (value < UNBIASED_LIMIT) return String(value % KEY_SPACE).padStart(6, '0');
  }
}
