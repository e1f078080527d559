// `npm run dev` (tools/run.mjs dev): the API, the provider simulator and the dashboard, each built by its own build.mjs
// in esbuild's watch mode; a change to a source file rebuilds what uses it, and a new build of the API or the
// simulator restarts that process (only when its output changed: an edit of a comment or a type restarts nothing).
// The dashboard is served from its build folder by the API, so a rebuild shows on the next page load. A build that
// fails leaves the last good process running and says why. Ctrl-C stops the watchers and both processes.
import { context } from 'esbuild';
import { join } from 'node:path';
import { builds as apiBuilds } from '../apps/api/build.mjs';
import { builds as dashboardBuilds } from '../apps/dashboard/build.mjs';
import { builds as simulatorBuilds } from '../apps/provider-simulator/build.mjs';
import { root } from './build/node-app.mjs';
import { Restartable } from './build/restartable.mjs';

const say = (message) => console.log(`[dev] ${message}`);

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
    say,
    'api',
    join(root, 'dist', 'apps', 'api', 'main.js'),
    [...nodeFlags, '--enable-source-maps'],
    { SHUTDOWN_DELAY_MS: '0', ...apiEnv },
    root,
  );
  const simulator = new Restartable(
    say,
    'provider-simulator',
    join(root, 'dist', 'apps', 'provider-simulator', 'main.js'),
    ['--enable-source-maps'],
    simulatorEnv,
    root,
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
