import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { WORKSPACE_ROOT } from './support/test-app';

// The built service as an operator starts it (api:test builds it first): a production start with a developer's
// settings stops before it opens anything, exits non-zero, and says which setting to fix.
describe('starting the built service with NODE_ENV=production', () => {
  it('exits non-zero, naming the embedded database, the demo data, the fake provider and the http URL', () => {
    const { DATABASE_URL: _url, PAYMENT_PROVIDER_URL: _provider, PUBLIC_BASE_URL: _public, ...rest } = process.env;
    const result = spawnSync(process.execPath, [join(WORKSPACE_ROOT, 'dist', 'apps', 'api', 'main.js')], {
      cwd: WORKSPACE_ROOT,
      env: { ...rest, NODE_ENV: 'production', SEED_DEMO: 'true', NODE_OPTIONS: '' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    // One JSON line, like every other line the service writes.
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ level: 60, msg: expect.stringContaining('Refusing to start') });
    expect(result.stderr).toContain('Refusing to start with NODE_ENV=production');
    for (const setting of ['DATABASE_URL', 'SEED_DEMO', 'PAYMENT_PROVIDER_URL', 'PUBLIC_BASE_URL'])
      expect(result.stderr).toContain(setting);
  });
});
