import type { RandomSource } from '../shared/random-source';

/**
 * The check code printed on a vehicle's certificate sticker beside the QR code: what a passenger types in a USSD
 * session or an SMS, where there are no letters and no camera. Ten decimal digits drawn uniformly from a strong random
 * source (never a sequence: knowing one sticker's code tells nothing of another's), kept with the vehicle. With tens
 * of thousands of vehicles, a guess finds one about once in 100,000 tries, and each caller's tries are limited; what a
 * hit shows is what the sticker itself shows anyone.
 */
export const CHECK_CODE_DIGITS = 10;

const SPACE = 10 ** CHECK_CODE_DIGITS;
// 5 random bytes (0..2^40) with values at or above the largest multiple of 10^10 drawn again: every code equally likely.
const UNBIASED_LIMIT = Math.floor(2 ** 40 / SPACE) * SPACE;

export function newCheckCode(random: RandomSource): string {
  for (;;) {
    const b = random.bytes(5);
    const value = b.reduce((n, byte) => n * 256 + byte, 0);
    if (value < UNBIASED_LIMIT) return String(value % SPACE).padStart(CHECK_CODE_DIGITS, '0');
  }
}

/** What a caller typed as a check code (spaces and dashes allowed, as printed in groups), or undefined. */
export function readCheckCode(typed: string): string | undefined {
  const digits = typed.replace(/[\s-]/g, '');
  return new RegExp(`^\\d{${CHECK_CODE_DIGITS}}$`).test(digits) ? digits : undefined;
}

/** As printed on the sticker: 123 456 7890. */
export function printedCheckCode(code: string): string {
  return `${code.slice(0, 3)} ${code.slice(3, 6)} ${code.slice(6)}`;
}
