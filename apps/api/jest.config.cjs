const { availableParallelism } = require('node:os');
const preset = require('../../jest.preset.js');

// pg-boss and a few of its dependencies are ES modules only. Node runs them through require() (20.19+), but Jest's
// own module loader cannot before Node 24.9, so the tests compile just these packages to CommonJS with swc.
const ESM_ONLY = [
  'pg-boss',
  'serialize-error',
  'non-error',
  'rrule-temporal',
  'temporal-spec',
  'intl-messageformat',
  '@formatjs',
];
const [swc, swcOptions] = preset.transform['^.+\\.ts$'];

module.exports = {
  displayName: 'api',
  preset: '../../jest.preset.js',
  rootDir: '.',
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
  // The storm (minutes of two API processes and PostgreSQL at full load) is its own step, `nx run api:storm`
  // (jest.storm.config.cjs), which `npm test` runs after the rest: beside the other files it doubled their time and
  // its own.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/storm\\.e2e\\.spec\\.ts$'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  transform: {
    ...preset.transform,
    [`node_modules/(${ESM_ONLY.join('|')})/.+\\.js$`]: [
      swc,
      { ...swcOptions, jsc: { ...swcOptions.jsc, parser: { syntax: 'ecmascript' } } },
    ],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`],
  // Each end-to-end file works on its own database (or embedded data directory), copied from the run's migrated
  // template, on free ports: files run side by side, one worker per core (Jest's default leaves one core idle).
  maxWorkers: availableParallelism(),
  testTimeout: 60_000,
  coverageDirectory: '../../coverage/apps/api',
};
