import { startProviderSimulator, type Behaviour } from '@transport/provider-simulator';
import pino from 'pino';

// JSON lines, like the API it runs beside.
const logger = pino({ base: { service: 'provider-simulator' }, timestamp: pino.stdTimeFunctions.isoTime });

// The simulator as a process (the demo runs it beside the API): settings from the environment.
const env = process.env;
const behaviour: Partial<Behaviour> = {};
if (env.SIMULATOR_OUTCOME === 'success' || env.SIMULATOR_OUTCOME === 'failed')
  behaviour.outcome = env.SIMULATOR_OUTCOME;
if (env.SIMULATOR_DELAY_MS) behaviour.delayMs = Number(env.SIMULATOR_DELAY_MS);
if (env.SIMULATOR_DUPLICATES) behaviour.duplicates = Number(env.SIMULATOR_DUPLICATES);
for (const [name, key] of [
  ['SIMULATOR_REORDER', 'reorder'],
  ['SIMULATOR_DROP', 'drop'],
  ['SIMULATOR_WRONG_AMOUNT', 'wrongAmount'],
  ['SIMULATOR_REFUSE', 'refuse'],
] as const) {
  if (env[name]) behaviour[key] = /^(1|true|yes|on)$/i.test(env[name] ?? '');
}

startProviderSimulator({
  port: Number(env.SIMULATOR_PORT ?? 3100),
  host: env.SIMULATOR_HOST ?? '127.0.0.1',
  clientId: env.SIMULATOR_CLIENT_ID || undefined,
  clientSecret: env.SIMULATOR_CLIENT_SECRET || undefined,
  callbackSecret: env.SIMULATOR_CALLBACK_SECRET || undefined,
  behaviour,
  log: (line) => logger.info(line),
}).then(
  (simulator) => {
    logger.info(`Hubtel-style provider listening on ${simulator.url}`);
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      process.on(signal, () => void simulator.close().then(() => process.exit(0)));
  },
  (error: NodeJS.ErrnoException) => {
    // Another copy's simulator on the port: say which setting moves this one.
    const hint =
      error.code === 'EADDRINUSE'
        ? `: port ${env.SIMULATOR_PORT ?? 3100} is already in use (another copy of this service, or another program); set SIMULATOR_PORT to a free port`
        : '';
    logger.fatal({ err: error }, `failed to start: ${error.message}${hint}`);
    process.exit(1);
  },
);
