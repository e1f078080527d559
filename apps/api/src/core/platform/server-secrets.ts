import { generateKeyPairSync } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppConfig } from '../../config';
import { randomToken } from './secrets';

/** Where a machine without ACTIVATION_KEY_SECRETS keeps the one it made (never in production: refused there). */
export const ACTIVATION_SECRET_FILE = 'activation-key-secret';
/** Where a machine without CERTIFICATE_SIGNING_KEYS keeps the key it made (never in production: refused there). */
export const CERTIFICATE_KEY_FILE = 'certificate-signing-key';

/** How a start without a configured secret came by its own. */
export type MadeSecret = false | 'kept in DATA_DIR' | 'this process only';

/**
 * A secret for a start that was given none (production requires them all). On the embedded database: one made once
 * and kept (mode 600) in DATA_DIR beside the database and the demo credentials, so what was made with it before a
 * restart (activation keys, printed certificates) still verifies after it; on PostgreSQL, whose data lives elsewhere,
 * one of this process only (nothing is written).
 */
async function madeSecret(
  config: AppConfig,
  file: string,
  make: () => string,
): Promise<{ secret: string; madeSecret: MadeSecret }> {
  if (config.databaseUrl) return { secret: make(), madeSecret: 'this process only' };
  const path = join(config.dataDir, file);
  let secret: string | undefined;
  try {
    secret = (await readFile(path, 'utf8')).trim() || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (secret) return { secret, madeSecret: false };
  secret = make();
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  await writeFile(path, `${secret}\n`, { mode: 0o600 });
  await chmod(path, 0o600);
  return { secret, madeSecret: 'kept in DATA_DIR' };
}

/** The configuration with its activation-key secrets: ACTIVATION_KEY_SECRETS when set, else one made (madeSecret). */
export async function withActivationSecrets(config: AppConfig): Promise<{ config: AppConfig; madeSecret: MadeSecret }> {
  if (config.activation.secrets.length > 0) return { config, madeSecret: false };
  const made = await madeSecret(config, ACTIVATION_SECRET_FILE, () => randomToken());
  return {
    config: { ...config, activation: { ...config.activation, secrets: [made.secret] } },
    madeSecret: made.madeSecret,
  };
}

/** A new Ed25519 private key as CERTIFICATE_SIGNING_KEYS holds one: base64 of its PKCS#8 DER encoding. */
export function newCertificateKey(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64');
}

/** The configuration with its certificate signing keys: CERTIFICATE_SIGNING_KEYS when set, else one made (madeSecret). */
export async function withCertificateKeys(config: AppConfig): Promise<{ config: AppConfig; madeSecret: MadeSecret }> {
  if (config.certificates.signingKeys.length > 0) return { config, madeSecret: false };
  const made = await madeSecret(config, CERTIFICATE_KEY_FILE, newCertificateKey);
  return {
    config: { ...config, certificates: { ...config.certificates, signingKeys: [made.secret] } },
    madeSecret: made.madeSecret,
  };
}
