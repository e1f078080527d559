import { Logger } from '@nestjs/common';
import { ObjectIdGenerator } from '@transport/domain';
import { createApp, DOCS_PATH } from './app';
import { loadConfig } from './config';
import { CryptoRandomSource } from './core/platform/crypto-random-source';
import { SystemClock } from './core/platform/system-clock';
import { seedDemo } from './persistence/demo-seed';
import { ensureAdminKey } from './persistence/admin-key';
import { Lifecycle } from './core/health.tokens';

async function main(): Promise<void> {
  const logger = new Logger('main');
  const config = loadConfig();
  const started = Date.now();
  const running = await createApp(config);
  const where =
    running.database.kind === 'embedded' ? `embedded database in ${config.dataDir}` : 'PostgreSQL at DATABASE_URL';
  logger.log(`Database ready: ${where}`);

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
      { prisma: running.database.prisma, ids, random: new CryptoRandomSource(), clock },
      config.dataDir,
    );
    logger.log(result.seeded ? 'Demo data created' : 'Demo data already present');
    credentials = result.credentials;
  }

  await running.app.listen(config.port, config.host);
  const address = running.app.getHttpServer().address() as { port: number };
  const base = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${address.port}`;
  const lines = [
    '',
    `Transport API listening (ready in ${Date.now() - started} ms)`,
    `  API base URL:      ${base}`,
    `  Payment base URL:  ${base}${config.paymentBasePath}   (GET ${base}${config.paymentBasePath}/payment/check_transaction?reference=...)`,
    `  OpenAPI docs:      ${base}/${DOCS_PATH}   (JSON: ${base}/${DOCS_PATH}/openapi.json)`,
    `  Health:            ${base}/health/live, ${base}/health/ready`,
  ];
  if (credentials) {
    lines.push(
      '  Demo credentials (send as the Authorization header):',
      `    admin:     ${credentials.admin}`,
      `    assembly:  ${credentials.assembly}`,
      `    merchant:  ${credentials.merchant}`,
      `  Activation key of the demo driver Fiifi Mensah (not yet activated): ${credentials.driverActivationKey}`,
    );
  }
  lines.push('');
  process.stdout.write(lines.join('\n') + '\n');

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
    await running.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`Failed to start: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
