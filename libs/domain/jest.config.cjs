module.exports = {
  displayName: 'domain',
  preset: '../../jest.preset.js',
  rootDir: '.',
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
  collectCoverage: true,
  coverageProvider: 'v8',
  coverageReporters: ['text-summary', 'lcov'],
  coverageDirectory: '../../coverage/libs/domain',
  collectCoverageFrom: [
    'src/**/*.ts',
    '!src/**/*.spec.ts',
    '!src/**/index.ts',
    '!src/**/*.repository.ts',
    '!src/**/payment-provider.ts',
    '!src/shared/events.ts',
    '!src/shared/page.ts',
    '!src/shared/secret-hasher.ts',
    // Fixtures only tests use (onlyRefusals throws only when a property test has found a bug).
    '!src/testing/fixtures.ts',
  ],
  // The domain is small enough to test completely: a line or branch without a test is a rule nobody checked.
  coverageThreshold: { global: { lines: 100, branches: 100, functions: 100, statements: 100 } },
};
