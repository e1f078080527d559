// A process of `npm run dev` (tools/dev.mjs): replaced by a new one on every new build of its script.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';

/** A child process that is replaced by a new one on every new build of its script. */
export class Restartable {
  #stopping;
  #child;
  #exited;
  #lastBuild;
  #queue = Promise.resolve();
  #closed = false;

  /** `say` writes a line for the person at the terminal; the process runs `node <args> <script>` in `cwd`. */
  constructor(say, name, script, args, env, cwd = process.cwd()) {
    Object.assign(this, { say, name, script, args, env, cwd });
  }

  /** After a successful build: start, or restart when the built script differs from what runs. */
  built() {
    this.#queue = this.#queue.then(async () => {
      const build = existsSync(this.script) ? createHash('sha256').update(readFileSync(this.script)).digest('hex') : '';
      if (build === this.#lastBuild && this.#child?.exitCode === null) return;
      this.#lastBuild = build;
      if (this.#closed) return;
      if (this.#child) this.say(`${this.name} rebuilt: ${this.#child.exitCode === null ? 'restarting' : 'starting'}`);
      await this.stop();
      const child = spawn(process.execPath, [...this.args, this.script], {
        cwd: this.cwd,
        stdio: 'inherit',
        env: this.env,
      });
      this.#child = child;
      this.#exited = new Promise((resolve) => child.once('exit', resolve));
      child.once('exit', (code, signal) => {
        // Only an exit of its own: the one this replacement (or Ctrl-C) asked for is no news, and said "waiting for a
        // change" just before the new process started.
        if (this.#stopping !== child && !this.#closed)
          this.say(`${this.name} exited (${signal ?? `code ${code}`}); waiting for a change to start it again`);
      });
    });
    return this.#queue;
  }

  /** Stops the process for good (`npm run dev` is stopping). */
  async close() {
    this.#closed = true;
    await this.#queue;
    await this.stop();
  }

  async stop() {
    const child = this.#child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.#stopping = child;
    child.kill('SIGTERM');
    await this.#exited;
  }
}
