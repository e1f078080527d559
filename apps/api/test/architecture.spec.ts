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

/** Runs the ESLint CLI exactly as `nx lint` does, on code given through stdin as if it were the named file. */
function lintAs(file: string, code: string): string[] {
  const cli = join(root, 'node_modules', 'eslint', 'bin', 'eslint.js');
  const result = spawnSync(
    process.execPath,
    [cli, '--format', 'json', '--stdin', '--stdin-filename', join(root, file)],
    {
      cwd: root,
      input: code,
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    },
  );
  if (result.status !== 0 && result.status !== 1) throw new Error(`eslint crashed: ${result.stderr}`);
  const [report] = JSON.parse(result.stdout) as Array<{ messages: LintMessage[] }>;
  return report.messages.filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`);
}

const restricted = (errors: string[]) => errors.filter((e) => e.startsWith('no-restricted-imports'));

describe('apps/api architecture: features speak ports only, core/ stands on nothing above it', () => {
  jest.setTimeout(60_000);

  it.each([
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
  ])('refuses a service importing %s', (_what, code) => {
    expect(restricted(lintAs('apps/api/src/vehicles/vehicles.service.ts', code))).toHaveLength(1);
  });

  it('holds in every feature folder, payments included', () => {
    const code = "import { PrismaClient } from '../generated/prisma/client';\nexport const x = PrismaClient;\n";
    for (const feature of ['owners', 'drivers', 'trips', 'reference-data', 'admin', 'payments', 'search']) {
      expect(restricted(lintAs(`apps/api/src/${feature}/${feature}.service.ts`, code))).toHaveLength(1);
    }
  });

  it('accepts what a service should import: the domain, the ports, injection (the rule does not refuse everything)', () => {
    const code =
      "import { Inject, Injectable } from '@nestjs/common';\nimport { CommonErrors } from '@transport/domain';\n" +
      "import { UNIT_OF_WORK } from '../core/tokens';\nimport { AppError } from '../core/errors';\n" +
      'export const x = [Inject, Injectable, CommonErrors, UNIT_OF_WORK, AppError];\n';
    expect(lintAs('apps/api/src/vehicles/vehicles.service.ts', code)).toEqual([]);
  });

  it.each([
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
  ])('refuses core/ importing %s: core is the ground floor, features and persistence build on it', (_what, code) => {
    expect(restricted(lintAs('apps/api/src/core/auth/api-key.guard.ts', code))).toHaveLength(1);
  });

  it('holds in every folder of core/, its top level included', () => {
    const code = "import { DATABASE } from '../persistence/database.module';\nexport const x = DATABASE;\n";
    expect(restricted(lintAs('apps/api/src/core/health.controller.ts', code))).toHaveLength(1);
    for (const file of ['http/probe.ts', 'platform/probe.ts', 'observability/probe.ts', 'testing/probe.ts']) {
      const deeper =
        "import { VehiclesService } from '../../vehicles/vehicles.service';\nexport const x = VehiclesService;\n";
      expect(restricted(lintAs(`apps/api/src/core/${file}`, deeper))).toHaveLength(1);
    }
  });

  it('lets core/ import the domain, Nest and its own modules (the rule does not refuse everything)', () => {
    const code =
      "import { Inject, Injectable } from '@nestjs/common';\nimport { CommonErrors } from '@transport/domain';\n" +
      "import { RATE_LIMITS } from '../tokens';\nimport type { RateLimits } from '../ports';\n" +
      'export const x = [Inject, Injectable, CommonErrors, RATE_LIMITS];\nexport type Y = RateLimits;\n';
    expect(lintAs('apps/api/src/core/auth/api-key.guard.ts', code)).toEqual([]);
  });

  it('lets persistence/ use Prisma (the adapters live there)', () => {
    const code = "import type { PrismaClient } from '../generated/prisma/client';\nexport type X = PrismaClient;\n";
    expect(lintAs('apps/api/src/persistence/prisma-probe.ts', code)).toEqual([]);
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
