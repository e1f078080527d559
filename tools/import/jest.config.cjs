module.exports = {
  displayName: 'import',
  preset: '../../jest.preset.js',
  rootDir: '.',
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
  // The end-to-end tests import 100,000 records into their own PostgreSQL database and start the built API on it.
  testTimeout: 300_000,
};
