import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The release command on a copy of the repository (it edits the changelog and the version): what it writes, what it
// refuses.
const root = join(__dirname, '..', '..', '..');

describe('npm run release:domain', () => {
  jest.setTimeout(120_000);
  let copy: string;

  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), 'domain-release-'));
    for (const path of ['package.json', 'tsconfig.base.json', 'tools/release-domain.mjs', 'libs/domain'])
      cpSync(join(root, path), join(copy, path), { recursive: true });
    symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
  });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  const release = (...args: string[]) =>
    spawnSync(process.execPath, [join(copy, 'tools', 'release-domain.mjs'), ...args], {
      cwd: copy,
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    });
  const manifest = () =>
    JSON.parse(readFileSync(join(copy, 'libs/domain/package.json'), 'utf8')) as { version: string };
  const changelog = () => readFileSync(join(copy, 'libs/domain/CHANGELOG.md'), 'utf8');

  it('refuses a version that is not greater than the current one', () => {
    const result = release(manifest().version);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('is not greater than');
  });

  it('turns Unreleased into the release, bumps the version, builds, checks and packs the package', () => {
    const result = release('9.1.0');
    expect(result.stderr).not.toContain('[release]');
    expect(result.status).toBe(0);
    expect(manifest().version).toBe('9.1.0');
    expect(changelog()).toMatch(/## Unreleased\n\n## 9\.1\.0 - \d{4}-\d{2}-\d{2}\n\n### Added/);
    expect(existsSync(join(copy, 'dist', 'releases', 'transport-domain-9.1.0.tgz'))).toBe(true);
    expect(JSON.parse(readFileSync(join(copy, 'dist/libs/domain/package.json'), 'utf8')).version).toBe('9.1.0');
  });

  it('refuses a release with nothing under Unreleased', () => {
    writeFileSync(join(copy, 'libs/domain/CHANGELOG.md'), changelog());
    const result = release('9.2.0');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('nothing under "## Unreleased"');
    expect(manifest().version).toBe('9.1.0');
  });
});
