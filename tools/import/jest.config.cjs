const { availableParallelism } = require('node:os');

module.exports = {
  displayName: 'import',
  preset: '../../jest.preset.js',
  rootDir: '.',
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
  // The end-to-end tests import 100,000 records into their own PostgreSQL database and start the built API on it.
  // One worker per core (Jest's default leaves one idle): each file imports into its own database (named by the
  // worker's pid) or data directory, so files run side by side.
  maxWorkers: availableParallelism(),
  testTimeout: 300_000,
};
