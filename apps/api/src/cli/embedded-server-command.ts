import type { AppConfig } from '../config';
import { findRunningEmbeddedPostgres, startEmbeddedPostgres } from '../persistence/embedded-postgres';
import { migrateDeploy, migrationsApplied } from '../persistence/migrate';

/**
 * Serves the embedded database in DATA_DIR (the one `npm start` serves) to an operator tool in another process, the
 * importer of the original service's exports: the migrations applied first, then one JSON line `{ "url", "dataDir" }`
 * on stdout, served until stdin closes (the tool is done or gone) or a signal comes, then closed cleanly.
 *
 * Refused while the service (or anything else) holds that data directory: an import holds the database for its whole
 * run, and the embedded server serves one session, so it would stall the service; and one server per directory.
 * While it runs it advertises itself in `server.json`, so the service refuses to start on the directory meanwhile.
 */
export async function embeddedServerCommand(config: AppConfig, out: (line: string) => void): Promise<number> {
  if (config.databaseUrl) throw new Error('DATABASE_URL is set: this command serves the embedded database only');
  const running = await findRunningEmbeddedPostgres(config.dataDir);
  if (running)
    throw new Error(
      `the embedded database in ${config.dataDir} is held by process ${running.pid} (the service, or another tool): ` +
        'stop it first, or import into a PostgreSQL server with DATABASE_URL',
    );
  // Three: the tool's one connection, the Prisma CLI's, and one spare.
  const embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, maxConnections: 3, advertise: true });
  try {
    if (!(await migrationsApplied(config.appRoot, embedded.url))) await migrateDeploy(config.appRoot, embedded.url);
    out(JSON.stringify({ url: embedded.url, dataDir: embedded.dataDir }));
    await new Promise<void>((resolve) => {
      process.stdin.once('end', resolve).once('close', resolve).resume();
      process.once('SIGINT', resolve).once('SIGTERM', resolve);
    });
  } finally {
    await embedded.stop();
  }
  return 0;
}
