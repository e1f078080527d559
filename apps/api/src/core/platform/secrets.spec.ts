import { SeededRandomSource } from '@transport/domain/testing';
import { randomToken, sameBytes, sameSecret, sha256Hex } from './secrets';

describe('the one home of hashing, comparing and drawing secrets', () => {
  it('hashes text to the lower-case hex SHA-256 of its UTF-8 bytes', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('é')).toBe(sha256Hex('\u00e9'));
  });

  it('compares secrets in full: equal only when every byte is, whatever the lengths', () => {
    expect(sameSecret('tp_admin_x', 'tp_admin_x')).toBe(true);
    expect(sameSecret('tp_admin_x', 'tp_admin_y')).toBe(false);
    expect(sameSecret('tp_admin_x', 'tp_admin_xx')).toBe(false);
    expect(sameSecret('', '')).toBe(true);
    expect(sameBytes(Buffer.from([1, 2, 3]), Buffer.from([1, 2, 3]))).toBe(true);
    expect(sameBytes(Buffer.from([1, 2, 3]), Buffer.from([1, 2]))).toBe(false);
  });

  it('draws url-safe tokens of 256 bits by default, from the source it is given', () => {
    expect(randomToken()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken()).not.toBe(randomToken());
    expect(randomToken(9)).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(randomToken(32, new SeededRandomSource(7))).toBe(randomToken(32, new SeededRandomSource(7)));
  });
});
