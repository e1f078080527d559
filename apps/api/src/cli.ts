// First: every module loaded after it is read from Node's compile cache (core/platform/compile-cache.ts).
import './core/platform/compile-cache';
import { embeddedServerCommand } from './cli/embedded-server-command';
import { keysCommand } from './cli/keys-command';
import { migrationsCommand } from './cli/migrations-command';
import { seedCommand } from './cli/seed-command';
import { loadConfig } from './config';
import { describeApi } from './app';

// Operator commands, built beside the service: `node dist/apps/api/cli.js keys ...` (or `npm run keys -- ...`), and
// `node cli.js seed-demo` (what `prisma db seed` runs).
async function main(): Promise<number> {
  const [group, ...args] = process.argv.slice(2);
  const out = (line: string) => process.stdout.write(line + '\n');
  if (group === 'keys') return keysCommand(args, loadConfig(), out);
  // After a failed migration: status, rolled-back, retry (docs/operations.md, "When a migration fails").
  if (group === 'migrations') return migrationsCommand(args, loadConfig(), out);
  // --embedded (from prisma.config under `prisma db seed` with no DATABASE_URL): the placeholder URL the Prisma CLI
  // was given is not a database; the embedded one in DATA_DIR is.
  if (group === 'seed-demo')
    return seedCommand(
      loadConfig(args.includes('--embedded') ? { ...process.env, DATABASE_URL: '' } : process.env),
      out,
    );
  // The embedded database for the importer (tools/import) when DATABASE_URL is unset: docs/importing.md.
  if (group === 'embedded-server') return embeddedServerCommand(loadConfig(), out);
  // The OpenAPI document as committed (apps/api/openapi.json): default settings, no database needed.
  if (group === 'openapi') {
    out(JSON.stringify(await describeApi(loadConfig({ APP_ROOT: process.env.APP_ROOT })), null, 2));
    return 0;
  }
  process.stderr.write(
    'usage: cli keys <create|revoke|list> ... | cli migrations <status|rolled-back|retry> ... | cli seed-demo ' +
      '[--embedded] | cli openapi | cli embedded-server\n',
  );
  return 2;
}

main().then(
  // Exit once stdout is flushed: to a pipe it is written asynchronously, and a large document would be cut short.
  (code) => void process.stdout.write('', () => process.exit(code)),
  (error: unknown) => {
    process.stderr.write(`${(error as Error)?.message ?? String(error)}\n`);
    process.exit(1);
  },
);
