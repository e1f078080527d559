import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

// Not test-app's WORKSPACE_ROOT: importing test-app loads the whole app, and other projects' tests (the dashboard's)
// start the built service without it.
const WORKSPACE_ROOT = resolve(__dirname, '../../../..');

/** The V8 flags the service always starts with (its memory policy, docs/performance.md, "Memory"). */
export const SERVICE_NODE_FLAGS = JSON.parse(
  readFileSync(join(WORKSPACE_ROOT, 'apps', 'api', 'node-flags.json'), 'utf8'),
) as string[];

/** The built service running as a child process, as an operator starts it. */
export interface ServiceProcess {
  child: ChildProcess;
  /** The API base URL from the service's own "listening" log line. */
  base: string;
  /** Everything it wrote so far, stdout and stderr. */
  output(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/**
 * Starts `node <flags> <script>` (the service's own flags) and waits (up to a minute) for its JSON "listening" line, which names the base URL; a
 * process that exits first, or never says it listens, fails with everything it wrote.
 */
export async function startService(
  script: string,
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, script], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: string[] = [];
  child.stdout.on('data', (d) => chunks.push(String(d)));
  child.stderr.on('data', (d) => chunks.push(String(d)));
  const output = () => chunks.join('');
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const listening = output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { apiBaseUrl?: string })
      .find((line) => line.apiBaseUrl);
    if (listening?.apiBaseUrl) return { child, base: listening.apiBaseUrl, output, exited };
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`the service never said it listens:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
