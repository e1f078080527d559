import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import request from 'supertest';
import { poolConfigFromUrl } from '../src/persistence/connection-config';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import {
  createCluster,
  describeWithPrograms,
  findProgram,
  postgresBin,
  serverFolder,
  type LocalCluster,
} from './support/local-servers';
import { WORKSPACE_ROOT } from './support/test-app';

/** A certificate authority of the test's own and a server certificate it signed for 127.0.0.1 (openssl). */
function makeCertificates(dir: string): { ca: string; cert: string; key: string } {
  const openssl = (...args: string[]) => {
    const result = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`openssl ${args.join(' ')}: ${result.stderr}`);
  };
  const days = ['-days', '2'];
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    ...days,
    '-subj',
    '/CN=transport test CA',
  );
  openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
    '-subj',
    '/CN=127.0.0.1',
  );
  writeFileSync(join(dir, 'san.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.crt',
    ...days,
    '-extfile',
    'san.cnf',
  );
  const read = (name: string) => readFileSync(join(dir, name), 'utf8');
  return { ca: join(dir, 'ca.crt'), cert: read('server.crt'), key: read('server.key') };
}

describe('the migrations connect with every parameter of the URL', () => {
  it('keeps TLS settings, options and the application name as pg reads them, in discrete fields', () => {
    const dir = serverFolder('ca');
    try {
      writeFileSync(join(dir, 'ca.crt'), 'a CA certificate');
      const config = poolConfigFromUrl(
        `postgresql://app:s%40cret@db.internal:6432/transport?sslmode=verify-full&sslrootcert=${join(dir, 'ca.crt')}` +
          '&options=-c%20search_path%3Dtransport&application_name=transport-api',
      );
      expect(config).toMatchObject({
        host: 'db.internal',
        port: 6432,
        user: 'app',
        password: 's@cret',
        database: 'transport',
        ssl: { ca: 'a CA certificate' },
        options: '-c search_path=transport',
        application_name: 'transport-api',
      });
      // No connectionString: the shadow database's pool is built as { ...config, database } (cli-adapter.ts).
      expect(config).not.toHaveProperty('connectionString');
      expect(poolConfigFromUrl('postgresql://127.0.0.1/')).toMatchObject({ user: 'postgres', database: 'postgres' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// A PostgreSQL that accepts TLS connections only (hostnossl rejected), with a certificate from a CA of the test's own:
// the app's pool, the migrations on start (Prisma's CLI through cli-adapter.ts) and `prisma migrate status` all
// connect with the URL's sslmode=verify-full and sslrootcert, or not at all.
describeWithPrograms('TLS-only PostgreSQL', { openssl: findProgram('openssl'), initdb: postgresBin() }, () => {
  let cluster: LocalCluster;
  let ca: string;
  let certificates: string;
  const tlsUrl = () =>
    cluster.url(
      'transport',
      `sslmode=verify-full&sslrootcert=${encodeURIComponent(ca)}&application_name=transport-tls`,
    );

  beforeAll(async () => {
    certificates = serverFolder('certs');
    const made = makeCertificates(certificates);
    ca = made.ca;
    cluster = await createCluster('tls', {
      settings: ['ssl = on', "ssl_cert_file = 'server.crt'", "ssl_key_file = 'server.key'", 'log_connections = on'],
      hba: ['hostssl all all 127.0.0.1/32 trust', 'hostnossl all all 127.0.0.1/32 reject'],
      files: { 'server.crt': made.cert, 'server.key': made.key },
      connectWith: `sslmode=verify-full&sslrootcert=${ca}`,
    });
    const admin = new pg.Client({ connectionString: cluster.url('postgres', `sslmode=verify-full&sslrootcert=${ca}`) });
    await admin.connect();
    await admin.query('CREATE DATABASE transport');
    await admin.end();
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
    if (certificates) rmSync(certificates, { recursive: true, force: true });
  });

  it('refuses a connection without TLS (so what follows cannot pass without it)', async () => {
    const plain = new pg.Client({ connectionString: cluster.url('transport', 'sslmode=disable') });
    await expect(plain.connect()).rejects.toThrow(/pg_hba.conf rejects connection|no encryption/);
    await plain.end().catch(() => undefined);
  });

  it('refuses a server whose certificate the given CA did not sign', async () => {
    const other = serverFolder('other-ca');
    try {
      const stranger = makeCertificates(other).ca;
      const client = new pg.Client({
        connectionString: cluster.url('transport', `sslmode=verify-full&sslrootcert=${stranger}`),
      });
      await expect(client.connect()).rejects.toThrow(/self[- ]signed|unable to verify|certificate/i);
      await client.end().catch(() => undefined);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('migrates on start, serves, and reports the migrations applied, all over TLS', async () => {
    const config = loadConfig({
      ...process.env,
      APP_ROOT: WORKSPACE_ROOT,
      DATABASE_URL: tlsUrl(),
      LOG_LEVEL: 'silent',
      METRICS_PORT: 'off',
      JOB_WORKERS: 'false',
    });
    const app = await createApp(config);
    try {
      await request(app.app.getHttpServer()).get('/health/ready').expect(200);
      await request(app.app.getHttpServer()).get('/vehicles/all').expect(200);
      const { rows } = await app.database.pool.query<{ ssl: boolean; application_name: string }>(
        'SELECT s.ssl, a.application_name FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE a.pid = pg_backend_pid()',
      );
      expect(rows).toEqual([{ ssl: true, application_name: 'transport-tls' }]);
    } finally {
      await app.close();
    }
    // The operator's CLI on the same URL.
    const status = spawnSync(
      process.execPath,
      [join(WORKSPACE_ROOT, 'node_modules', 'prisma', 'build', 'index.js'), 'migrate', 'status'],
      { cwd: WORKSPACE_ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', DATABASE_URL: tlsUrl() } },
    );
    expect(`${status.stdout}${status.stderr}`).toContain('Database schema is up to date');
    // The server saw the migrations' connections with the URL's application name, over TLS.
    const log = readFileSync(join(cluster.dir, 'server.log'), 'utf8');
    expect(log).toMatch(
      /connection authorized: user=postgres database=transport application_name=transport-tls SSL enabled/,
    );
  }, 180_000);
});
