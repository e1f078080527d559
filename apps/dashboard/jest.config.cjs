const { availableParallelism } = require('node:os');
const preset = require('../../jest.preset.js');

// intl-messageformat (the words' formatter) and its @formatjs parts are ES modules only; Jest's module loader cannot
// require them before Node 24.9, so the tests compile just these packages to CommonJS with swc (as apps/api's do).
const ESM_ONLY = ['intl-messageformat', '@formatjs'];
const [swc, swcOptions] = preset.transform['^.+\\.ts$'];

module.exports = {
  displayName: 'dashboard',
  preset: '../../jest.preset.js',
  rootDir: '.',
  testMatch: ['<rootDir>/test/**/*.spec.ts'],
  transform: {
    ...preset.transform,
    [`node_modules/(${ESM_ONLY.join('|')})/.+\\.js$`]: [
      swc,
      { ...swcOptions, jsc: { ...swcOptions.jsc, parser: { syntax: 'ecmascript' } } },
    ],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`],
  // The end-to-end tests start the built API on a scratch database and drive Debian's Chromium through the dashboard.
  // One worker per core (Jest's default leaves one idle): each file starts its own API on its own database
  // (named by the worker's pid) and its own Chromium, so files run side by side.
  maxWorkers: availableParallelism(),
  testTimeout: 180_000,
};
