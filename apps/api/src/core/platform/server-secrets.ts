import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppConfig } from '../../config';

/** Where a machine without ACTIVATION_KEY_SECRETS keeps the one it made (never in production: refused there). */
export const ACTIVATION_SECRET_FILE = 'activation-key-secret';

/** How a start without ACTIVATION_KEY_SECRETS came by its secret. */
export type MadeSecret = false | 'kept in DATA_DIR' | 'this process only';

/**
 * The configuration with its activation-key secrets: ACTIVATION_KEY_SECRETS when set (production requires it). On a
 * developer's machine without it: on the embedded database, a secret made once and kept (mode 600) in DATA_DIR beside
 * the database and the demo credentials, so keys issued before a restart (the demo driver's among them) still verify
 * after it; on PostgreSQL, whose data lives elsewhere, a secret of this process only (nothing is written).
 */
export async function withActivationSecrets(config: AppConfig): Promise<{ config: AppConfig; madeSecret: MadeSecret }> {
  if (config.activation.secrets.length > 0) return { config, madeSecret: false };
  if (config.databaseUrl)
    return { config: withSecret(config, randomBytes(32).toString('base64url')), madeSecret: 'this process only' };
  const file = join(config.dataDir, ACTIVATION_SECRET_FILE);
  let secret: string | undefined;
  let madeSecret: MadeSecret = false;
  try {
    secret = (await readFile(file, 'utf8')).trim() || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (!secret) {
    secret = randomBytes(32).toString('base64url');
    await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
    await writeFile(file, `${secret}\n`, { mode: 0o600 });
    await chmod(file, 0o600);
    madeSecret = 'kept in DATA_DIR';
  }
  return { config: withSecret(config, secret), madeSecret };
}

const withSecret = (config: AppConfig, secret: string): AppConfig => ({
  ...config,
  activation: { ...config.activation, secrets: [secret] },
});
