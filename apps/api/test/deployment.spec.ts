import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeOnPostgres } from './support/postgres-only';
import { createScratchDatabase } from './support/postgres-tier';
import { SERVICE_NODE_FLAGS, startService } from './support/service-process';
import { WORKSPACE_ROOT } from './support/test-app';

const MIGRATIONS = readdirSync(join(WORKSPACE_ROOT, 'prisma', 'migrations'), { withFileTypes: true }).filter((e) =>
  e.isDirectory(),
).length;

/** Runs a command to its end, with a clean NODE_OPTIONS (Jest's flags are not the service's). */
function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  return spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    timeout: 180_000,
    env: { ...process.env, NODE_OPTIONS: '', ...env },
  });
}

// The runtime bundle as an operator gets it (tools/bundle.mjs: built JavaScript, the schema and migrations, the
// production dependencies; no TypeScript source), in a folder outside the repository, started from yet another one.
describeOnPostgres('the runtime bundle', () => {
  const bundle = mkdtempSync(join(tmpdir(), 'transport-runtime-'));
  const elsewhere = mkdtempSync(join(tmpdir(), 'transport-cwd-'));

  beforeAll(() => {
    const built = run(process.execPath, [join(WORKSPACE_ROOT, 'tools', 'bundle.mjs'), bundle], WORKSPACE_ROOT);
    if (built.status !== 0) throw new Error(`bundle failed:\n${built.stdout}\n${built.stderr}`);
  }, 240_000);
  afterAll(() => {
    rmSync(bundle, { recursive: true, force: true });
    rmSync(elsewhere, { recursive: true, force: true });
  });

  it('holds JavaScript, the migrations and the Prisma CLI, and no TypeScript source of the app', () => {
    const files = readdirSync(bundle);
    expect(files).toEqual(
      expect.arrayContaining([
        'main.js',
        'cli.js',
        'import.js',
        'dashboard',
        'prisma.config.js',
        'prisma',
        'package.json',
        'node_modules',
      ]),
    );
    expect(files.filter((f) => f.endsWith('.ts'))).toEqual([]);
    expect(readdirSync(join(bundle, 'prisma', 'migrations')).length).toBeGreaterThanOrEqual(MIGRATIONS);
    const manifest = JSON.parse(readFileSync(join(bundle, 'package.json'), 'utf8')) as { scripts: object };
    expect(manifest.scripts).toEqual(
      expect.objectContaining({
        start: ['node', ...SERVICE_NODE_FLAGS, 'main.js'].join(' '),
        migrate: 'prisma migrate deploy',
        import: ['node', ...SERVICE_NODE_FLAGS, 'import.js'].join(' '),
      }),
    );
    // The importer runs from the bundle alone (its dependencies are production ones).
    const help = run(process.execPath, [join(bundle, 'import.js'), '--help'], elsewhere);
    expect([help.status, help.stdout]).toEqual([0, expect.stringContaining('mongoexport')]);
  });

  it('started from another folder, applies the migrations and serves /health/ready 200 on PostgreSQL', async () => {
    const database = await createScratchDatabase('bundle');
    const service = await startService(join(bundle, 'main.js'), {
      cwd: elsewhere,
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: database.url,
        PORT: '0',
        METRICS_PORT: 'off',
        SHUTDOWN_DELAY_MS: '0',
      },
    }).catch(async (error: unknown) => {
      await database.drop();
      throw error;
    });
    const { child, base, exited } = service;
    try {
      const ready = await fetch(`${base}/health/ready`);
      expect(ready.status).toBe(200);
      // The assembly dashboard, served from the bundle's own dashboard/ folder, same origin as the API.
      const page = await fetch(`${base}/dashboard/`);
      expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
      const html = await page.text();
      expect(html).toContain('<title>Assembly dashboard</title>');
      // The entry script is inline (one round trip less on a slow network), allowed by its hash and nothing looser.
      const inline = /<script type="module">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
      const hash = createHash('sha256').update(inline, 'utf8').digest('base64');
      expect(page.headers.get('content-security-policy')).toContain(`script-src 'self' 'sha256-${hash}';`);
      // The chunks it loads carry their content's hash in their names (apps/dashboard/build.mjs): kept for a year.
      const name = /href="(chunks\/chunk-[A-Z0-9]{8}\.js)"/.exec(html)?.[1];
      const script = await fetch(`${base}/dashboard/${name}`);
      expect([script.status, script.headers.get('content-type'), script.headers.get('cache-control')]).toEqual([
        200,
        'text/javascript; charset=utf-8',
        'public, max-age=31536000, immutable',
      ]);
      const status = run(
        process.execPath,
        [join(bundle, 'node_modules', 'prisma', 'build', 'index.js'), 'migrate', 'status'],
        bundle,
        {
          DATABASE_URL: database.url,
        },
      );
      expect(`${status.stdout}${status.stderr}`).toContain('Database schema is up to date');
      expect(`${status.stdout}${status.stderr}`).toContain(`${MIGRATIONS} migrations found`);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
      await database.drop();
    }
  }, 120_000);

  it('loads the demo data with `prisma db seed`, and refuses to in production', async () => {
    const database = await createScratchDatabase('seed');
    try {
      const prisma = join(bundle, 'node_modules', 'prisma', 'build', 'index.js');
      const seeded = run(process.execPath, [prisma, 'db', 'seed'], bundle, { DATABASE_URL: database.url });
      expect(`${seeded.stdout}${seeded.stderr}`).toContain('"seeded": true');
      expect(`${seeded.stdout}${seeded.stderr}`).toContain('tp_admin_');
      const refused = run(process.execPath, [join(bundle, 'cli.js'), 'seed-demo'], elsewhere, {
        DATABASE_URL: database.url,
        NODE_ENV: 'production',
        PAYMENT_PROVIDER_URL: 'https://rmp.example.com',
        PUBLIC_BASE_URL: 'https://transport.example.com',
        ACTIVATION_KEY_SECRETS: 'a-production-secret-of-forty-characters-0001',
        CERTIFICATE_SIGNING_KEYS: 'MC4CAQAwBQYDK2VwBCIEIGh9hVA79+roDUAQxEeygekMO+YR+MdWDeyjUO86C/B9',
        SMS_GATEWAY_URL: 'https://sms.example.com/v1/messages/send',
      });
      expect(refused.status).toBe(1);
      expect(refused.stdout).toContain('Refusing to load demo data with NODE_ENV=production');
    } finally {
      await database.drop();
    }
  }, 120_000);
});

/** `docker compose` (v2) where installed, else Debian's docker-compose (v1.29, which reads the same file). */
function composeCommand(): string[] | undefined {
  if (spawnSync('docker', ['compose', 'version']).status === 0) return ['docker', 'compose'];
  if (spawnSync('docker-compose', ['version']).status === 0) return ['docker-compose'];
  return undefined;
}

describe('the image', () => {
  it('starts the service with its memory policy, as `npm start` and the bundle do (apps/api/node-flags.json)', () => {
    expect(SERVICE_NODE_FLAGS.length).toBeGreaterThan(0);
    const cmd = readFileSync(join(WORKSPACE_ROOT, 'Dockerfile'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('CMD '))
      .pop();
    expect(JSON.parse((cmd ?? '').slice('CMD '.length))).toEqual(['node', ...SERVICE_NODE_FLAGS, 'main.js']);
  });
});

describe('the compose file', () => {
  const compose = composeCommand();
  // CI installs a compose tool (.ci/run); elsewhere a machine without one says so instead of passing silently.
  const check = compose || process.env.CI ? it : it.skip;
  if (!compose && !process.env.CI)
    process.stderr.write('[deployment.spec] no docker compose here: compose files not checked\n');

  const config = (file: string, env: Record<string, string>) => {
    if (!compose) throw new Error('CI needs docker compose or docker-compose to check the compose files');
    const [command, ...prefix] = compose;
    return run(command, [...prefix, '-f', file, 'config'], WORKSPACE_ROOT, env);
  };

  check('compose.yaml is the local stack: the simulator, development mode, labelled so, with no setting needed', () => {
    const result = config('compose.yaml', { POSTGRES_PASSWORD: '', ADMIN_API_KEY: '' });
    expect(result.stderr).not.toMatch(/invalid|error/i);
    expect(result.status).toBe(0);
    for (const service of ['db:', 'api1:', 'api2:', 'lb:', 'simulator:']) expect(result.stdout).toContain(service);
    expect(result.stdout).toContain('PAYMENT_PROVIDER_URL: http://simulator:3100');
    expect(result.stdout).toContain('NODE_ENV: development');
    expect(result.stdout).not.toContain('NODE_ENV: production');
    expect(
      result.stdout.match(/transport.stack: local \(development, provider simulator; not for production\)/g),
    ).toHaveLength(5);
    expect(readFileSync(join(WORKSPACE_ROOT, 'compose.yaml'), 'utf8')).toMatch(/^# The LOCAL stack/);
  });

  const PRODUCTION = {
    DATABASE_URL: 'postgresql://transport:secret@pgbouncer.internal:6432/transport',
    DATABASE_DIRECT_URL: 'postgresql://transport:secret@db.internal:5432/transport',
    PUBLIC_BASE_URL: 'https://transport.example.com',
    PAYMENT_PROVIDER_URL: 'https://rmp.hubtel.com',
    PAYMENT_PROVIDER_ACCOUNT: '2017101',
    PAYMENT_PROVIDER_CLIENT_ID: 'client',
    PAYMENT_PROVIDER_CLIENT_SECRET: 'secret',
    SMS_GATEWAY_URL: 'https://sms.hubtel.com/v1/messages/send',
    SMS_CLIENT_ID: 'sms-client',
    SMS_CLIENT_SECRET: 'sms-secret',
    ACTIVATION_KEY_SECRETS: 'a-production-secret-of-forty-characters-0001',
    CERTIFICATE_SIGNING_KEYS: 'MC4CAQAwBQYDK2VwBCIEIGh9hVA79+roDUAQxEeygekMO+YR+MdWDeyjUO86C/B9',
  };

  check('compose.production.yaml: two API instances on the given services, no database and no simulator', () => {
    const result = config('compose.production.yaml', PRODUCTION);
    expect(result.stderr).not.toMatch(/invalid|error/i);
    expect(result.status).toBe(0);
    for (const service of ['api1:', 'api2:', 'lb:']) expect(result.stdout).toContain(service);
    for (const absent of ['simulator', 'db:', 'NODE_ENV: development']) expect(result.stdout).not.toContain(absent);
    expect(result.stdout).toContain('NODE_ENV: production');
    expect(result.stdout).toContain('PAYMENT_PROVIDER_URL: https://rmp.hubtel.com');
    expect(result.stdout).toContain('SMS_GATEWAY_URL: https://sms.hubtel.com/v1/messages/send');
  });

  check.each([
    ['PAYMENT_PROVIDER_URL', /set PAYMENT_PROVIDER_URL to your payment provider \(this stack has no simulator\)/],
    ['SMS_GATEWAY_URL', /set SMS_GATEWAY_URL to your SMS gateway/],
    ['SMS_CLIENT_SECRET', /set SMS_CLIENT_SECRET/],
    ['ACTIVATION_KEY_SECRETS', /set ACTIVATION_KEY_SECRETS/],
    ['CERTIFICATE_SIGNING_KEYS', /set CERTIFICATE_SIGNING_KEYS/],
    ['DATABASE_URL', /set DATABASE_URL/],
    ['PUBLIC_BASE_URL', /set PUBLIC_BASE_URL/],
  ])('compose.production.yaml refuses to start without %s, naming it', (missing, message) => {
    const result = config('compose.production.yaml', { ...PRODUCTION, [missing]: '' });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(message);
  });
});
