// Builds @transport/domain as a standalone package in dist/libs/domain: ES modules (.mjs) and CommonJS (.js) with
// their declarations (tsup, see tsup.config.ts), its package.json, README and CHANGELOG beside them, ready for
// `npm pack`/`npm publish` (the release command, tools/release-domain.mjs) or a `file:` dependency.
import { execFileSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const out = join(root, 'dist', 'libs', 'domain');
rmSync(out, { recursive: true, force: true });
const tsup = createRequire(join(root, 'package.json')).resolve('tsup/dist/cli-default.js');
execFileSync(process.execPath, [tsup, '--config', join(here, 'tsup.config.ts'), '--silent'], {
  cwd: root,
  stdio: 'inherit',
});
for (const file of ['package.json', 'README.md', 'CHANGELOG.md']) copyFileSync(join(here, file), join(out, file));
console.log(`built ${out}`);
