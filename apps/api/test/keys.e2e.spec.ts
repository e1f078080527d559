import request from 'supertest';
import { keysCommand } from '../src/cli/keys-command';
import { eventually } from './support/http-peers';
import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

describeOnEachTier('API keys from the operator command', (tier) => {
  const { store, running, fixture: f } = appOnTier(tier, { fixture: true, config: { paymentBasePath: '/pay' } });

  async function run(...args: string[]): Promise<{ code: number; text: string }> {
    const lines: string[] = [];
    // Pointed at the running app's database, as an operator's command would be (embedded: through its server).
    const code = await keysCommand(
      args,
      { ...store.config(), databaseUrl: running.database.url, migrateOnStart: false },
      (l) => lines.push(l),
    );
    return { code, text: lines.join('\n') };
  }

  it('creates a key that works at once, lists it without the key, and revokes it so it stops working within a second', async () => {
    const created = await run('create', '--role', 'merchant', '--principal', f.ids.merchantA, '--label', 'till 2');
    expect(created.code).toBe(0);
    const issued = JSON.parse(created.text) as { _id: string; key: string; role: string; principal: string };
    expect(issued).toMatchObject({ role: 'merchant', principal: f.ids.merchantA });
    expect(issued.key.length).toBeGreaterThanOrEqual(43); // 256 bits in base64url, plus the role prefix

    // PAYMENT_BASE_PATH=/pay moves the payment operation under {pay_url}.
    const http = () => request(running.app.getHttpServer());
    await http().get('/pay/payment/check_transaction?reference=REF-PAID').set('Authorization', issued.key).expect(200);
    await http().get('/payment/check_transaction?reference=REF-PAID').set('Authorization', issued.key).expect(404);

    const listed = await run('list');
    expect(listed.text).toContain(issued._id);
    expect(listed.text).not.toContain(issued.key);
    const stored = await running.database.prisma.apiKey.findUnique({ where: { id: issued._id } });
    expect(stored?.keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(issued.key);

    expect((await run('revoke', issued._id)).code).toBe(0);
    // Revoked from outside the running API: it hears of it by a PostgreSQL notice, in milliseconds.
    await eventually(
      () =>
        http().get('/pay/payment/check_transaction?reference=REF-PAID').set('Authorization', issued.key).expect(401),
      1000,
      10,
    );
    expect((await run('revoke', issued._id)).code).toBe(0);
  });

  it('refuses an unknown role, a malformed principal and a missing subcommand', async () => {
    await expect(run('create', '--role', 'root', '--principal', f.ids.merchantA)).rejects.toMatchObject({
      code: 'INVALID_ROLE',
    });
    await expect(run('create', '--role', 'admin', '--principal', 'me')).rejects.toMatchObject({ code: 'INVALID_ID' });
    await expect(run('create', '--role', 'merchant', '--principal', 'e'.repeat(24))).rejects.toMatchObject({
      code: 'PRINCIPAL_NOT_FOUND',
    });
    await expect(run('create', '--role', 'assembly', '--principal', f.ids.merchantA)).rejects.toMatchObject({
      code: 'PRINCIPAL_NOT_FOUND',
    });
    expect((await run('frobnicate')).code).toBe(2);
    expect((await run('create', '--role', 'admin')).code).toBe(2);
  });
});
