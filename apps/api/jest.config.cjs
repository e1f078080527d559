module.exports = {
  displayName: 'api',
  preset: '../../jest.preset.js',
  rootDir: '.',
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
  // Each end-to-end file creates its own database and applies the migrations; that takes a few seconds.
  testTimeout: 60_000,
  coverageDirectory: '../../coverage/apps/api',
};
