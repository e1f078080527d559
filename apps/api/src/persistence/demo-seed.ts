import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  inspectionSettingsOf,
  SYSTEM_ACTOR,
  type Clock,
  type IdGenerator,
  type RandomSource,
  type SecretHasher,
} from '@transport/domain';
import { seedPayments, seedTrips } from './demo-activity';
import { seedOwnersAndDrivers, seedPlaces, seedVehicles, type DemoContext } from './demo-registry';
import { PrismaAuditLog } from './prisma-audit-log';
import { prismaRepositories } from './prisma-repositories';
import type { PrismaClient } from '../generated/prisma/client';
import { hashApiKey, newApiKey, randomToken } from '../core/platform/secrets';
import { hashPassword } from '../core/platform/passwords';

export interface DemoCredentials {
  admin: string;
  assembly: string;
  merchant: string;
  /** Activation key of the demo driver who has not activated yet (Fiifi Mensah). */
  driverActivationKey: string;
  /** The dashboard's demo sign-ins (an inspector and an approver of the first assembly), one password for both. */
  dashboard: { inspector: string; approver: string; password: string };
  note: string;
}

export interface SeedPorts {
  prisma: PrismaClient;
  ids: IdGenerator;
  random: RandomSource;
  clock: Clock;
  /** The service's own activation-key hasher, so the demo driver's printed key works. */
  hasher: SecretHasher;
}

const DAY = 86_400_000;
const CREDENTIALS_FILE = 'demo-credentials.json';

/**
 * Demo data for the start command, built with the domain's own rules and saved through the repositories, in one
 * transaction: regions and assemblies, owners, vehicles in every state, drivers, trips and payment transactions, plus
 * one API key per role. Runs once (when there are no vehicles yet). The keys are random and are written to
 * `demo-credentials.json` in the data directory so every start can print them.
 */
export async function seedDemo(
  ports: SeedPorts,
  credentialsDir: string,
): Promise<{ seeded: boolean; credentials?: DemoCredentials }> {
  const existing = await readCredentials(credentialsDir);
  if ((await ports.prisma.vehicle.count()) > 0) return { seeded: false, credentials: existing };

  const { ids, random } = ports;
  const now = ports.clock.now();
  const at = (days: number) => new Date(now.getTime() + days * DAY);
  const { hasher } = ports;
  const credentials: DemoCredentials = {
    admin: newApiKey('admin'),
    assembly: newApiKey('assembly'),
    merchant: newApiKey('merchant'),
    driverActivationKey: '',
    dashboard: {
      inspector: 'abena.mensah@ama.gov.gh',
      approver: 'kwame.boateng@ama.gov.gh',
      password: `demo-${randomToken(9)}`,
    },
    note: 'Demo keys for this data directory only. Send one as the Authorization header (bare or as "Bearer <key>").',
  };

  const demoPasswordHash = await hashPassword(credentials.dashboard.password);
  // One transaction: the domain records through the repositories, the merchant and keys (principals, not domain
  // aggregates) through the same transaction's client. A failure leaves nothing behind.
  await ports.prisma.$transaction(
    async (tx) => {
      const ctx: DemoContext = {
        db: { ...prismaRepositories(tx), audit: new PrismaAuditLog(tx) },
        ids,
        random,
        hasher,
        now,
        at,
      };
      const { assemblies, inspector, approver, union, station } = await seedPlaces(ctx);
      // Every demo record is Accra's, where the demo staff work.
      const accra = assemblies[0].id;
      // A demo is tried at a desk, without a camera: its assemblies do not require photos (a real assembly does by
      // default; an assembly admin turns it off, PUT /assembly/inspection-settings/{id}).
      for (const assembly of assemblies)
        await ctx.db.assemblies.setInspectionSettings(assembly.id, {
          ...inspectionSettingsOf({}),
          photosRequired: false,
        });
      const { owners, drivers, driverActivationKey } = await seedOwnersAndDrivers(ctx, { accra, approver });
      credentials.driverActivationKey = driverActivationKey;
      const vehicles = await seedVehicles(ctx, { accra, inspector, approver, union, station }, { owners, drivers });
      await seedTrips(ctx, { accra, driver: drivers[0], vehicle: vehicles[1] });
      const merchantId = await seedPayments(ctx, tx);

      await tx.apiKey.createMany({
        data: [
          {
            id: ids.next(),
            keyHash: hashApiKey(credentials.admin),
            role: 'admin',
            principalId: ids.next(),
            label: 'demo admin',
            createdAt: now,
            updatedAt: now,
          },
          {
            id: ids.next(),
            keyHash: hashApiKey(credentials.assembly),
            role: 'assembly',
            principalId: approver.id,
            label: 'demo assembly approver',
            createdAt: now,
            updatedAt: now,
          },
          {
            id: ids.next(),
            keyHash: hashApiKey(credentials.merchant),
            role: 'merchant',
            principalId: merchantId,
            label: 'demo merchant',
            createdAt: now,
            updatedAt: now,
          },
        ],
      });
      // The password is hashed as any person's is (scrypt, off the event loop), before it reaches the transaction.
      await tx.personCredential.createMany({
        data: [inspector, approver].map((user) => ({
          userId: user.id,
          passwordHash: demoPasswordHash,
          updatedAt: now,
        })),
      });
      await ctx.db.audit.append([
        {
          entity: 'demo',
          entityId: merchantId,
          action: 'DemoDataLoaded',
          actor: SYSTEM_ACTOR,
          before: null,
          after: null,
          at: now,
        },
      ]);
    },
    { timeout: 60_000 },
  );

  await mkdir(credentialsDir, { recursive: true, mode: 0o700 });
  const file = join(credentialsDir, CREDENTIALS_FILE);
  await writeFile(file, JSON.stringify(credentials, null, 2) + '\n', { mode: 0o600 });
  await chmod(file, 0o600);
  return { seeded: true, credentials };
}

async function readCredentials(dir: string): Promise<DemoCredentials | undefined> {
  try {
    return JSON.parse(await readFile(join(dir, CREDENTIALS_FILE), 'utf8')) as DemoCredentials;
  } catch {
    return undefined;
  }
}
