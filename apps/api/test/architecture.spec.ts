import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

// "Services speak ports only" is a lint rule; it is only worth something if it fires. Lint code placed in a feature
// folder that breaks it, and code placed in persistence/ that may do what features may not.
const root = join(__dirname, '..', '..', '..');

interface LintMessage {
  ruleId: string | null;
  message: string;
  severity: number;
}

/**
 * Lints code as if it were the named file, with the repository's ESLint configuration (as `nx lint` runs it). Every
 * case of this file is linted by one ESLint process (beforeAll below): loading the configuration and its plugins is
 * most of a lint's cost, about 5 s of CPU each time, and the cases were sixteen processes before.
 */
const cases: Array<{ file: string; code: string }> = [];
const results: string[][] = [];

/** Declares a case while the file loads; what it answers gives the case's errors once beforeAll has linted them. */
function linted(file: string, code: string): () => string[] {
  const index = cases.push({ file: join(root, file), code }) - 1;
  return () => {
    const messages = results[index];
    if (!messages) throw new Error(`${file} was not linted: beforeAll failed`);
    return messages;
  };
}

const LINT_ALL = `
import { ESLint } from 'eslint';
let input = '';
for await (const chunk of process.stdin) input += chunk;
const eslint = new ESLint({ cwd: process.cwd() });
const out = [];
for (const { file, code } of JSON.parse(input)) {
  const [report] = await eslint.lintText(code, { filePath: file });
  out.push(report.messages);
}
process.stdout.write(JSON.stringify(out));
`;

beforeAll(() => {
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', LINT_ALL], {
    cwd: root,
    input: JSON.stringify(cases),
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`eslint crashed: ${result.stderr}`);
  const reports = JSON.parse(result.stdout) as LintMessage[][];
  for (const report of reports)
    results.push(report.filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`));
}, 120_000);

const restricted = (errors: string[]) => errors.filter((e) => e.startsWith('no-restricted-imports'));

describe('apps/api architecture: features speak ports only, core/ stands on nothing above it', () => {
  jest.setTimeout(60_000);

  it.each(
    [
      [
        'the generated Prisma client',
        "import { PrismaClient } from '../generated/prisma/client';\nexport const x = PrismaClient;\n",
      ],
      ['@prisma/client', "import { PrismaClient } from '@prisma/client';\nexport const x = PrismaClient;\n"],
      [
        'a Prisma adapter in persistence/',
        "import { PrismaUnitOfWork } from '../persistence/prisma-unit-of-work';\nexport const x = PrismaUnitOfWork;\n",
      ],
      ["Nest's HttpException", "import { HttpException } from '@nestjs/common';\nexport const x = HttpException;\n"],
      [
        "Nest's NotFoundException",
        "import { Injectable, NotFoundException } from '@nestjs/common';\nexport const x = [Injectable, NotFoundException];\n",
      ],
      [
        "another feature's controller",
        "import { DriversController } from '../drivers/drivers.controller';\nexport const x = DriversController;\n",
      ],
    ].map(([what, code]) => [what, linted('apps/api/src/vehicles/vehicles.service.ts', code)] as const),
  )('refuses a service importing %s', (_what, errors) => {
    expect(restricted(errors())).toHaveLength(1);
  });

  const inFeatures = ['owners', 'drivers', 'trips', 'reference-data', 'admin', 'payments', 'search'].map((feature) =>
    linted(
      `apps/api/src/${feature}/${feature}.service.ts`,
      "import { PrismaClient } from '../generated/prisma/client';\nexport const x = PrismaClient;\n",
    ),
  );
  it('holds in every feature folder, payments included', () => {
    for (const errors of inFeatures) expect(restricted(errors())).toHaveLength(1);
  });

  const serviceAllowed = linted(
    'apps/api/src/vehicles/vehicles.service.ts',
    "import { Inject, Injectable } from '@nestjs/common';\nimport { CommonErrors } from '@transport/domain';\n" +
      "import { UNIT_OF_WORK } from '../core/tokens';\nimport { AppError } from '../core/errors';\n" +
      'export const x = [Inject, Injectable, CommonErrors, UNIT_OF_WORK, AppError];\n',
  );
  it('accepts what a service should import: the domain, the ports, injection (the rule does not refuse everything)', () => {
    expect(serviceAllowed()).toEqual([]);
  });

  it.each(
    [
      ['a feature', "import { PeopleService } from '../../people/people.service';\nexport const x = PeopleService;\n"],
      [
        'a feature module',
        "import { PaymentsModule } from '../../payments/payments.module';\nexport const x = PaymentsModule;\n",
      ],
      [
        'an adapter in persistence/',
        "import { ApiKeyStore } from '../../persistence/prisma-api-key.store';\nexport const x = ApiKeyStore;\n",
      ],
      [
        'the generated Prisma client',
        "import { PrismaClient } from '../../generated/prisma/client';\nexport const x = PrismaClient;\n",
      ],
    ].map(([what, code]) => [what, linted('apps/api/src/core/auth/api-key.guard.ts', code)] as const),
  )('refuses core/ importing %s: core is the ground floor, features and persistence build on it', (_what, errors) => {
    expect(restricted(errors())).toHaveLength(1);
  });

  const inCore = [
    linted(
      'apps/api/src/core/health.controller.ts',
      "import { DATABASE } from '../persistence/database.module';\nexport const x = DATABASE;\n",
    ),
    ...['http/probe.ts', 'platform/probe.ts', 'observability/probe.ts', 'testing/probe.ts'].map((file) =>
      linted(
        `apps/api/src/core/${file}`,
        "import { VehiclesService } from '../../vehicles/vehicles.service';\nexport const x = VehiclesService;\n",
      ),
    ),
  ];
  it('holds in every folder of core/, its top level included', () => {
    for (const errors of inCore) expect(restricted(errors())).toHaveLength(1);
  });

  const coreAllowed = linted(
    'apps/api/src/core/auth/api-key.guard.ts',
    "import { Inject, Injectable } from '@nestjs/common';\nimport { CommonErrors } from '@transport/domain';\n" +
      "import { RATE_LIMITS } from '../tokens';\nimport type { RateLimits } from '../ports';\n" +
      'export const x = [Inject, Injectable, CommonErrors, RATE_LIMITS];\nexport type Y = RateLimits;\n',
  );
  it('lets core/ import the domain, Nest and its own modules (the rule does not refuse everything)', () => {
    expect(coreAllowed()).toEqual([]);
  });

  const persistenceAllowed = linted(
    'apps/api/src/persistence/prisma-probe.ts',
    "import type { PrismaClient } from '../generated/prisma/client';\nexport type X = PrismaClient;\n",
  );
  it('lets persistence/ use Prisma (the adapters live there)', () => {
    expect(persistenceAllowed()).toEqual([]);
  });
});

describe('apps/api/src: smaller rooms', () => {
  const src = join(root, 'apps', 'api', 'src');
  const MAX_LINES = 450;

  it(`keeps every source file at ${MAX_LINES} lines or fewer (a longer one holds two things)`, () => {
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.startsWith('generated'))
      .map((file) => join(src, file));
    expect(files.length).toBeGreaterThan(100);
    const long = files
      .map((file) => ({ file: relative(src, file), lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter((f) => f.lines > MAX_LINES);
    expect(long).toEqual([]);
  });
});
