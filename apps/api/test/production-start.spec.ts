import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WORKSPACE_ROOT } from './support/test-app';

// The built service as an operator starts it (api:test builds it first): a production start with a developer's
// settings stops before it opens anything, exits non-zero, and says which setting to fix.
describe('starting the built service with NODE_ENV=production', () => {
  it('exits non-zero, naming the embedded database, the demo data, the fake provider, the http URL and the unsent texts', () => {
    const {
      DATABASE_URL: _url,
      PAYMENT_PROVIDER_URL: _provider,
      PUBLIC_BASE_URL: _public,
      SMS_GATEWAY_URL: _sms,
      ...rest
    } = process.env;
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
    for (const setting of ['DATABASE_URL', 'SEED_DEMO', 'PAYMENT_PROVIDER_URL', 'PUBLIC_BASE_URL', 'SMS_GATEWAY_URL'])
      expect(result.stderr).toContain(setting);
  });
});

// core/platform/compile-cache.ts: the entry point turns on Node's compile cache before the rest loads, so a second start
// reads Nest, Prisma's client and the rest compiled. Even a start that stops at once leaves them in the cache.
describe("the built service's compile cache", () => {
  it('writes the modules it loaded to node-compile-cache in the temporary folder', () => {
    const temporary = mkdtempSync(join(tmpdir(), 'compile-cache-'));
    try {
      const {
        DATABASE_URL: _url,
        NODE_COMPILE_CACHE: _cache,
        NODE_DISABLE_COMPILE_CACHE: _disabled,
        ...rest
      } = process.env;
      const result = spawnSync(process.execPath, [join(WORKSPACE_ROOT, 'dist', 'apps', 'api', 'main.js')], {
        cwd: WORKSPACE_ROOT,
        env: { ...rest, TMPDIR: temporary, NODE_ENV: 'production', NODE_OPTIONS: '' },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(result.status).toBe(1);
      const cache = join(temporary, 'node-compile-cache');
      const entries = readdirSync(cache, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
      // Nest, Prisma's client, pg, pino, class-validator and the rest: hundreds of modules.
      expect(entries.length).toBeGreaterThan(300);
    } finally {
      rmSync(temporary, { recursive: true, force: true });
    }
  });
});
