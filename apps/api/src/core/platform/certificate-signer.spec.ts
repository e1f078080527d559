import { webcrypto } from 'node:crypto';
import type { CertificateClaims } from '@transport/domain';
import { Ed25519CertificateSigner, MAX_TOKEN_LENGTH } from './certificate-signer';
import { newCertificateKey } from './server-secrets';

const claims: CertificateClaims = {
  vehicleId: '65a0000000000000000000a1',
  registrationNumber: 'GR 1000-24',
  approvedAt: new Date('2026-10-01T11:21:07Z'),
  issuedAt: new Date('2026-11-25T08:00:00Z'),
};
const [oldKey, newKey, strangerKey] = [newCertificateKey(), newCertificateKey(), newCertificateKey()];

describe('Ed25519CertificateSigner', () => {
  const signer = new Ed25519CertificateSigner([oldKey]);

  it('reads back what it signed, with the key id in the token', () => {
    const token = signer.sign(claims);
    expect(token.length).toBeLessThan(MAX_TOKEN_LENGTH);
    expect(signer.check(token)).toEqual({ genuine: true, keyId: signer.signingKeyId, claims });
    const header = JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString());
    expect(header).toEqual({ alg: 'EdDSA', kid: signer.signingKeyId });
  });

  it('finds a token with any one character changed not genuine', () => {
    const token = signer.sign(claims);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 0; i < token.length; i++) {
      if (token[i] === '.') continue;
      const other = alphabet[(alphabet.indexOf(token[i]) + 1) % alphabet.length];
      const changed = `${token.slice(0, i)}${other}${token.slice(i + 1)}`;
      expect({ at: i, check: signer.check(changed) }).toEqual({
        at: i,
        check: expect.objectContaining({ genuine: false }),
      });
    }
  });

  it('finds a token signed with another key not genuine: unknown key, or a bad signature under our key id', () => {
    const stranger = new Ed25519CertificateSigner([strangerKey]);
    expect(signer.check(stranger.sign(claims))).toEqual({ genuine: false, reason: 'unknown_key' });
    const [, payload, signature] = stranger.sign(claims).split('.');
    const header = Buffer.from(JSON.stringify({ alg: 'EdDSA', kid: signer.signingKeyId })).toString('base64url');
    expect(signer.check(`${header}.${payload}.${signature}`)).toEqual({ genuine: false, reason: 'bad_signature' });
  });

  it('keeps verifying old tokens after rotation, signs with the new key, and refuses a retired key', () => {
    const before = signer.sign(claims);
    const rotated = new Ed25519CertificateSigner([newKey, oldKey]);
    expect(rotated.check(before)).toMatchObject({ genuine: true, keyId: signer.signingKeyId });
    const after = rotated.sign(claims);
    expect(rotated.check(after)).toMatchObject({ genuine: true, keyId: rotated.signingKeyId });
    expect(rotated.signingKeyId).not.toBe(signer.signingKeyId);
    const retired = new Ed25519CertificateSigner([newKey]);
    expect(retired.check(before)).toEqual({ genuine: false, reason: 'unknown_key' });
    expect(retired.check(after)).toMatchObject({ genuine: true });
  });

  it.each([
    ['an empty token', ''],
    ['two parts', 'a.b'],
    ['four parts', 'a.b.c.d'],
    ['characters outside base64url', '%%%.%%%.%%%'],
    ['a token longer than any we sign', `${'a'.repeat(MAX_TOKEN_LENGTH)}.b.c`],
    ['alg none', `${Buffer.from('{"alg":"none","kid":"x"}').toString('base64url')}.e30.`],
    ['a header that is not an object', `${Buffer.from('[1]').toString('base64url')}.e30.AA`],
  ])('finds %s not genuine (malformed)', (_label, token) => {
    const reason = 'malformed';
    expect(signer.check(token)).toEqual({ genuine: false, reason });
  });

  it('publishes every key as a JWK that WebCrypto verifies a token with (what the dashboard does offline)', async () => {
    const rotated = new Ed25519CertificateSigner([newKey, oldKey]);
    const { keys } = rotated.jwks();
    expect(keys.map((k) => k.kid)).toEqual([rotated.signingKeyId, signer.signingKeyId]);
    expect(Object.keys(keys[0]).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x']);
    const token = signer.sign(claims);
    const [header, payload, signature] = token.split('.');
    const jwk = keys.find((k) => k.kid === signer.signingKeyId)!;
    const key = await webcrypto.subtle.importKey('jwk', jwk, { name: 'Ed25519' }, false, ['verify']);
    const ok = await webcrypto.subtle.verify(
      { name: 'Ed25519' },
      key,
      Buffer.from(signature, 'base64url'),
      Buffer.from(`${header}.${payload}`),
    );
    expect(ok).toBe(true);
  });
});
