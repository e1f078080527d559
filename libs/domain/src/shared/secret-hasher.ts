/** Port: one-way hashing of short secrets (driver activation keys). Slow and salted in production. */
export interface SecretHasher {
  hash(secret: string): string;
  verify(secret: string, hash: string): boolean;
}
