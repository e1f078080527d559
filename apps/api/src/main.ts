// First: every module loaded after it is read from Node's compile cache (core/platform/compile-cache.ts).
import './core/platform/compile-cache';
import { CryptoRandomSource, SystemClock } from '@transport/domain/node';
import { Logger } from '@nestjs/common';
import { ObjectIdGenerator, type SecretHasher } from '@transport/domain';
import { createApp, DASHBOARD_PATH, DOCS_PATH } from './app';
import { loadConfig } from './config';
import { seedDemo } from './persistence/demo-seed';
import { SECRET_HASHER } from './core/tokens';
import { ensureAdminKey } from './persistence/admin-key';
import { Lifecycle } from './core/health.tokens';
import { assertPortsFree } from './core/platform/ports';
import { createRootLogger, flushLogs } from './core/observability/logging';
import pino, { type Logger as PinoRoot } from 'pino';

async function main(): Promise<void> {
  const logger = new Logger('main');
  const config = loadConfig();
  const started = Date.now();
  await assertPortsFree([
    { setting: 'PORT', host: config.host, port: config.port },
    ...(config.metrics.port === undefined
      ? []
      : [{ setting: 'METRICS_PORT', host: config.metrics.host, port: config.metrics.port }]),
  ]);
  const running = await createApp(config);
  const where =
    running.database.kind === 'embedded' ? `embedded database in ${config.dataDir}` : 'PostgreSQL at DATABASE_URL';
  logger.log(`Database ready: ${where}`);
  const pending = await running.database.pendingMigrations();
  if (pending.length > 0)
    logger.warn(
      `${pending.length} migration(s) of this release not applied (${pending.join(', ')}): /health/ready answers 503 ` +
        'until they are (prisma migrate deploy, or the migration Job: docs/operations.md#migrations)',
    );

  const clock = new SystemClock();
  const ids = new ObjectIdGenerator(clock, new CryptoRandomSource());
  if (config.adminApiKey) {
    const outcome = await ensureAdminKey(running.database.prisma, ids, config.adminApiKey, clock.now());
    if (outcome === 'revoked') logger.warn('ADMIN_API_KEY names a revoked key: it stays revoked');
    else logger.log(`ADMIN_API_KEY: admin key ${outcome}`);
  }

  let credentials;
  if (config.seedDemo) {
    const result = await seedDemo(
      {
        prisma: running.database.prisma,
        ids,
        random: new CryptoRandomSource(),
        clock,
        hasher: running.app.get<SecretHasher>(SECRET_HASHER),
      },
      config.dataDir,
    );
    logger.log(result.seeded ? 'Demo data created' : 'Demo data already present');
    credentials = result.credentials;
  }

  await running.app.listen(config.port, config.host);
  const address = running.app.getHttpServer().address() as { port: number };
  const base = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${address.port}`;
  const metricsAddress = running.metricsServer?.address() as { port: number } | undefined;
  const metricsUrl = metricsAddress
    ? `http://${config.metrics.host === '0.0.0.0' ? '127.0.0.1' : config.metrics.host}:${metricsAddress.port}/metrics`
    : 'off';
  // One JSON line like every other (pipe through `npx pino-pretty` to read it as text).
  running.logger.info(
    {
      readyInMs: Date.now() - started,
      apiBaseUrl: base,
      paymentBaseUrl: `${base}${config.paymentBasePath}`,
      docs: `${base}/${DOCS_PATH}`,
      dashboard: `${base}/${DASHBOARD_PATH}/`,
      openApi: `${base}/${DOCS_PATH}/openapi.json`,
      health: { live: `${base}/health/live`, ready: `${base}/health/ready` },
      metrics: metricsUrl,
      // Demo keys of the local demo data only (never in production: SEED_DEMO is refused there).
      ...(credentials
        ? {
            demoCredentials: {
              admin: credentials.admin,
              assembly: credentials.assembly,
              merchant: credentials.merchant,
              driverActivationKey: credentials.driverActivationKey,
              // Sign in to the dashboard as either (older data directories have no dashboard sign-in).
              dashboard: credentials.dashboard,
            },
          }
        : {}),
    },
    `Transport API listening on ${base}; the assembly dashboard is at ${base}/${DASHBOARD_PATH}/` +
      (credentials?.dashboard
        ? ` (demo: ${credentials.dashboard.approver} or ${credentials.dashboard.inspector}, password ${credentials.dashboard.password})`
        : ''),
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // An orchestrator's SIGTERM: readiness fails first and requests are still served for SHUTDOWN_DELAY_MS, so the
    // load balancer stops sending work; then the server stops accepting, finishes what is in flight, and exits.
    // A developer's Ctrl-C (SIGINT) closes at once.
    if (signal === 'SIGTERM' && config.shutdownDelayMs > 0) {
      running.app.get(Lifecycle).draining = true;
      logger.log(`SIGTERM received: draining for ${config.shutdownDelayMs} ms (readiness 503), then closing`);
      await new Promise((resolve) => setTimeout(resolve, config.shutdownDelayMs));
    } else {
      logger.log(`${signal} received: closing`);
    }
    // Closing writes out the buffered log lines (serviceLogDestination) before the process exits.
    await running.close();
    process.exit(0);
  };
  process.on('uncaughtException', (error, origin) => crash(running.logger, error, origin));
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

let crashing = false;

/**
 * An error nothing caught (a thrown callback, a rejection no one handled): the process ends as Node would end it (exit
 * code 1), but first says why in one fatal JSON line and writes every buffered line before it (access-log lines of the
 * requests just answered included). A stream that never drains still lets it end, after 5 s.
 */
function crash(logger: PinoRoot, error: Error, origin: string): void {
  if (crashing) return;
  crashing = true;
  process.exitCode = 1;
  logger.fatal({ err: error, origin }, `Stopping after an uncaught error: ${error?.message ?? String(error)}`);
  setTimeout(() => process.exit(1), 5000);
  void flushLogs(logger).then(() => process.exit(1));
}

main().catch((error: unknown) => {
  // Before the configuration is read there is no level yet: a start failure is always written, as JSON.
  createRootLogger('info', pino.destination({ dest: 2, sync: true })).fatal(
    { err: error },
    `Failed to start: ${(error as Error)?.message ?? String(error)}`,
  );
  process.exit(1);
});
