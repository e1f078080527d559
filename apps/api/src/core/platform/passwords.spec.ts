import { hashPassword, passwordProblem, UNUSABLE_HASH, verifyPassword } from './passwords';

describe('people passwords', () => {
  it('hashes with salted scrypt, verifies the right password only, and runs off the event loop', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const [first, second] = await Promise.all([
      hashPassword('kente-cloth-at-dawn'),
      hashPassword('kente-cloth-at-dawn'),
    ]);
    clearInterval(timer);
    // The event loop kept turning while both hashes were computed on the thread pool.
    expect(ticks).toBeGreaterThan(0);
    expect(first).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword('kente-cloth-at-dawn', first)).toBe(true);
    expect(await verifyPassword('kente-cloth-at-dusk', first)).toBe(false);
    // Unicode is compared in one normal form (é typed precomposed or combined).
    const accented = await hashPassword('caf\u00e9-au-lait-matin');
    expect(await verifyPassword('cafe\u0301-au-lait-matin', accented)).toBe(true);
  });

  it('refuses malformed hashes, the unusable hash and over-long passwords without an error', async () => {
    expect(await verifyPassword('anything-at-all', UNUSABLE_HASH)).toBe(false);
    expect(await verifyPassword('anything-at-all', 'bcrypt$whatever')).toBe(false);
    expect(await verifyPassword('anything-at-all', 'scrypt$x$8$1$salt$hash')).toBe(false);
    expect(await verifyPassword('a'.repeat(201), await hashPassword('a'.repeat(12) + 'b'))).toBe(false);
  });

  it('asks for a long password that is not one repeated character nor the email', () => {
    expect(passwordProblem('short', 'abena@ama.gov.gh')).toBe('The password must be at least 12 characters long');
    expect(passwordProblem('x'.repeat(201), 'abena@ama.gov.gh')).toBe(
      'The password must be at most 200 characters long',
    );
    expect(passwordProblem('zzzzzzzzzzzzzzz', 'abena@ama.gov.gh')).toBe('The password must not repeat one character');
    expect(passwordProblem('my-name-is-ABENA!', 'abena@ama.gov.gh')).toBe(
      'The password must not contain your email address',
    );
    expect(passwordProblem('kente-cloth-at-dawn', 'abena@ama.gov.gh')).toBeUndefined();
    // Characters, not UTF-16 units: twelve emoji are twelve characters.
    expect(passwordProblem('\u{1F695}'.repeat(11) + '\u{1F68C}', 'abena@ama.gov.gh')).toBeUndefined();
  });
});
