import { SeededRandomSource } from '@transport/domain/testing';
import { HmacSecretHasher, randomToken, sameBytes, sameSecret, secretId, sha256Hex } from './secrets';

const OLD = 'an-old-activation-secret-of-32-chars!';
const NEW = 'a-new-activation-secret-of-32-chars!!';

describe('activation keys hashed with a server secret', () => {
  it('verifies the key it hashed and no other; the hash names its secret and does not contain the key', () => {
    const hasher = new HmacSecretHasher([NEW]);
    const hash = hasher.hash('042917');
    expect(hash).toMatch(new RegExp(`^hmac\\$${secretId(NEW)}\\$[0-9a-f]{64}$`));
    expect(hash).not.toContain('042917');
    expect(hasher.verify('042917', hash)).toBe(true);
    expect(hasher.verify('042918', hash)).toBe(false);
  });

  it('keeps verifying hashes of a rotated-out-of-first secret while it is listed, and none once it is dropped', () => {
    const before = new HmacSecretHasher([OLD]).hash('123456');
    const rotating = new HmacSecretHasher([NEW, OLD]);
    expect(rotating.verify('123456', before)).toBe(true);
    expect(rotating.hash('123456')).toContain(secretId(NEW));
    expect(new HmacSecretHasher([NEW]).verify('123456', before)).toBe(false);
  });

  it('verifies nothing with a hash of another scheme, a forged secret id or a cut digest', () => {
    const hasher = new HmacSecretHasher([NEW]);
    const hash = hasher.hash('123456');
    expect(hasher.verify('123456', `scrypt$c2FsdA$aGFzaA`)).toBe(false);
    expect(hasher.verify('123456', hash.replace(secretId(NEW), '00000000'))).toBe(false);
    expect(hasher.verify('123456', hash.slice(0, -2))).toBe(false);
    expect(hasher.verify('123456', 'hmac$')).toBe(false);
    expect(() => new HmacSecretHasher([])).toThrow();
  });
});

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
