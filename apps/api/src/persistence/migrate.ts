import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * Applies the committed migrations with the Prisma CLI (`prisma migrate deploy`), exactly as an operator would.
 * Asynchronous on purpose: when the embedded database is served from this process, a synchronous child would block
 * the event loop that answers its queries (deadlock).
 */
export async function migrateDeploy(appRoot: string, databaseUrl: string): Promise<void> {
  // createRequire from the app root: a plain require.resolve would be rewritten by webpack.
  const cli = createRequire(join(appRoot, 'package.json')).resolve('prisma/build/index.js');
  const output: string[] = [];
  const code = await new Promise<number | null>((resolvePromise, reject) => {
    const child = spawn(process.execPath, [cli, 'migrate', 'deploy'], {
      cwd: appRoot,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        NODE_OPTIONS: '',
        PRISMA_HIDE_UPDATE_MESSAGE: '1',
        CHECKPOINT_DISABLE: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.on('error', reject);
    child.on('close', resolvePromise);
  });
  if (code !== 0) {
    throw new Error(`prisma migrate deploy failed (exit ${code}):\n${output.join('')}`);
  }
}
