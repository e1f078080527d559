// Our own preset instead of @nx/jest/preset: Nx's preset brings ts-jest and jsdom, which Jest merges with any
// transform we set. We keep only the Nx resolver (it makes the tsconfig path aliases resolvable) and use swc.
const swcOptions = {
  jsc: {
    target: 'es2022',
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

module.exports = {
  testEnvironment: 'node',
  resolver: '@nx/jest/plugins/resolver',
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: { '^.+\\.ts$': ['@swc/jest', swcOptions] },
  testMatch: ['**/?(*.)+(spec|test).ts'],
  verbose: true,
  reporters: ['default', '<rootDir>/../../tools/jest-summary-reporter.cjs'],
};
