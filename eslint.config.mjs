import nx from '@nx/eslint-plugin';

// Node's I/O modules, bare and with the node: prefix: the domain has no I/O.
const nodeIo = ['fs', 'fs/promises', 'path', 'child_process', 'net', 'http', 'https', 'http2', 'dgram', 'dns', 'tls',
  'os', 'cluster', 'worker_threads', 'process', 'crypto', 'stream', 'readline', 'module', 'vm', 'zlib', 'url'];

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  {
    ignores: ['**/dist', '**/node_modules', '**/coverage', '**/.data', 'apps/api/src/generated/**', '**/tmp'],
  },
  {
    files: ['**/*.ts'],
    rules: {
      // Architecture: the domain depends on nothing; adapters and apps may depend on the domain; nothing depends on
      // an app. Tags live in each project.json.
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          allow: [],
          depConstraints: [
            {
              sourceTag: 'type:domain',
              onlyDependOnLibsWithTags: ['type:domain'],
              bannedExternalImports: ['@nestjs/*', '@prisma/*', 'prisma', 'class-validator', 'class-transformer', 'pg',
                '@electric-sql/*', 'express'],
            },
            { sourceTag: 'type:adapter', onlyDependOnLibsWithTags: ['type:domain', 'type:adapter'] },
            // The API's tests drive the provider simulator; the API's own code must not (see the rule below).
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:domain', 'type:adapter', 'type:test-double'] },
            { sourceTag: 'type:test-double', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:simulator-app', onlyDependOnLibsWithTags: ['type:test-double'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The Nx rule does not see packages that are not installed, nor Node's built-ins: name them explicitly.
    files: ['libs/domain/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeIo.flatMap((name) => [
            { name, message: 'libs/domain does no I/O: take what you need through a port.' },
            { name: `node:${name}`, message: 'libs/domain does no I/O: take what you need through a port.' },
          ]),
          patterns: [
            { group: ['@nestjs/*'], message: 'libs/domain is framework-free: no NestJS.' },
            { group: ['@prisma/*', 'prisma', 'prisma/*'], message: 'libs/domain knows no database: use a repository port.' },
            { group: ['class-validator', 'class-transformer'], message: 'libs/domain validates with its own rules.' },
            { group: ['pg', 'pg-*', '@electric-sql/*'], message: 'libs/domain knows no database driver.' },
            { group: ['express', 'supertest'], message: 'libs/domain knows no HTTP.' },
            { group: ['**/apps/**', '@transport/api', '@transport/api/*'], message: 'A library never imports an app.' },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'libs/domain reads no environment: pass values in.' },
        { name: 'fetch', message: 'libs/domain does no I/O: use a port.' },
        { name: 'require', message: 'libs/domain imports with ES syntax only.' },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Use the Clock port.' },
        { object: 'Math', property: 'random', message: 'Use the RandomSource port.' },
      ],
    },
  },
  {
    // The simulator stands in for the provider in tests and the demo; the service itself only knows the HTTP API.
    files: ['apps/api/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@transport/provider-simulator'], message: 'The service talks to providers over HTTP (HttpPaymentProvider), never to the simulator.' }] },
      ],
    },
  },
  {
    // Tests state what they expect right after a lookup; a failed lookup fails the assertion anyway.
    files: ['**/*.spec.ts', '**/test/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
];
