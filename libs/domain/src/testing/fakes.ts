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
