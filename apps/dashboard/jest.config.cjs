module.exports = {
  displayName: 'dashboard',
  preset: '../../jest.preset.js',
  rootDir: '.',
  testMatch: ['<rootDir>/test/**/*.spec.ts'],
  // The end-to-end tests start the built API on a scratch database and drive Debian's Chromium through the dashboard.
  testTimeout: 180_000,
};
