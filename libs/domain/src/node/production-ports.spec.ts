import { CryptoRandomSource, HmacSecretHasher, secretId, SystemClock } from './production-ports';

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

describe('the wall clock and crypto randomness', () => {
  it('tells the time now', () => {
    const before = new Date();
    const now = new SystemClock().now();
    expect(now.getTime()).toBeGreaterThanOrEqual(before.getTime());
    expect(now.getTime() - before.getTime()).toBeLessThan(5_000);
  });

  it('draws as many random bytes as asked, different each time', () => {
    const random = new CryptoRandomSource();
    expect(random.bytes(16)).toHaveLength(16);
    expect(random.bytes(16)).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(random.bytes(32)).equals(Buffer.from(random.bytes(32)))).toBe(false);
  });
});
