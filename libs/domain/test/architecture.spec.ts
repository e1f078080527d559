import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

// The architecture rule is only worth something if it fires: lint code placed in libs/domain that breaks it.
const root = join(__dirname, '..', '..', '..');
const probe = join(root, 'libs', 'domain', 'src', 'architecture-probe.ts');

interface LintMessage {
  ruleId: string | null;
  message: string;
  severity: number;
}

/** Runs the ESLint CLI exactly as `nx lint` does, on code given through stdin as if it were a file of libs/domain. */
async function lintInDomain(code: string): Promise<string[]> {
  const cli = join(root, 'node_modules', 'eslint', 'bin', 'eslint.js');
  const result = spawnSync(process.execPath, [cli, '--format', 'json', '--stdin', '--stdin-filename', probe], {
    cwd: root,
    input: code,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  if (result.status !== 0 && result.status !== 1) throw new Error(`eslint crashed: ${result.stderr}`);
  const [report] = JSON.parse(result.stdout) as Array<{ messages: LintMessage[] }>;
  return report.messages.filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('libs/domain architecture rules', () => {
  jest.setTimeout(60_000);

  it('refuses an import of @nestjs/common, through both the import rule and the Nx boundary rule', async () => {
    const errors = await lintInDomain("import { Injectable } from '@nestjs/common';\nexport const x = Injectable;\n");
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringContaining('no-restricted-imports'),
        expect.stringContaining('@nx/enforce-module-boundaries'),
      ]),
    );
  });

  it.each([
    ['@prisma/client', "import { PrismaClient } from '@prisma/client';\nexport const x = PrismaClient;\n"],
    ['class-validator', "import { IsString } from 'class-validator';\nexport const x = IsString;\n"],
    ['class-transformer', "import { Type } from 'class-transformer';\nexport const x = Type;\n"],
    ['pg', "import pg from 'pg';\nexport const x = pg;\n"],
    ['node:fs', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n"],
    ['fs', "import { readFileSync } from 'fs';\nexport const x = readFileSync;\n"],
    ['an app', "import { createApp } from '../../../apps/api/src/app';\nexport const x = createApp;\n"],
  ])('refuses an import of %s', async (_name, code) => {
    const errors = await lintInDomain(code);
    expect(
      errors.some((e) => e.startsWith('no-restricted-imports') || e.startsWith('@nx/enforce-module-boundaries')),
    ).toBe(true);
  });

  it('refuses Date.now() and Math.random(): time and randomness come through ports', async () => {
    const errors = await lintInDomain('export const a = Date.now();\nexport const b = Math.random();\n');
    expect(errors.filter((e) => e.startsWith('no-restricted-properties'))).toHaveLength(2);
  });

  it('accepts plain domain code (the rule is not simply failing everything)', async () => {
    expect(
      await lintInDomain("import { DomainError } from './shared/domain-error';\nexport const x = DomainError;\n"),
    ).toEqual([]);
  });
});
