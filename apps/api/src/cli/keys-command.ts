import { ObjectIdGenerator, type Actor } from '@transport/domain';
import { CryptoRandomSource, SystemClock } from '@transport/domain/node';
import { AdminService } from '../admin/admin.service';
import type { AppConfig } from '../config';
import { openDatabase, type Database } from '../persistence/database';
import { PrismaApiKeyRegistry, PrismaAuditTrail, PrismaMerchantRegistry } from '../persistence/prisma-admin-stores';
import { prismaStores } from '../persistence/prisma-unit-of-work';
import { findRunningEmbeddedPostgres } from '../persistence/embedded-postgres';

/** Who the audit log names for keys issued or revoked with `npm run keys`: an operator at the server's shell. */
const OPERATOR: Actor = { role: 'system', id: 'keys-cli' };

export const KEYS_USAGE = `usage:
  keys create --role <admin|assembly|merchant> --principal <24-hex id> [--label <text>]
  keys revoke <key id>
  keys list`;

/** The admin feature's service on an open database, as the running service builds it (no job queue needed). */
function adminService(database: Database): AdminService {
  const clock = new SystemClock();
  return new AdminService(
    new PrismaApiKeyRegistry(database.prisma),
    new PrismaMerchantRegistry(database.prisma),
    new PrismaAuditTrail(database.prisma),
    prismaStores(database.prisma),
    clock,
    new ObjectIdGenerator(clock, new CryptoRandomSource()),
  );
}

/**
 * The database an operator command opens: the configured one, or with the embedded database the server of the
 * service (or Prisma CLI) already running on that data directory, when there is one.
 */
export async function cliDatabaseConfig(config: AppConfig): Promise<AppConfig> {
  if (config.databaseUrl) return config;
  const running = await findRunningEmbeddedPostgres(config.dataDir);
  // One connection: the embedded server interleaves concurrent connections' messages (see database.ts).
  return running
    ? {
        ...config,
        databaseUrl: `postgresql://postgres@127.0.0.1:${running.port}/postgres`,
        migrateOnStart: false,
        databasePoolSize: 1,
      }
    : config;
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

/**
 * Creates, revokes and lists API keys for any principal, on the same database the service uses (with the embedded
 * database, through the running service's server if it is up). Prints JSON; the created key is shown this once.
 */
export async function keysCommand(args: string[], config: AppConfig, out: (line: string) => void): Promise<number> {
  const [command, ...rest] = args;
  if (!['create', 'revoke', 'list'].includes(command)) {
    out(KEYS_USAGE);
    return 2;
  }
  const database = await openDatabase(await cliDatabaseConfig(config));
  try {
    const admin = adminService(database);
    if (command === 'create') {
      const role = option(rest, 'role');
      const principal = option(rest, 'principal');
      if (!role || !principal) {
        out(KEYS_USAGE);
        return 2;
      }
      out(JSON.stringify(await admin.issueKey(role, principal, OPERATOR, { label: option(rest, 'label') }), null, 2));
    } else if (command === 'revoke') {
      if (!rest[0]) {
        out(KEYS_USAGE);
        return 2;
      }
      out(JSON.stringify(await admin.revokeKey(rest[0], OPERATOR)));
    } else {
      const keys = [];
      for (let after: string | undefined, first = true; first || after; first = false) {
        const page = await admin.listKeys({ limit: 500, after });
        keys.push(...page.items);
        after = page.next;
      }
      out(JSON.stringify(keys, null, 2));
    }
    return 0;
  } finally {
    await database.close();
  }
}
