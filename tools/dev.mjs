// `npm run dev` (tools/run.mjs dev): the API, the provider simulator and the dashboard, each built by its own build.mjs
// in esbuild's watch mode; a change to a source file rebuilds what uses it, and a new build of the API or the
// simulator restarts that process (only when its output changed: an edit of a comment or a type restarts nothing).
// The dashboard is served from its build folder by the API, so a rebuild shows on the next page load. A build that
// fails leaves the last good process running and says why. Ctrl-C stops the watchers and both processes.
import { context } from 'esbuild';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { builds as apiBuilds } from '../apps/api/build.mjs';
import { builds as dashboardBuilds } from '../apps/dashboard/build.mjs';
import { builds as simulatorBuilds } from '../apps/provider-simulator/build.mjs';
import { root } from './build/node-app.mjs';

const say = (message) => console.log(`[dev] ${message}`);

/** A child process that is replaced by a new one on every new build of its script. */
class Restartable {
  #child;
  #exited;
  #lastBuild;
  #queue = Promise.resolve();
  #closed = false;

  constructor(name, script, args, env) {
    Object.assign(this, { name, script, args, env });
  }

  /** After a successful build: start, or restart when the built script differs from what runs. */
  built() {
    this.#queue = this.#queue.then(async () => {
      const build = existsSync(this.script) ? createHash('sha256').update(readFileSync(this.script)).digest('hex') : '';
      if (build === this.#lastBuild && this.#child?.exitCode === null) return;
      this.#lastBuild = build;
      if (this.#closed) return;
      if (this.#child) say(`${this.name} rebuilt: restarting`);
      await this.stop();
      const child = spawn(process.execPath, [...this.args, this.script], {
        cwd: root,
        stdio: 'inherit',
        env: this.env,
      });
      this.#child = child;
      this.#exited = new Promise((resolve) => child.once('exit', resolve));
      child.once('exit', (code, signal) => {
        if (this.#child === child && !this.#closed)
          say(`${this.name} exited (${signal ?? `code ${code}`}); waiting for a change to start it again`);
      });
    });
    return this.#queue;
  }

  /** Stops the process for good (`npm run dev` is stopping). */
  async close() {
    this.#closed = true;
    await this.#queue;
    await this.stop();
  }

  async stop() {
    const child = this.#child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await this.#exited;
  }
}

/** An esbuild plugin: after each build, say how it went and hand a successful one to `onBuilt`. */
function reportBuilds(name, onBuilt) {
  return {
    name: 'dev-report',
    setup(build) {
      let started = 0;
      build.onStart(() => {
        started = Date.now();
      });
      build.onEnd(async (result) => {
        if (result.errors.length > 0) {
          say(`${name}: build failed (${result.errors.length} errors); the last good build keeps running`);
          return;
        }
        say(`${name} built in ${Date.now() - started} ms`);
        await onBuilt?.();
      });
    },
  };
}

/**
 * Starts the watchers (each begins with a full build, after which its process starts) and returns `stop()`. `env.api` and `env.simulator` are the processes' environments (tools/run.mjs: the same as `npm start`);
 * without `env.simulator` (a real provider configured) the simulator is neither built nor started.
 */
export async function dev({ api: apiEnv, simulator: simulatorEnv, nodeFlags }) {
  // The API exits at once on SIGTERM in development (no load balancer to drain), and maps its stack traces to the
  // TypeScript sources.
  const api = new Restartable(
    'api',
    join(root, 'dist', 'apps', 'api', 'main.js'),
    [...nodeFlags, '--enable-source-maps'],
    { SHUTDOWN_DELAY_MS: '0', ...apiEnv },
  );
  const simulator = new Restartable(
    'provider-simulator',
    join(root, 'dist', 'apps', 'provider-simulator', 'main.js'),
    ['--enable-source-maps'],
    simulatorEnv,
  );
  const [service, commands] = apiBuilds();
  const watched = [
    { ...service, plugins: [...service.plugins, reportBuilds('api', () => api.built())] },
    { ...commands, plugins: [...commands.plugins, reportBuilds('prisma.config')] },
    ...dashboardBuilds({ compress: false }).map((options) => ({
      ...options,
      plugins: [...options.plugins, reportBuilds('dashboard')],
    })),
    ...(simulatorEnv
      ? simulatorBuilds().map((options) => ({
          ...options,
          plugins: [...options.plugins, reportBuilds('provider-simulator', () => simulator.built())],
        }))
      : []),
  ];
  const contexts = await Promise.all(watched.map((options) => context(options)));
  // Watch mode starts with a full build of each.
  await Promise.all(contexts.map((ctx) => ctx.watch()));
  say('watching apps/, libs/ and prisma.config.ts: save a file to rebuild; Ctrl-C stops everything');
  return {
    async stop() {
      await Promise.all(contexts.map((ctx) => ctx.dispose()));
      await Promise.all([api.close(), simulator.close()]);
    },
  };
}
