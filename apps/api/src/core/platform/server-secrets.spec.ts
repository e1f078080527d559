import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../config';
import {
  ACTIVATION_SECRET_FILE,
  CERTIFICATE_KEY_FILE,
  newCertificateKey,
  withActivationSecrets,
  withCertificateKeys,
} from './server-secrets';

describe('the activation-key secret of a start without ACTIVATION_KEY_SECRETS', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'secrets-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('takes the configured secrets as they are', async () => {
    const config = loadConfig({ DATA_DIR: dataDir, ACTIVATION_KEY_SECRETS: 'x'.repeat(32) });
    expect(await withActivationSecrets(config)).toEqual({ config, madeSecret: false });
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('on the embedded database, makes one, keeps it readable by the owner only, and finds it again', async () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    const first = await withActivationSecrets(config);
    expect(first.madeSecret).toBe('kept in DATA_DIR');
    expect(first.config.activation.secrets).toHaveLength(1);
    expect((await stat(join(dataDir, ACTIVATION_SECRET_FILE))).mode & 0o777).toBe(0o600);
    const again = await withActivationSecrets(config);
    expect(again).toEqual({ config: first.config, madeSecret: false });
  });

  it('on PostgreSQL, uses a secret of this process and writes nothing', async () => {
    const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'postgresql://app@db.internal/transport' });
    const { config: made, madeSecret } = await withActivationSecrets(config);
    expect(madeSecret).toBe('this process only');
    expect(made.activation.secrets[0]).toHaveLength(43);
    expect(await readdir(dataDir)).toEqual([]);
  });
});

describe('the certificate signing key of a start without CERTIFICATE_SIGNING_KEYS', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'secrets-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('takes the configured keys as they are', async () => {
    const config = loadConfig({ DATA_DIR: dataDir, CERTIFICATE_SIGNING_KEYS: newCertificateKey() });
    expect(await withCertificateKeys(config)).toEqual({ config, madeSecret: false });
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('on the embedded database, makes an Ed25519 key the configuration accepts, keeps it owner-only, and finds it again', async () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    const first = await withCertificateKeys(config);
    expect(first.madeSecret).toBe('kept in DATA_DIR');
    const [key] = first.config.certificates.signingKeys;
    expect(loadConfig({ CERTIFICATE_SIGNING_KEYS: key }).certificates.signingKeys).toEqual([key]);
    expect((await stat(join(dataDir, CERTIFICATE_KEY_FILE))).mode & 0o777).toBe(0o600);
    expect(await withCertificateKeys(config)).toEqual({ config: first.config, madeSecret: false });
  });

  it('on PostgreSQL, uses a key of this process and writes nothing', async () => {
    const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'postgresql://app@db.internal/transport' });
    const { config: made, madeSecret } = await withCertificateKeys(config);
    expect(madeSecret).toBe('this process only');
    expect(made.certificates.signingKeys).toHaveLength(1);
    expect(await readdir(dataDir)).toEqual([]);
  });
});
