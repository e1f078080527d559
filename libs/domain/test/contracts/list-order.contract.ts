import type { OpenBackend, RepositoryBackend } from './backend';
import { at, driver, idsFor, owner, USER, vehicle } from './fixtures';
import {
  allChecksPassed,
  driverSummaryOf,
  type DriverListFilter,
  type DriverSortField,
  type ListOrder,
  type Page,
  type PageRequest,
  type VehicleListFilter,
  type VehicleSortField,
} from '../../src';

/** Every page of a list from the first, following `next`: what a client walking the list sees, in order. */
async function walk<T>(
  list: (page: PageRequest<string>) => Promise<Page<T>>,
  order: ListOrder<string> | undefined,
  limit = 2,
): Promise<T[]> {
  const seen: T[] = [];
  let after: string | undefined;
  for (let pages = 0; pages < 50; pages++) {
    const page = await list({ limit, after, order });
    seen.push(...page.items);
    if (page.next === undefined) return seen;
    after = page.next;
  }
  throw new Error('the list never ended');
}

/** The order a list is expected in: by the key (absent values last ascending, first descending), then by id. */
function sortedBy<S extends { id: string }>(
  rows: S[],
  key: (s: S) => string | number | undefined,
  descending: boolean,
) {
  const compare = (a: S, b: S) => {
    const [x, y] = [key(a), key(b)];
    if (x !== y) {
      if (x === undefined) return 1;
      if (y === undefined) return -1;
      return x < y ? -1 : 1;
    }
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
  return [...rows].sort((a, b) => (descending ? -compare(a, b) : compare(a, b))).map((s) => s.id);
}

export function listOrderContract(name: string, open: OpenBackend): void {
  describe(`list orders and expiry filters of vehicles and drivers [${name}]`, () => {
    let b: RepositoryBackend;
    beforeEach(async () => {
      b = await open();
    });
    afterEach(async () => {
      await b.close();
    });

    it('pages vehicles in each order to the end, ties broken by id, vehicles without a plate last (first descending)', async () => {
      const ids = idsFor(31);
      const o = await b.owners.add(owner(ids, 1));
      // Registered out of plate order; two pairs at the same instant (ties on createdAt); two without a plate.
      const plan: Array<[number, number, string | undefined]> = [
        [7, 1, 'GR 1007-24'],
        [2, 2, 'GR 1002-24'],
        [9, 2, 'GR 1009-24'],
        [4, 3, undefined],
        [1, 4, 'GR 1001-24'],
        [5, 4, undefined],
        [3, 5, 'GR 1003-24'],
      ];
      for (const [n, minute, plate] of plan)
        await b.vehicles.add(vehicle(ids, o.id, n, at(minute), { registrationNumber: plate }));
      const states = (await b.vehicles.list({}, { limit: 50 })).items.map((v) => v.toState());
      expect(states).toHaveLength(7);

      const cases: Array<[ListOrder<VehicleSortField> | undefined, string[]]> = [
        [undefined, sortedBy(states, (s) => s.createdAt.getTime(), true)],
        [{ by: 'createdAt', descending: true }, sortedBy(states, (s) => s.createdAt.getTime(), true)],
        [{ by: 'createdAt', descending: false }, sortedBy(states, (s) => s.createdAt.getTime(), false)],
        [{ by: 'registrationNumber', descending: false }, sortedBy(states, (s) => s.registrationNumber, false)],
        [{ by: 'registrationNumber', descending: true }, sortedBy(states, (s) => s.registrationNumber, true)],
      ];
      for (const [order, expected] of cases) {
        for (const limit of [1, 2, 3, 50]) {
          const seen = await walk((page) => b.vehicles.list({}, page as PageRequest<VehicleSortField>), order, limit);
          expect({ order, limit, ids: seen.map((v) => v.id) }).toEqual({ order, limit, ids: expected });
        }
        // The public's summaries come in the same order, page by page.
        const summaries = await walk(
          (page) => b.vehicles.listSummaries({}, page as PageRequest<VehicleSortField>),
          order,
        );
        expect(summaries.map((s) => s.id)).toEqual(expected);
      }
      const plates = async (descending: boolean) =>
        (await b.vehicles.list({}, { limit: 50, order: { by: 'registrationNumber', descending } })).items.map(
          (v) => v.toState().registrationNumber ?? null,
        );
      expect((await plates(false)).slice(0, 5)).toEqual([
        'GR 1001-24',
        'GR 1002-24',
        'GR 1003-24',
        'GR 1007-24',
        'GR 1009-24',
      ]);
      expect((await plates(true)).slice(0, 3)).toEqual([null, null, 'GR 1009-24']);
      // The count is of every match, whatever the order and the cursor.
      const first = await b.vehicles.list({}, { limit: 2, order: { by: 'registrationNumber', descending: false } });
      const counted = await b.vehicles.list(
        {},
        { limit: 2, after: first.next, count: true, order: { by: 'registrationNumber', descending: false } },
      );
      expect(counted.total).toBe(7);
      expect(counted.items.map((v) => v.toState().registrationNumber)).toEqual(['GR 1003-24', 'GR 1007-24']);
    });

    it('narrows vehicles to those whose roadworthy or insurance certificate ends by a date, in any order', async () => {
      const ids = idsFor(32);
      const o = await b.owners.add(owner(ids, 1));
      const day = (d: number) => at(60 * 24 * d);
      await b.vehicles.add(
        vehicle(ids, o.id, 1, at(1), { roadWorthyExpiryDate: day(5), insuranceExpiryDate: day(90) }),
      );
      await b.vehicles.add(
        vehicle(ids, o.id, 2, at(2), { roadWorthyExpiryDate: day(90), insuranceExpiryDate: day(10) }),
      );
      await b.vehicles.add(
        vehicle(ids, o.id, 3, at(3), { roadWorthyExpiryDate: day(90), insuranceExpiryDate: day(90) }),
      );
      await b.vehicles.add(
        vehicle(ids, o.id, 4, at(4), { roadWorthyExpiryDate: undefined, insuranceExpiryDate: undefined }),
      );
      await b.vehicles.add(
        vehicle(ids, o.id, 5, at(5), { roadWorthyExpiryDate: day(-3), insuranceExpiryDate: day(90) }),
      );
      const plates = async (filter: VehicleListFilter, order?: ListOrder<VehicleSortField>) =>
        (await b.vehicles.list(filter, { limit: 50, order })).items.map((v) => v.toState().registrationNumber);
      expect(await plates({ certificatesEndingBy: day(10) })).toEqual(['GR 1005-24', 'GR 1002-24', 'GR 1001-24']);
      // On the day itself, to the millisecond: a certificate ending exactly then is in.
      expect(await plates({ certificatesEndingBy: day(5) })).toEqual(['GR 1005-24', 'GR 1001-24']);
      expect(await plates({ certificatesEndingBy: new Date(day(5).getTime() - 1) })).toEqual(['GR 1005-24']);
      expect(await plates({ certificatesEndingBy: day(10) }, { by: 'registrationNumber', descending: false })).toEqual([
        'GR 1001-24',
        'GR 1002-24',
        'GR 1005-24',
      ]);
      expect((await b.vehicles.list({ certificatesEndingBy: day(10) }, { limit: 1, count: true })).total).toBe(3);
      // The compliance list is the same rows.
      expect(
        (await b.vehicles.listCertificatesEndingBy(day(10), { limit: 50 })).items.map(
          (v) => v.toState().registrationNumber,
        ),
      ).toEqual(['GR 1005-24', 'GR 1002-24', 'GR 1001-24']);
    });

    it('pages drivers by name and by registration both ways to the end, namesakes in id order', async () => {
      const ids = idsFor(33);
      const names = ['Kofi Annan', 'Abena Owusu', 'Yaw Darko', 'Kofi Annan', 'Efua Mensah', 'Kofi Annan'];
      for (const [i, name] of names.entries()) {
        // Two registered at the same instant.
        const { driver: d } = driver(ids, i + 1, at(i === 3 ? 2 : i), { name });
        await b.drivers.add(d);
      }
      const states = (await b.drivers.list({}, { limit: 50 })).items.map((d) => d.toState());
      const cases: Array<[ListOrder<DriverSortField> | undefined, string[]]> = [
        [undefined, sortedBy(states, (s) => s.createdAt.getTime(), true)],
        [{ by: 'createdAt', descending: false }, sortedBy(states, (s) => s.createdAt.getTime(), false)],
        [{ by: 'name', descending: false }, sortedBy(states, (s) => s.name, false)],
        [{ by: 'name', descending: true }, sortedBy(states, (s) => s.name, true)],
      ];
      for (const [order, expected] of cases) {
        for (const limit of [1, 2, 4]) {
          const seen = await walk((page) => b.drivers.list({}, page as PageRequest<DriverSortField>), order, limit);
          expect({ order, limit, ids: seen.map((d) => d.id) }).toEqual({ order, limit, ids: expected });
        }
        const summaries = await walk(
          (page) => b.drivers.listSummaries({}, page as PageRequest<DriverSortField>),
          order,
        );
        expect(summaries).toEqual(
          (await walk((page) => b.drivers.list({}, page as PageRequest<DriverSortField>), order)).map((d) =>
            driverSummaryOf(d.toState()),
          ),
        );
      }
      const byName = await b.drivers.list({}, { limit: 50, order: { by: 'name', descending: false } });
      expect(byName.items.map((d) => d.toState().name)).toEqual([
        'Abena Owusu',
        'Efua Mensah',
        'Kofi Annan',
        'Kofi Annan',
        'Kofi Annan',
        'Yaw Darko',
      ]);
    });

    it('narrows drivers by where they stand (approved, revoked, awaiting approval) and by licence end', async () => {
      const ids = idsFor(34);
      const day = (d: number) => at(60 * 24 * d);
      const add = async (n: number, expiryDay: number, stand: 'approved' | 'revoked' | 'awaiting') => {
        const { driver: d } = driver(ids, n, at(n), { licenseExpiry: day(expiryDay) });
        if (stand !== 'awaiting') d.approve(allChecksPassed(), USER, at(20));
        if (stand === 'revoked') d.revokeApproval('complaints', USER, at(21));
        return (await b.drivers.add(d)).id;
      };
      const approved = await add(1, 400, 'approved');
      const revoked = await add(2, 30, 'revoked');
      const waiting = await add(3, 10, 'awaiting');
      const approvedSoon = await add(4, 5, 'approved');
      // Approved again after a revocation: approved, and no longer revoked.
      const { driver: again } = driver(ids, 5, at(5), { licenseExpiry: day(400) });
      again.approve(allChecksPassed(), USER, at(20));
      again.revokeApproval('complaints', USER, at(21));
      again.approve(allChecksPassed(), USER, at(22));
      const reinstated = (await b.drivers.add(again)).id;

      const found = async (filter: DriverListFilter, order?: ListOrder<DriverSortField>) =>
        (await b.drivers.list(filter, { limit: 50, order })).items.map((d) => d.id);
      expect(await found({ standing: 'approved' })).toEqual([reinstated, approvedSoon, approved]);
      expect(await found({ standing: 'revoked' })).toEqual([revoked]);
      expect(await found({ standing: 'awaiting_approval' })).toEqual([waiting]);
      expect(await found({ licenseEndingBy: day(10) })).toEqual([approvedSoon, waiting]);
      expect(await found({ licenseEndingBy: day(30) }, { by: 'createdAt', descending: false })).toEqual([
        revoked,
        waiting,
        approvedSoon,
      ]);
      expect(await found({ licenseEndingBy: day(30), standing: 'approved' })).toEqual([approvedSoon]);
      expect((await b.drivers.list({ standing: 'approved' }, { limit: 1, count: true })).total).toBe(3);
      const summaries = await b.drivers.listSummaries({ standing: 'revoked' }, { limit: 50 });
      expect(summaries.items.map((s) => s.id)).toEqual([revoked]);
      // A state's filter and the approval filter agree: revoked and awaiting drivers are not approved.
      expect(await found({ standing: 'revoked', approved: true })).toEqual([]);
    });
  });
}
