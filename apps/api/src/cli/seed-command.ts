import { ObjectIdGenerator } from '@transport/domain';
import { CryptoRandomSource, HmacSecretHasher, SystemClock } from '@transport/domain/node';
import type { AppConfig } from '../config';
import { withActivationSecrets } from '../core/platform/server-secrets';
import { openDatabase } from '../persistence/database';
import { seedDemo } from '../persistence/demo-seed';
import { cliDatabaseConfig } from './keys-command';

/**
 * Loads the demo data set (assemblies, owners, vehicles, drivers, trips, a merchant and demo API keys) into an empty
 * database, and prints the demo keys as JSON. `prisma db seed` runs it. Never in production: demo keys are public.
 */
export async function seedCommand(config: AppConfig, out: (line: string) => void): Promise<number> {
  if (config.production) {
    out('Refusing to load demo data with NODE_ENV=production: its API keys would open this database to anyone');
    return 1;
  }
  const { config: withSecrets } = await withActivationSecrets(config);
  const database = await openDatabase(await cliDatabaseConfig(withSecrets));
  try {
    const clock = new SystemClock();
    const random = new CryptoRandomSource();
    const hasher = new HmacSecretHasher(withSecrets.activation.secrets);
    const result = await seedDemo(
      { prisma: database.prisma, ids: new ObjectIdGenerator(clock, random), random, clock, hasher },
      config.dataDir,
    );
    out(JSON.stringify({ seeded: result.seeded, credentials: result.credentials ?? null }, null, 2));
    return 0;
  } finally {
    await database.close();
  }
}
