import { ObjectIdGenerator } from '@transport/domain';
import { issueApiKey, listApiKeys, revokeApiKey } from '../application/api-keys';
import type { AppConfig } from '../config';
import { openDatabase } from '../database/database';
import { findRunningEmbeddedPostgres } from '../database/embedded-postgres';
import { CryptoRandomSource } from '../platform/crypto-random-source';
import { SystemClock } from '../platform/system-clock';

export const KEYS_USAGE = `usage:
  keys create --role <admin|assembly|merchant> --principal <24-hex id> [--label <text>]
  keys revoke <key id>
  keys list`;

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

/**
 * Creates, revokes and lists API keys for any principal, on the same database the service uses (with the embedded
 * database, through the running service's server if it is up). Prints JSON; the created key is shown this once.
 */
export async function keysCommand(args: string[], config: AppConfig, out: (line: string) => void): Promise<number> {
  let databaseConfig = config;
  if (!config.databaseUrl) {
    const running = await findRunningEmbeddedPostgres(config.dataDir);
        // One connection: the embedded server interleaves concurrent connections' messages (see database.ts).
    if (running) databaseConfig = { ...config, databaseUrl: `postgresql://postgres@127.0.0.1:${running.port}/postgres`, migrateOnStart: false, databasePoolSize: 1 };
  }
  const [command, ...rest] = args;
  if (!['create', 'revoke', 'list'].includes(command)) {
    out(KEYS_USAGE);
    return 2;
  }
  const database = await openDatabase(databaseConfig);
  try {
    const clock = new SystemClock();
    if (command === 'create') {
      const role = option(rest, 'role');
      const principal = option(rest, 'principal');
      if (!role || !principal) {
        out(KEYS_USAGE);
        return 2;
      }
      out(JSON.stringify(await issueApiKey(database.prisma, new ObjectIdGenerator(clock, new CryptoRandomSource()), clock, role, principal, option(rest, 'label') ?? ''), null, 2));
    } else if (command === 'revoke') {
      if (!rest[0]) {
        out(KEYS_USAGE);
        return 2;
      }
      await revokeApiKey(database.prisma, clock, rest[0]);
      out(JSON.stringify({ _id: rest[0], revoked: true }));
    } else {
      out(JSON.stringify(await listApiKeys(database.prisma), null, 2));
    }
    return 0;
  } finally {
    await database.close();
  }
}
