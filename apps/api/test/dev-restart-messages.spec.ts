import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { WORKSPACE_ROOT } from './support/test-app';

/**
 * Runs tools/build/restartable.mjs (what `npm run dev` restarts its processes with) on a tiny script in a scratch
 * folder, through `steps` (a list of 'build:<source>' and 'wait:<ms>'), and returns what it said.
 */
function narrate(steps: string[]): string[] {
  const folder = mkdtempSync(join(tmpdir(), 'restartable-'));
  try {
    const program = `
      import { writeFileSync } from 'node:fs';
      import { Restartable } from ${JSON.stringify(pathToFileURL(join(WORKSPACE_ROOT, 'tools', 'build', 'restartable.mjs')).href)};
      const said = [];
      const script = ${JSON.stringify(join(folder, 'app.js'))};
      const process_ = new Restartable((line) => said.push(line), 'app', script, [], process.env, ${JSON.stringify(folder)});
      for (const step of ${JSON.stringify(steps)}) {
        const [kind, value] = [step.slice(0, step.indexOf(':')), step.slice(step.indexOf(':') + 1)];
        if (kind === 'build') { writeFileSync(script, value); await process_.built(); }
        else await new Promise((r) => setTimeout(r, Number(value)));
      }
      await process_.close();
      console.log(JSON.stringify(said));`;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', program], {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
      timeout: 30_000,
    });
    if (result.status !== 0) throw new Error(result.stderr);
    return JSON.parse(result.stdout.trim().split('\n').at(-1)!);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const RUNS = 'setInterval(() => {}, 1000);';

// Issue 45, item 3: `npm run dev` said "exited; waiting for a change" on every restart, then started the new build at
// once. The message is said only when the process stopped by itself, and then it is true.
describe("npm run dev's process messages", () => {
  it('says "restarting" on a new build, never "waiting for a change"', () => {
    const said = narrate([`build:${RUNS}`, 'wait:300', `build:${RUNS} // changed`, 'wait:300']);
    expect(said).toEqual(['app rebuilt: restarting']);
  });

  it('says "waiting for a change" when the process exits by itself, and "starting" when the change comes', () => {
    const said = narrate(['build:process.exit(3)', 'wait:500', `build:${RUNS}`, 'wait:300']);
    expect(said).toEqual(['app exited (code 3); waiting for a change to start it again', 'app rebuilt: starting']);
  });
});
