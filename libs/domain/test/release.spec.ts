import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The release command on a copy of the repository (its own git repository: the command commits and tags): what it
// writes, what it refuses; then its dry run, which publishes to a local registry and installs from it.
const root = join(__dirname, '..', '..', '..');
const released = (changelog: string) => [...changelog.matchAll(/^## (\d+\.\d+\.\d+\S*) - /gm)].map((m) => m[1]);
const numbers = (version: string) => version.replace(/-.*/, '').split('.').map(Number);
/** Whether a's major.minor.patch is above b's. */
const above = (a: string, b: string) => {
  const [x, y] = [numbers(a), numbers(b)];
  const first = x.findIndex((n, i) => n !== y[i]);
  return first >= 0 && x[first] > y[first];
};

describe('npm run release:domain', () => {
  jest.setTimeout(240_000);
  let copy: string;

  const git = (...args: string[]) =>
    spawnSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@localhost', ...args], {
      cwd: copy,
      encoding: 'utf8',
    });

  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), 'domain-release-'));
    for (const path of ['package.json', 'tsconfig.base.json', 'tools/release-domain.mjs', 'libs/domain'])
      cpSync(join(root, path), join(copy, path), { recursive: true });
    symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
    writeFileSync(join(copy, '.gitignore'), 'node_modules\ndist\n');
    git('init', '--quiet');
    git('config', 'user.name', 'test');
    git('config', 'user.email', 'test@localhost');
    git('add', '-A');
    git('commit', '--quiet', '-m', 'start');
  });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  const release = (...args: string[]) =>
    spawnSync(process.execPath, [join(copy, 'tools', 'release-domain.mjs'), ...args], {
      cwd: copy,
      encoding: 'utf8',
      // No registry to reach: publishing fails, after the commit and the tag (said so, and tested below).
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        NPM_CONFIG_REGISTRY: 'http://127.0.0.1:9/',
        NPM_CONFIG_FETCH_RETRIES: '0',
      },
    });
  const manifest = () =>
    JSON.parse(readFileSync(join(copy, 'libs/domain/package.json'), 'utf8')) as { version: string };
  const changelog = () => readFileSync(join(copy, 'libs/domain/CHANGELOG.md'), 'utf8');

  it('main carries the next version as a pre-release, newer than every release in the changelog', () => {
    const { version } = JSON.parse(readFileSync(join(root, 'libs/domain/package.json'), 'utf8')) as {
      version: string;
    };
    expect(version).toMatch(/^\d+\.\d+\.\d+-next\.\d+$/);
    const changes = readFileSync(join(root, 'libs/domain/CHANGELOG.md'), 'utf8');
    expect(released(changes)).toContain('0.1.0');
    for (const old of released(changes)) expect(above(version, old)).toBe(true);
  });

  it('refuses a version that is not greater than the current one (a release is greater than its pre-release)', () => {
    const result = release(manifest().version);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('is not greater than');
    expect(release(`${manifest().version.replace(/-.*/, '')}-alpha.1`).stderr).toContain('is not greater than');
  });

  it('refuses a work tree with changes', () => {
    writeFileSync(join(copy, 'stray.txt'), 'x');
    const result = release('9.1.0', '--skip-tests');
    rmSync(join(copy, 'stray.txt'));
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('the work tree has changes');
  });

  it('dates Unreleased, builds, checks, packs, commits and tags; a failed publish says what to do', () => {
    const result = release('9.1.0', '--skip-tests');
    expect(result.stderr).toContain('npm publish failed; domain-v9.1.0 is committed and tagged here only');
    expect(result.status).toBe(1);
    expect(manifest().version).toBe('9.1.0');
    expect(changelog()).toMatch(/## Unreleased\n\n## 9\.1\.0 - \d{4}-\d{2}-\d{2}\n\n### Added/);
    expect(existsSync(join(copy, 'dist', 'releases', 'transport-domain-9.1.0.tgz'))).toBe(true);
    expect(git('tag', '--list', 'domain-v*').stdout.trim()).toBe('domain-v9.1.0');
    expect(git('log', '-1', '--format=%s', 'domain-v9.1.0').stdout.trim()).toBe('domain 9.1.0');
    expect(git('status', '--porcelain').stdout).toBe('');
  });

  it('refuses a release with nothing under Unreleased, and a tag that exists', () => {
    const result = release('9.2.0', '--skip-tests');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('nothing under "## Unreleased"');
    expect(manifest().version).toBe('9.1.0');
    git('tag', 'domain-v9.3.0');
    expect(release('9.3.0', '--skip-tests').stderr).toContain('the tag domain-v9.3.0 exists already');
  });

  it('dry run: publishes to a local registry, tags, moves main to the next pre-release; CJS and ESM consumers install it', () => {
    const result = spawnSync(process.execPath, [join(root, 'tools', 'release-domain.mjs'), '--dry-run'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    expect(result.stderr).not.toContain('[release]');
    expect(result.status).toBe(0);
    const summary = JSON.parse(result.stdout.trim().split('\n').at(-1)!);
    // Without a version, the dry run releases what main carries: 0.2.0-next.0 gives 0.2.0.
    const { version: carried } = JSON.parse(readFileSync(join(root, 'libs/domain/package.json'), 'utf8')) as {
      version: string;
    };
    const version = carried.replace(/-.*/, '');
    expect(summary.version).toBe(version);
    const used = { refused: 'VEHICLE_NOT_INSPECTED', reg: 'GR 1-24', installed: version, testing: 'function' };
    expect(summary).toEqual({
      version,
      tag: `domain-v${version}`,
      carried: expect.stringMatching(/^\d+\.\d+\.0-next\.0$/),
      // The test doubles are in /testing only.
      cjs: { ...used, mainHasTestDoubles: false },
      esm: { ...used, mainHasTestDoubles: false },
    });
    expect(result.stdout).toContain(`+ @transport/domain@${version}`);
  });
});
