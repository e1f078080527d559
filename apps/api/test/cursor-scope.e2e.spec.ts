import { isDeepStrictEqual } from 'node:util';
import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

// A list's `after` cursor is looked up within the caller's scope: another assembly's record id (or another merchant's
// payment) is answered exactly as an id that does not exist, so a clerk learns neither that it exists nor roughly when
// it was made (which the rows after it in their own list would tell).

const UNKNOWN = '65a0000000000000000000ff';

describeOnEachTier('list cursors stay within the caller’s scope', (tier) => {
  const { fixture: f, http, running } = appOnTier(tier, { fixture: true });
  /** One record of each kind, moved to the other assembly: the clerk of the first may not see it. */
  const foreign = { vehicle: '', driver: '', owner: '', trip: '', payment: '' };
  /** A record of the same kind the clerk does see, made before the foreign one moved (their cursor works). */
  const own = { vehicle: '', driver: '', owner: '' };

  beforeAll(async () => {
    const { prisma } = running.database;
    const other = { assemblyId: f.ids.otherAssembly };
    const newestFirst = { orderBy: [{ createdAt: 'desc' as const }, { id: 'desc' as const }], select: { id: true } };
    const vehicles = await prisma.vehicle.findMany(newestFirst);
    const drivers = await prisma.driver.findMany(newestFirst);
    const owners = await prisma.vehicleOwner.findMany(newestFirst);
    [foreign.vehicle, own.vehicle] = [vehicles[10].id, vehicles[11].id];
    [foreign.driver, own.driver] = [drivers[0].id, drivers[1].id];
    [foreign.owner, own.owner] = [owners[0].id, owners[1].id];
    const trips = await prisma.trip.findMany({
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      select: { id: true },
    });
    foreign.trip = trips[0].id;
    await prisma.vehicle.update({ where: { id: foreign.vehicle }, data: other });
    await prisma.driver.update({ where: { id: foreign.driver }, data: other });
    await prisma.vehicleOwner.update({ where: { id: foreign.owner }, data: other });
    await prisma.trip.update({ where: { id: foreign.trip }, data: other });
    foreign.payment = (
      await prisma.transaction.findFirstOrThrow({ where: { merchantId: f.ids.merchantB }, select: { id: true } })
    ).id;
  });

  /** The answer as a client sees it: status, body, and the paging headers. */
  const answer = async (path: string, key: string) => {
    const res = await http().get(path).set('Authorization', key);
    // A problem's `instance` names the request: the one part that differs between any two answers.
    const { instance: _instance, ...body } = res.body;
    return { status: res.status, body, link: res.headers.link, total: res.headers['x-total-count'] };
  };

  const routes = (): Array<{ name: string; path: (after: string) => string; cursor: string; key: string }> => [
    { name: 'vehicles', path: (a) => `/vehicles/all?after=${a}`, cursor: foreign.vehicle, key: f.keys.assembly },
    {
      name: 'vehicles by plate',
      path: (a) => `/vehicles/all?sort=registrationNumber&after=registrationNumber.${a}`,
      cursor: foreign.vehicle,
      key: f.keys.assembly,
    },
    {
      name: 'vehicles, counted',
      path: (a) => `/vehicles/all?count=true&limit=5&after=${a}`,
      cursor: foreign.vehicle,
      key: f.keys.assembly,
    },
    {
      name: 'compliance',
      path: (a) => `/vehicles/compliance?after=${a}`,
      cursor: foreign.vehicle,
      key: f.keys.assembly,
    },
    { name: 'drivers', path: (a) => `/drivers/all?after=${a}`, cursor: foreign.driver, key: f.keys.assembly },
    { name: 'owners', path: (a) => `/vehicles/owner/all?after=${a}`, cursor: foreign.owner, key: f.keys.assembly },
    {
      name: 'owner search',
      path: (a) => `/vehicles/owner/search?query=owner&after=${a}`,
      cursor: foreign.owner,
      key: f.keys.assembly,
    },
    { name: 'search', path: (a) => `/search?query=GR%201&after=${a}`, cursor: foreign.vehicle, key: f.keys.assembly },
    {
      name: 'trips',
      path: (a) => `/trips/intracity/date?startDate=2026-10-01&endDate=2026-10-31&after=${a}`,
      cursor: foreign.trip,
      key: f.keys.assembly,
    },
    {
      name: 'assembly users',
      path: (a) => `/assembly/users?after=${a}`,
      cursor: f.ids.otherAssemblyUser,
      key: f.keys.assembly,
    },
    {
      name: 'merchant transactions',
      path: (a) => `/payment/transactions?after=${a}`,
      cursor: foreign.payment,
      key: f.keys.merchantA,
    },
  ];

  it('answers a cursor naming a record outside the caller’s scope exactly as an unknown cursor, on every list', async () => {
    const differing: Array<{ route: string; unknown: unknown; outside: unknown }> = [];
    for (const route of routes()) {
      const unknown = await answer(route.path(UNKNOWN), route.key);
      const outside = await answer(route.path(route.cursor), route.key);
      if (!isDeepStrictEqual(outside, unknown)) differing.push({ route: route.name, unknown, outside });
    }
    expect(differing).toEqual([]);
  });

  it('still pages on from a cursor within the scope (the check above is not of lists that are always empty)', async () => {
    const pages: Array<[string, string, string]> = [
      ['vehicles', `/vehicles/all?after=${own.vehicle}`, f.keys.assembly],
      ['drivers', `/drivers/all?after=${own.driver}`, f.keys.assembly],
      ['owners', `/vehicles/owner/all?after=${own.owner}`, f.keys.assembly],
      ['search', `/search?query=GR%201&after=${own.vehicle}`, f.keys.assembly],
    ];
    for (const [name, path, key] of pages) {
      const res = await http().get(path).set('Authorization', key).expect(200);
      const items: unknown[] = res.body.payload ?? res.body;
      expect({ name, some: items.length > 0 }).toEqual({ name, some: true });
    }
    // An admin's scope is every assembly: the moved vehicle still anchors their page.
    const admin = await http().get(`/vehicles/all?after=${foreign.vehicle}`).set('Authorization', f.keys.admin);
    expect(admin.body.length).toBeGreaterThan(0);
  });
});
