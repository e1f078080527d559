// Preloaded into the built service by access-log.e2e.spec.ts (NODE_OPTIONS=--require): on SIGUSR2 a callback throws an
// error nothing catches, as a bug in a timer or an event handler would.
'use strict';
process.on('SIGUSR2', () =>
  setImmediate(() => {
    throw new Error('a bug nothing caught (crash-on-signal.cjs)');
  }),
);
