import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Other teams consume @transport/domain as a built package: build it, install it into an empty folder, use it.
const root = join(__dirname, '..', '..', '..');
const dist = join(root, 'dist', 'libs', 'domain');

describe('@transport/domain as a package', () => {
  jest.setTimeout(120_000);
  let scratch: string;

  beforeAll(() => {
    const build = spawnSync(process.execPath, [join(__dirname, '..', 'build.mjs')], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
    scratch = mkdtempSync(join(tmpdir(), 'domain-consumer-'));
    const target = join(scratch, 'node_modules', '@transport', 'domain');
    mkdirSync(target, { recursive: true });
    cpSync(dist, target, { recursive: true });
  });

  afterAll(() => {
    rmSync(scratch, { recursive: true, force: true });
  });

  it('declares its entry points with types and has no runtime dependencies', () => {
    const pkg = JSON.parse(readFileSync(join(dist, 'package.json'), 'utf8'));
    expect(pkg.name).toBe('@transport/domain');
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(pkg.dependencies ?? {}).toEqual({});
    for (const entry of ['.', './node', './testing', './contracts']) {
      for (const format of ['import', 'require']) {
        expect(existsSync(join(dist, pkg.exports[entry][format].default))).toBe(true);
        expect(existsSync(join(dist, pkg.exports[entry][format].types))).toBe(true);
      }
    }
    expect(existsSync(join(dist, 'CHANGELOG.md'))).toBe(true);
    expect(existsSync(join(dist, 'README.md'))).toBe(true);
    expect(existsSync(join(dist, 'test-support'))).toBe(false);
  });

  it('runs a vehicle life cycle from plain JavaScript in a folder that has nothing else', () => {
    writeFileSync(
      join(scratch, 'check.cjs'),
      `
      const { Vehicle, ObjectIdGenerator, INSPECTION_ITEMS, DomainError } = require('@transport/domain');
      const { FixedClock, SeededRandomSource, InMemoryVehicleRepository } = require('@transport/domain/testing');
      const clock = new FixedClock('2026-06-01T00:00:00Z');
      const ids = new ObjectIdGenerator(clock, new SeededRandomSource(1));
      const v = Vehicle.register({ ownerId: ids.next(), registrationNumber: 'gr 1-24', roadWorthyExpiryDate: new Date('2027-01-01'), insuranceExpiryDate: new Date('2027-01-01') }, ids, clock.now());
      let refused;
      try { v.approve(ids.next(), clock.now()); } catch (e) { refused = e instanceof DomainError && e.code; }
      v.inspect(Object.fromEntries(INSPECTION_ITEMS.map((i) => [i, true])), ids.next(), clock.now());
      v.approve(ids.next(), clock.now());
      new InMemoryVehicleRepository().add(v).then((stored) => {
        const sameClass = stored instanceof Vehicle;
        console.log(JSON.stringify({ refused, approved: stored.approved, reg: stored.toState().registrationNumber, sameClass }));
      });
      `,
    );
    const run = spawnSync(process.execPath, ['check.cjs'], {
      cwd: scratch,
      encoding: 'utf8',
      env: { PATH: process.env.PATH },
    });
    expect(run.stderr).toBe('');
    // One class from either entry in CommonJS too: the entries share their chunks instead of copying them.
    expect(JSON.parse(run.stdout)).toEqual({
      refused: 'VEHICLE_NOT_INSPECTED',
      approved: true,
      reg: 'GR 1-24',
      sameClass: true,
    });
  });

  it('is the same domain from ES modules, one class per format whichever entry reaches it', () => {
    writeFileSync(
      join(scratch, 'check.mjs'),
      `
      import { Vehicle, ObjectIdGenerator, DomainError } from '@transport/domain';
      import { FixedClock, SeededRandomSource, InMemoryVehicleRepository } from '@transport/domain/testing';
      import { repositoryContracts } from '@transport/domain/contracts';
      const clock = new FixedClock('2026-06-01T00:00:00Z');
      const ids = new ObjectIdGenerator(clock, new SeededRandomSource(1));
      const v = Vehicle.register({ ownerId: ids.next(), registrationNumber: 'gr 2-24' }, ids, clock.now());
      let sameClass;
      try { v.approve(ids.next(), clock.now()); } catch (e) { sameClass = e instanceof DomainError; }
      const stored = await new InMemoryVehicleRepository().add(v);
      console.log(JSON.stringify({ sameClass, reg: stored.toState().registrationNumber, contracts: typeof repositoryContracts }));
      `,
    );
    const run = spawnSync(process.execPath, ['check.mjs'], {
      cwd: scratch,
      encoding: 'utf8',
      env: { PATH: process.env.PATH },
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ sameClass: true, reg: 'GR 2-24', contracts: 'function' });
  });

  it('passes publint and Are the Types Wrong (node10, node16 from CJS and from ESM, bundler) on every entry', () => {
    const bin = (pkg: string, file: string) => join(root, 'node_modules', pkg, file);
    const lint = spawnSync(process.execPath, [bin('publint', 'src/cli.js'), '--strict'], {
      cwd: dist,
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    expect(lint.stdout).toContain('All good!');
    expect(lint.status).toBe(0);
    const attw = spawnSync(
      process.execPath,
      [bin('@arethetypeswrong/cli', 'dist/index.js'), '--pack', '.', '--format', 'json'],
      {
        cwd: dist,
        encoding: 'utf8',
        env: { ...process.env, NODE_OPTIONS: '' },
      },
    );
    const report = JSON.parse(attw.stdout) as { analysis: { problems: Record<string, unknown> | unknown[] } };
    expect(Object.values(report.analysis.problems).flat()).toEqual([]);
    expect(attw.status).toBe(0);
  });

  it('type-checks every example of its README against the published declarations', () => {
    const readme = readFileSync(join(dist, 'README.md'), 'utf8');
    const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    const files = blocks.map((code, i) => {
      const file = `example-${i}.ts`;
      // Each block is a module of its own; top-level await is fine in an ES module consumer.
      writeFileSync(join(scratch, file), `${code}\nexport {};\n`);
      return file;
    });
    writeFileSync(
      join(scratch, 'tsconfig.examples.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: 'es2022',
          module: 'es2022',
          moduleResolution: 'bundler',
          noEmit: true,
          types: [],
          lib: ['es2023', 'dom'],
          noUnusedLocals: false,
        },
        files,
      }),
    );
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const run = spawnSync(process.execPath, [tsc, '-p', join(scratch, 'tsconfig.examples.json')], {
      cwd: scratch,
      encoding: 'utf8',
    });
    expect(run.stdout + run.stderr).toBe('');
  });

  it('type-checks a TypeScript consumer against the published declarations', () => {
    writeFileSync(
      join(scratch, 'consumer.ts'),
      `import { Transaction, type ApplyOutcome, type TransactionState } from '@transport/domain';
       import { InMemoryTransactionRepository } from '@transport/domain/testing';
       const repo: InMemoryTransactionRepository = new InMemoryTransactionRepository();
       export function status(t: Transaction): TransactionState['status'] { return t.toState().status; }
       export const outcome: ApplyOutcome = { result: 'duplicate' };
       export { repo };
      `,
    );
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          noEmit: true,
          types: [],
          skipLibCheck: false,
        },
        files: ['consumer.ts'],
      }),
    );
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const run = spawnSync(process.execPath, [tsc, '-p', scratch], { cwd: scratch, encoding: 'utf8' });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
