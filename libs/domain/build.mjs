// Builds @transport/domain as a standalone package: CommonJS + .d.ts in dist/libs/domain, with its package.json and
// README beside them, ready for `npm pack` or a `file:` dependency.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const out = join(root, 'dist', 'libs', 'domain');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.build.json')], { stdio: 'inherit' });
copyFileSync(join(here, 'package.json'), join(out, 'package.json'));
copyFileSync(join(here, 'README.md'), join(out, 'README.md'));
console.log(`built ${out}`);
