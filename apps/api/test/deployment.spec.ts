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
      expect(await page.text()).toContain('<title>Assembly dashboard</title>');
      const script = await fetch(`${base}/dashboard/main.js`);
      expect([script.status, script.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
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
    process.stderr.write('[deployment.spec] no docker compose here: compose file not checked\n');

  check('validates, with two API instances behind the load balancer, PostgreSQL and the simulator', () => {
    if (!compose) throw new Error('CI needs docker compose or docker-compose to check compose.yaml');
    const [command, ...prefix] = compose;
    const env = { ADMIN_API_KEY: 'ci-admin-key-0123456789abcdef', POSTGRES_PASSWORD: 'ci-password' };
    const result = run(command, [...prefix, '-f', 'compose.yaml', 'config'], WORKSPACE_ROOT, env);
    expect(result.stderr).not.toMatch(/invalid|error/i);
    expect(result.status).toBe(0);
    for (const service of ['db:', 'api1:', 'api2:', 'lb:', 'simulator:']) expect(result.stdout).toContain(service);
    expect(result.stdout).toContain('DATABASE_URL: postgresql://transport:ci-password@db:5432/transport');
    // Without the secrets it refuses, naming them.
    const missing = run(command, [...prefix, '-f', 'compose.yaml', 'config'], WORKSPACE_ROOT, {
      ADMIN_API_KEY: '',
      POSTGRES_PASSWORD: '',
    });
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toMatch(/set (ADMIN_API_KEY|POSTGRES_PASSWORD)/);
  });
});
