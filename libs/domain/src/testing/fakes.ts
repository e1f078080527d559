import type { Clock } from '../shared/clock';
import type { RandomSource } from '../shared/random-source';
import type { SecretHasher } from '../shared/secret-hasher';

/** A readable, reversible "hash" for tests: never use outside tests. */
export class PlainTextHasher implements SecretHasher {
  hash(secret: string): string {
    return `plain:${secret}`;
  }
  verify(secret: string, hash: string): boolean {
    return hash === `plain:${secret}`;
  }
}

/** Sequential ids in the 24-hex format, readable in test output. */
export class SequentialIdGenerator {
  private n = 0;

  constructor(private readonly prefix = 'aaaaaaaa') {}

  next(): string {
    this.n += 1;
    return this.prefix + this.n.toString(16).padStart(24 - this.prefix.length, '0');
  }
}

/** A clock that only moves when told to: for tests and simulations. */
export class FixedClock implements Clock {
  private current: Date;

  constructor(start: Date | string) {
    this.current = new Date(start);
  }

  now(): Date {
    return new Date(this.current);
  }

  set(at: Date | string): void {
    this.current = new Date(at);
  }

  advance(milliseconds: number): void {
    this.current = new Date(this.current.getTime() + milliseconds);
  }
}

/** Deterministic bytes from a seed (xorshift32): reproducible tests, never for secrets. */
export class SeededRandomSource implements RandomSource {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }

  bytes(length: number): Uint8Array {
    const out = new Uint8Array(length);
    for (let i = 0; i < length; i++) {
      let x = this.state;
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      this.state = x >>> 0;
      out[i] = this.state & 0xff;
    }
    return out;
  }
}
