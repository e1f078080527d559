module.exports = {
  displayName: 'api',
  preset: '../../jest.preset.js',
  rootDir: '.',
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  // Each end-to-end file creates its own database (or embedded data directory) and applies the migrations.
  testTimeout: 60_000,
  coverageDirectory: '../../coverage/apps/api',
};
