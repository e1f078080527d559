import { existsSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'prisma/config';
import { cliAdapterFactory, unrefLongTimers } from './prisma/cli-adapter';
import { findRunningEmbeddedPostgres, startEmbeddedPostgres } from './apps/api/src/persistence/embedded-postgres';

// With DATABASE_URL unset, the CLI works on the embedded database in DATA_DIR (default .data), like the app does.
// The datasource url must still resolve, or the CLI falls back to the native engine and tries to download it.
const useEmbedded = !process.env.DATABASE_URL;
if (useEmbedded) process.env.DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/embedded';
const dataDir = path.resolve(process.env.DATA_DIR ?? path.join(__dirname, '.data'));

// No update checks or telemetry: the CLI must not reach any host but the database.
process.env.CHECKPOINT_DISABLE ??= '1';
process.env.PRISMA_HIDE_UPDATE_MESSAGE ??= '1';

unrefLongTimers();

async function databaseUrl(): Promise<string> {
  // Migrations take a session-level advisory lock: through a pooler in transaction mode it would not hold, so the
  // server's own address (DATABASE_DIRECT_URL) is used when there is one.
  if (!useEmbedded) return process.env.DATABASE_DIRECT_URL || (process.env.DATABASE_URL as string);
  const running = await findRunningEmbeddedPostgres(dataDir);
  if (running) return `postgresql://postgres@127.0.0.1:${running.port}/postgres`;
  const embedded = await startEmbeddedPostgres({
    dataDir,
    maxConnections: 4,
    advertise: true,
    keepProcessAlive: false,
  });
  // Close the database cleanly once the CLI has nothing left to do.
  process.once('beforeExit', () => void embedded.stop());
  return embedded.url;
}

// `prisma db seed`: the demo data, through the service's own operator command (built beside this file in the runtime
// bundle, under dist/ in the repository: `npx nx build api` first).
const cli = [path.join(__dirname, 'cli.js'), path.join(__dirname, 'dist', 'apps', 'api', 'cli.js')].find((f) =>
  existsSync(f),
);

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: path.join(__dirname, 'prisma', 'schema.prisma'),
  migrations: {
    path: path.join(__dirname, 'prisma', 'migrations'),
    // Run without a shell: no quoting (a path with spaces would need APP_ROOT elsewhere).
    // With the embedded database, DATABASE_URL above is a placeholder the seed must not follow.
    seed: `node ${cli ?? 'dist/apps/api/cli.js'} seed-demo${useEmbedded ? ' --embedded' : ''}`,
  },
  adapter: async () => cliAdapterFactory(await databaseUrl()),
});
