import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The embedded database, served for this import by the service's own command in another process. */
export interface EmbeddedTarget {
  url: string;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * Where the service's operator commands (cli.js) and its root (prisma/, package.json) are: beside the importer in the
 * runtime bundle (import.js, cli.js), or in the repository's build (dist/tools/import, dist/apps/api).
 */
function serviceFiles(): { cli: string; appRoot: string } {
  for (const [cli, appRoot] of [
    [join(__dirname, 'cli.js'), __dirname],
    [join(__dirname, '..', '..', 'apps', 'api', 'cli.js'), join(__dirname, '..', '..', '..')],
  ])
    if (existsSync(cli) && existsSync(join(appRoot, 'prisma', 'schema.prisma'))) return { cli, appRoot };
  throw new Error(
    'DATABASE_URL is unset, and the service is not built beside the importer to open its embedded database: ' +
      'build it (npm run import does), or set DATABASE_URL',
  );
}

/**
 * The embedded database in DATA_DIR, the one `npm start` serves (DATA_DIR relative to the service's root, as there),
 * with the migrations applied. The service's command (`cli.js embedded-server`) opens it in a child process and
 * refuses while the service holds it; closing our end of its stdin closes the database.
 */
export async function openEmbeddedDatabase(): Promise<EmbeddedTarget> {
  const { cli, appRoot } = serviceFiles();
  const child = spawn(process.execPath, [cli, 'embedded-server'], {
    env: { ...process.env, APP_ROOT: process.env.APP_ROOT ?? appRoot, DATABASE_URL: '', NODE_OPTIONS: '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const ready = await new Promise<{ url: string; dataDir: string } | undefined>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => l.startsWith('{'));
      if (line && output.includes('\n')) resolve(JSON.parse(line) as { url: string; dataDir: string });
    });
    void exited.then(() => resolve(undefined));
  });
  if (!ready) {
    await exited;
    throw new Error(errors.trim().split('\n').at(-1) || `the embedded database did not open (${dirname(cli)})`);
  }
  return {
    ...ready,
    async close() {
      child.stdin.end();
      const code = await exited;
      if (code !== 0) throw new Error(`the embedded database did not close cleanly (exit ${code}): ${errors.trim()}`);
    },
  };
}
