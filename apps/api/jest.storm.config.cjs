// The storm test alone (test/storm.e2e.spec.ts: two built API processes, thousands of payments and callbacks, one
// instance killed mid-storm): `nx run api:storm`, which `npm test` runs as its own step after the other projects'
// tests, so it has the machine to itself and slows nothing else down. Everything else as the API's Jest config.
const base = require('./jest.config.cjs');

module.exports = {
  ...base,
  displayName: 'api-storm',
  testMatch: ['<rootDir>/test/storm.e2e.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  maxWorkers: 1,
  reporters: ['default', ['<rootDir>/../../tools/jest-summary-reporter.cjs', { name: 'api-storm' }]],
};
