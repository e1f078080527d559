import { CryptoRandomSource } from '../node/production-ports';
import type { RandomSource } from '../shared/random-source';
import { CHECK_CODE_DIGITS, newCheckCode, printedCheckCode, readCheckCode } from './check-code';

/** Answers the given byte strings in turn. */
const bytesOf = (...draws: number[][]): RandomSource => {
  let i = 0;
  return { bytes: () => Uint8Array.from(draws[i++]) };
};

describe('check codes', () => {
  it('are ten digits, leading zeros kept', () => {
    expect(newCheckCode(bytesOf([0, 0, 0, 0, 7]))).toBe('0000000007');
    expect(newCheckCode(bytesOf([0x02, 0x54, 0x0b, 0xe3, 0xff]))).toBe('9999999999');
    expect(CHECK_CODE_DIGITS).toBe(10);
  });

  it('draw again above the largest multiple of 10^10 (no code more likely than another)', () => {
    expect(newCheckCode(bytesOf([0xff, 0xff, 0xff, 0xff, 0xff], [0, 0, 0, 0, 42]))).toBe('0000000042');
  });

  it('differ from one draw to the next (not a sequence)', () => {
    const random = new CryptoRandomSource();
    const codes = new Set(Array.from({ length: 200 }, () => newCheckCode(random)));
    expect(codes.size).toBe(200);
  });

  it('are read as typed with spaces or dashes, and refused otherwise', () => {
    expect(readCheckCode('123 456 7890')).toBe('1234567890');
    expect(readCheckCode('123-456-7890')).toBe('1234567890');
    expect(readCheckCode('123456789')).toBeUndefined();
    expect(readCheckCode('GR 1234-20')).toBeUndefined();
  });

  it('are printed in three groups', () => {
    expect(printedCheckCode('1234567890')).toBe('123 456 7890');
  });
});
