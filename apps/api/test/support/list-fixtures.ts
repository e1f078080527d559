import { Driver, ObjectIdGenerator, Vehicle } from '@transport/domain';
import { FixedClock, passedDriverChecklist, PlainTextHasher, SeededRandomSource } from '@transport/domain/testing';
import type { Database } from '../../src/persistence/database';
import { prismaRepositories } from '../../src/persistence/prisma-repositories';
import { endOfDayAfter } from '../../src/core/http/date-range';
import type { ApiFixture } from './api-fixtures';

const DAY = 86_400_000;

/** What the list tests add to the API fixture, by name. */
export interface ListFixture {
  /** Vehicles whose documents end around the expiry windows' edges, by plate. */
  expiring: Record<'EX 1-26' | 'EX 2-26' | 'EX 3-26' | 'EX 4-26', string>;
  /** Tema's records: never in Accra's lists. */
  tema: { vehicles: string[]; drivers: string[] };
  drivers: Record<'revoked' | 'licenceEnding' | 'licenceEnded', string>;
}

/**
 * On top of the API fixture (60 vehicles and 3 drivers of Accra): vehicles without a plate, three registered at one
 * instant (ties on createdAt), documents and licences ending around the windows' edges counted from `now` in
 * `timeZone` (as the API counts them), namesakes, a revoked driver, and records of Tema's.
 */
export async function loadListFixture(
  database: Pick<Database, 'prisma'>,
  f: ApiFixture,
  now: Date,
  timeZone: string,
): Promise<ListFixture> {
  const repos = prismaRepositories(database.prisma);
  const ids = new ObjectIdGenerator(new FixedClock(now), new SeededRandomSource(4242));
  const hasher = new PlainTextHasher();
  const lastOfDay = (days: number) => new Date(endOfDayAfter(now, days, timeZone).getTime() - 1000);
  const far = new Date(now.getTime() + 800 * DAY);
  const sameInstant = new Date('2026-10-02T00:00:00Z');

  const vehicle = async (
    assemblyId: string,
    at: Date,
    plate?: string,
    roadWorthy: Date = far,
    insurance: Date = far,
  ): Promise<string> => {
    const v = Vehicle.register(
      {
        ownerId: f.ids.owners[0],
        registrationNumber: plate,
        make: 'Nissan',
        roadWorthyExpiryDate: roadWorthy,
        insuranceExpiryDate: insurance,
        assemblyId,
      },
      ids,
      at,
    );
    return (await repos.vehicles.add(v)).id;
  };
  const accra = f.ids.assembly;
  for (let n = 0; n < 3; n++) await vehicle(accra, sameInstant);
  await vehicle(accra, sameInstant, 'GS 2000-26');
  await vehicle(accra, sameInstant, 'GS 2001-26');
  const expiring = {
    'EX 1-26': await vehicle(accra, new Date('2026-10-03T00:00:00Z'), 'EX 1-26', lastOfDay(0)),
    'EX 2-26': await vehicle(accra, new Date('2026-10-03T00:01:00Z'), 'EX 2-26', far, lastOfDay(10)),
    'EX 3-26': await vehicle(
      accra,
      new Date('2026-10-03T00:02:00Z'),
      'EX 3-26',
      new Date(endOfDayAfter(now, 10, timeZone).getTime() + 3_600_000),
    ),
    'EX 4-26': await vehicle(accra, new Date('2026-10-03T00:03:00Z'), 'EX 4-26', new Date(now.getTime() - DAY)),
  };

  let n = 0;
  const driver = async (
    assemblyId: string,
    name: string,
    at: Date,
    licenseExpiry: Date = far,
    standing: 'approved' | 'revoked' | 'awaiting' = 'awaiting',
  ): Promise<string> => {
    n++;
    const issued = new Date(Math.min(at.getTime(), licenseExpiry.getTime()) - 400 * DAY);
    const { driver: d } = Driver.register(
      {
        name,
        phone: `02090${String(n).padStart(5, '0')}`,
        email: `listed${n}@example.com`,
        license: `DL-L${n}`,
        licenseClass: 'B',
        licenseIssueDate: issued,
        licenseExpiry,
        idType: 'ghana_card',
        idNumber: `GHA-L${n}`,
        gender: 'male',
        assemblyId,
      },
      { ids, random: new SeededRandomSource(n), hasher },
      at,
    );
    const approvedAt = new Date(at.getTime() + 60_000);
    if (standing !== 'awaiting') d.approve(passedDriverChecklist, f.ids.assemblyUser, approvedAt);
    if (standing === 'revoked') d.revokeApproval('Complaints', f.ids.assemblyUser, new Date(approvedAt.getTime() + 1));
    return (await repos.drivers.add(d)).id;
  };
  await driver(accra, 'Kofi Annan', sameInstant, far, 'approved');
  await driver(accra, 'Kofi Annan', sameInstant);
  await driver(accra, 'Kofi Annan', new Date('2026-10-04T00:00:00Z'));
  await driver(accra, 'Abena Owusu', sameInstant, far, 'approved');
  await driver(accra, 'Yaw Darko', new Date('2026-10-05T00:00:00Z'));
  const drivers = {
    revoked: await driver(accra, 'Efua Mensah', new Date('2026-10-06T00:00:00Z'), far, 'revoked'),
    licenceEnding: await driver(accra, 'Ama Serwaa', new Date('2026-10-07T00:00:00Z'), lastOfDay(5), 'approved'),
    licenceEnded: await driver(accra, 'Esi Arthur', new Date('2026-10-08T00:00:00Z'), new Date(now.getTime() - DAY)),
  };

  const temaId = f.ids.otherAssembly;
  const tema = {
    vehicles: [
      await vehicle(temaId, sameInstant, 'TM 1-26', lastOfDay(1)),
      await vehicle(temaId, new Date('2026-10-09T00:00:00Z')),
      await vehicle(temaId, new Date('2026-10-09T00:00:00Z'), 'AA 1-26'),
    ],
    drivers: [
      await driver(temaId, 'Aaron Tema', sameInstant, lastOfDay(2), 'revoked'),
      await driver(temaId, 'Kofi Annan', sameInstant),
    ],
  };
  return { expiring, tema, drivers };
}
