import nx from '@nx/eslint-plugin';

// Node's I/O modules, bare and with the node: prefix: the domain has no I/O.
const nodeIo = [
  'fs',
  'fs/promises',
  'path',
  'child_process',
  'net',
  'http',
  'https',
  'http2',
  'dgram',
  'dns',
  'tls',
  'os',
  'cluster',
  'worker_threads',
  'process',
  'crypto',
  'stream',
  'readline',
  'module',
  'vm',
  'zlib',
  'url',
];

// The feature folders of apps/api/src (one per aggregate or group of routes); core/ and persistence/ are not features.
export const FEATURES = [
  'vehicles',
  'owners',
  'drivers',
  'trips',
  'reference-data',
  'admin',
  'people',
  'payments',
  'reminders',
  'search',
  'work-pack',
];
const simulatorBan = {
  group: ['@transport/provider-simulator'],
  message: 'The service talks to providers over HTTP (HttpPaymentProvider), never to the simulator.',
};

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
              bannedExternalImports: [
                '@nestjs/*',
                '@prisma/*',
                'prisma',
                'class-validator',
                'class-transformer',
                'pg',
                '@electric-sql/*',
                'express',
              ],
            },
            { sourceTag: 'type:adapter', onlyDependOnLibsWithTags: ['type:domain', 'type:adapter'] },
            // The API's tests drive the provider simulator; the API's own code must not (see the rule below).
            {
              sourceTag: 'type:app',
              onlyDependOnLibsWithTags: ['type:domain', 'type:adapter', 'type:test-double', 'type:client'],
            },
            // The generated API client knows only the OpenAPI contract.
            { sourceTag: 'type:client', onlyDependOnLibsWithTags: [] },
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
            {
              group: ['@prisma/*', 'prisma', 'prisma/*'],
              message: 'libs/domain knows no database: use a repository port.',
            },
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
    // The rows (libs/rows) are shared by the service's Prisma adapters and the importer, which writes through pg: they
    // map a domain state to a table's columns and know no database client.
    files: ['libs/rows/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@prisma/*', 'prisma', 'prisma/*', '**/generated/prisma', '**/generated/prisma/**'],
              message: 'libs/rows knows no Prisma: the Prisma adapter adds what only Prisma needs (DbNull).',
            },
            { group: ['pg', 'pg-*', 'kysely', '@electric-sql/*'], message: 'libs/rows knows no database driver.' },
            { group: ['@nestjs/*'], message: 'libs/rows is framework-free: no NestJS.' },
            { group: ['**/apps/**', '**/tools/**'], message: 'A library never imports an app.' },
          ],
        },
      ],
    },
  },
  {
    // The simulator stands in for the provider in tests and the demo; the service itself only knows the HTTP API.
    files: ['apps/api/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [simulatorBan] }],
    },
  },
  {
    // Features speak ports only: a feature folder (controllers, service, DTOs, specs) never reaches the database
    // (Prisma, persistence/), never throws Nest's HTTP exceptions (errors are DomainError or AppError, mapped to HTTP
    // in one filter), and never imports another feature's controller. Wiring happens in ports.module.ts, the app's
    // composition root.
    files: [`apps/api/src/{${FEATURES.join(',')}}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            simulatorBan,
            {
              group: ['@prisma/*', 'prisma', '**/generated/prisma', '**/generated/prisma/**'],
              message: 'Features know no database: use the ports (core/tokens.ts).',
            },
            {
              group: ['**/persistence', '**/persistence/**'],
              message: 'Features never import persistence/: inject the port it implements.',
            },
            {
              group: ['@nestjs/common'],
              importNamePattern: 'Exception$',
              message: 'Throw DomainError or AppError (core/errors.ts); the problem filter maps them to HTTP.',
            },
            {
              group: ['../*/*.controller', '../**/*.controller'],
              message: "Never import another feature's controller.",
            },
          ],
        },
      ],
    },
  },
  {
    // core/ is the ground floor: features and persistence import it, never the other way. What core/ needs from
    // above (who a key or a session is, whether the database answers) it takes through a port (core/ports.ts), bound
    // in the composition root (ports.module.ts, app.module.ts).
    files: ['apps/api/src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            simulatorBan,
            {
              group: FEATURES.flatMap((feature) => [`**/${feature}`, `**/${feature}/**`]),
              message:
                'core/ never imports a feature: declare a port in core/ports.ts and bind it in the composition root.',
            },
            {
              group: [
                '**/persistence',
                '**/persistence/**',
                '@prisma/*',
                'prisma',
                '**/generated/prisma',
                '**/generated/prisma/**',
              ],
              message: 'core/ knows no database: take a port (core/ports.ts), bound to the adapter in ports.module.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests state what they expect right after a lookup; a failed lookup fails the assertion anyway.
    files: ['**/*.spec.ts', '**/test/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
];
