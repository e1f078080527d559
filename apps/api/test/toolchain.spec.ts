import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const WORKSPACE_ROOT = resolve(__dirname, '../../..');

// What a contributor's tools read before any code runs: the editor's settings, the runtime the types describe, and
// the runtime and package manager npm checks (devEngines). Each must say what the rest of the repository says.
const read = (path: string) => readFileSync(join(WORKSPACE_ROOT, path), 'utf8');
const json = (path: string) => JSON.parse(read(path));
const major = (version: string) => Number(/\d+/.exec(version)?.[0]);

/** The settings an editor applies to `file` (the sections of .editorconfig that match it by extension, in order). */
function editorSettings(file: string): Record<string, string> {
  const settings: Record<string, string> = {};
  let applies = false;
  for (const raw of read('.editorconfig').split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const section = /^\[(.+)\]$/.exec(line);
    if (section) {
      const pattern = section[1];
      const extensions = /^\*\.\{(.+)\}$/.exec(pattern)?.[1].split(',') ?? [/^\*\.(.+)$/.exec(pattern)?.[1]];
      applies = pattern === '*' || extensions.some((extension) => extension && file.endsWith(`.${extension}`));
      continue;
    }
    const [key, value] = line.split('=').map((part) => part.trim());
    if (applies && key !== 'root') settings[key] = value;
  }
  return settings;
}

describe("a contributor's tools", () => {
  it('.editorconfig gives editors the formatting Prettier checks (.prettierrc.json and its defaults)', () => {
    const prettier = json('.prettierrc.json');
    for (const file of ['apps/api/src/main.ts', 'apps/dashboard/src/main.tsx', 'package.json', 'tools/run.mjs']) {
      expect([file, editorSettings(file)]).toEqual([
        file,
        expect.objectContaining({
          charset: 'utf-8',
          end_of_line: prettier.endOfLine ?? 'lf',
          indent_style: prettier.useTabs ? 'tab' : 'space',
          indent_size: String(prettier.tabWidth ?? 2),
          insert_final_newline: 'true',
          max_line_length: String(prettier.printWidth),
        }),
      ]);
    }
    // Markdown keeps its trailing double spaces (a line break) and wraps as written.
    expect(editorSettings('README.md')).toEqual(expect.objectContaining({ trim_trailing_whitespace: 'false' }));
  });

  it("types Node's API as the Node the project runs on (.nvmrc)", () => {
    const node = major(read('.nvmrc'));
    expect(major(json('package.json').devDependencies['@types/node'])).toBe(node);
    expect(major(json('node_modules/@types/node/package.json').version)).toBe(node);
  });

  it('declares its runtime and package manager in devEngines: a warning on an older Node, never a refusal', () => {
    const manifest = json('package.json');
    expect(manifest.devEngines).toEqual({
      runtime: { name: 'node', version: manifest.engines.node, onFail: 'warn' },
      packageManager: { name: 'npm', version: expect.any(String), onFail: 'warn' },
    });
    // The README's commands start from whatever Node the machine has, and tools/run.mjs installs the supported one:
    // a refusal from npm would stop them before it could.
    expect(major(manifest.engines.node.replace('>=', ''))).toBe(major(read('.nvmrc')));
  });

  it('builds every app and the domain package with one bundler, esbuild (docs/development.md, "Building")', () => {
    const { devDependencies } = json('package.json');
    for (const other of ['webpack', 'webpack-cli', '@nx/webpack', 'tsup'])
      expect(devDependencies).not.toHaveProperty(other);
    for (const project of ['apps/api', 'apps/provider-simulator', 'apps/dashboard', 'tools/import', 'libs/domain']) {
      const build = json(`${project}/project.json`).targets.build;
      expect([project, build.options.command]).toEqual([project, `node ${project}/build.mjs`]);
      expect(read(`${project}/build.mjs`)).toContain("import { build } from 'esbuild';");
    }
  });

  // Issue 45, item 3: `npx prisma` and `npx nx` ran on the system Node (with the devEngines warning on every call);
  // `npm run prisma -- ...` and `npm run nx -- ...` go through tools/run.mjs, which runs them on the project's Node.
  it.each([['nx', ['--version'], /Local:\s*v\d+/]])(
    'npm run %s runs the tool on the Node of .nvmrc, even from an older system Node',
    (tool, args, shows) => {
      const systemNode = ['/usr/bin/node', '/usr/local/bin/node'].find((path) => existsSync(path)) ?? process.execPath;
      const result = spawnSync(systemNode, [join(WORKSPACE_ROOT, 'tools', 'run.mjs'), tool, ...args], {
        cwd: WORKSPACE_ROOT,
        encoding: 'utf8',
        // As a contributor's shell has it: not marked as already on the provisioned Node (npm test runs under it).
        env: { ...process.env, NODE_OPTIONS: '', PATH: '/usr/bin:/bin', RUN_NODE_PROVISIONED: '' },
        timeout: 120_000,
      });
      expect(result.stderr).not.toMatch(/EBADDEVENGINES|Unsupported engine/);
      expect({ status: result.status, stderr: result.status === 0 ? '' : result.stderr }).toEqual({
        status: 0,
        stderr: '',
      });
      expect(result.stdout).toMatch(shows);
      // npm run prisma goes the same way (tool() in run.mjs); its offline commands need a database or the schema.
      for (const script of ['nx', 'prisma'])
        expect(JSON.parse(read('package.json')).scripts[script]).toBe(`node tools/run.mjs ${script}`);
    },
  );

  // Issue 45, item 3: an npm that enforces allowScripts runs only the install scripts package.json allows. Every
  // package of the lock with one is decided; only those the project needs are allowed. By name: the lock records no
  // `resolved` URLs, and npm matches a pinned `pkg@1.2.3` entry only against one (approve-scripts' own warning).
  it('decides every install script of the lock in allowScripts, allowing only esbuild, Nx and Prisma', () => {
    const lock = json('package-lock.json').packages as Record<string, { version: string; hasInstallScript?: boolean }>;
    const withScripts = Object.entries(lock)
      .filter(([path, entry]) => path.startsWith('node_modules/') && entry.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length))
      .sort();
    const allowScripts = json('package.json').allowScripts as Record<string, boolean>;
    expect(Object.keys(allowScripts).sort()).toEqual(withScripts);
    const allowed = Object.keys(allowScripts).filter((key) => allowScripts[key]);
    expect(allowed.sort()).toEqual(['@prisma/client', 'esbuild', 'nx', 'prisma']);
  });
});
