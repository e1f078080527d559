import { driverRegistration } from './support/api-fixtures';
import { describeOnPostgres } from './support/postgres-only';
import { appOnTier } from './support/app-on-tier';

const DASHBOARD = 'https://dashboard.transport.example.com';

describeOnPostgres('HTTP hardening: security headers, no caching of secrets, CORS for listed origins only', () => {
  const { fixture: f, http } = appOnTier('postgresql', { fixture: true, config: { corsOrigins: [DASHBOARD] } });

  it('sends the security headers on answers, errors and the docs, and a CSP the docs page lives with', async () => {
    for (const res of [
      await http().get('/vehicles/all?limit=1').expect(200),
      await http().get('/vehicles/owner/all').expect(401),
      await http().get('/docs/').expect(200),
    ]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
    // Swagger UI's page loads every script from this server (none inline), which "script-src 'self'" allows.
    const page = (await http().get('/docs/').expect(200)).text;
    const scripts = [...page.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const attributes of scripts) expect(attributes).toMatch(/src="/);
  });

  it('lets no cache keep an answer that carries a secret', async () => {
    const key = await http()
      .post('/admin/keys')
      .set('Authorization', f.keys.admin)
      .send({ role: 'platform', principal: '65a0000000000000000000f1' })
      .expect(201);
    expect(key.headers['cache-control']).toBe('no-store');
    const driver = await http()
      .post('/drivers/add')
      .send(driverRegistration({ email: 'akua.nostore@example.com' }))
      .expect(201);
    expect(driver.headers['cache-control']).toBe('no-store');
    const rotated = await http()
      .post('/payment/signing-secret/rotate')
      .set('Authorization', f.keys.merchantA)
      .send({})
      .expect(200);
    expect(rotated.headers['cache-control']).toBe('no-store');
  });

  it('answers a listed origin with CORS headers (paging and retry headers exposed), and others with none', async () => {
    const preflight = await http()
      .options('/vehicles/all')
      .set('Origin', DASHBOARD)
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'authorization')
      .expect(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(DASHBOARD);
    expect(preflight.headers['access-control-allow-headers']).toContain('Authorization');
    expect(preflight.headers['access-control-allow-headers']).toContain('Idempotency-Key');
    const listed = await http().get('/vehicles/all?limit=1').set('Origin', DASHBOARD).expect(200);
    expect(listed.headers['access-control-allow-origin']).toBe(DASHBOARD);
    expect(listed.headers['access-control-expose-headers']).toBe(
      'Link,Retry-After,X-Total-Count,X-Request-Id,Idempotent-Replayed',
    );
    const other = await http().get('/vehicles/all?limit=1').set('Origin', 'https://evil.example.com').expect(200);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});
