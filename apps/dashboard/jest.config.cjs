const { availableParallelism } = require('node:os');

module.exports = {
  displayName: 'dashboard',
  preset: '../../jest.preset.js',
  rootDir: '.',
  testMatch: ['<rootDir>/test/**/*.spec.ts'],
  // The end-to-end tests start the built API on a scratch database and drive Debian's Chromium through the dashboard.
  // One worker per core (Jest's default leaves one idle): each file starts its own API on its own database
  // (named by the worker's pid) and its own Chromium, so files run side by side.
  maxWorkers: availableParallelism(),
  testTimeout: 180_000,
};
