import { parse } from 'csv-parse/sync';
import request from 'supertest';
import type { RunningApp } from '../src/app';
import { expiryWindow } from '../src/core/http/date-range';
import { loadApiFixture, type ApiFixture } from './support/api-fixtures';
import { loadListFixture, type ListFixture } from './support/list-fixtures';
import { describeOnEachTier, openTierStore, startTestApp, type TierStore } from './support/test-app';

type Listed = {
  _id: string;
  createdAt: string;
  registrationNumber?: string;
  name?: string;
  assembly?: string | null;
  roadWorthyExpiryDate?: string;
  insuranceExpiryDate?: string;
  licenseExpiry?: string;
};

/** The order a list must come in: by the field (absent last ascending, first descending), then `_id`, the same way. */
function sortedAs(records: Listed[], sort: string): string[] {
  const descending = sort.startsWith('-');
  const field = (descending ? sort.slice(1) : sort) as keyof Listed;
  const compare = (a: Listed, b: Listed) => {
    const [x, y] = [a[field] as string | undefined, b[field] as string | undefined];
    if (x !== y) {
      if (x === undefined) return 1;
      if (y === undefined) return -1;
      return x < y ? -1 : 1;
    }
    return a._id < b._id ? -1 : 1;
  };
  return [...records].sort((a, b) => (descending ? compare(b, a) : compare(a, b))).map((r) => r._id);
}

// GET /vehicles/all and GET /drivers/all in every order (`sort`), walked page by page through the Link header, with the
// expiry-window and standing filters, the 400s of a bad sort, window or cursor, and each assembly's records its own.
describeOnEachTier('sorted and filtered lists', (tier) => {
  let store: TierStore;
  let running: RunningApp;
  let f: ApiFixture;
  let l: ListFixture;
  let timeZone: string;
  const http = () => request(running.app.getHttpServer());
  const get = (path: string, key?: string) => (key ? http().get(path).set('Authorization', key) : http().get(path));

  /** Every record of a list, following `Link: rel="next"` from the first page, and the cursors it was given. */
  async function walk(path: string, key?: string, limit = 7) {
    const seen: Listed[] = [];
    const cursors: string[] = [];
    let next: string | undefined = `${path}${path.includes('?') ? '&' : '?'}limit=${limit}`;
    while (next) {
      const res: request.Response = await get(next, key).expect(200);
      seen.push(...(Array.isArray(res.body) ? res.body : res.body.payload));
      next = /<([^>]+)>; rel="next"/.exec(res.headers.link ?? '')?.[1];
      if (next) cursors.push(new URL(next, 'http://x').searchParams.get('after') ?? '');
    }
    return { ids: seen.map((r) => r._id), records: seen, cursors };
  }
  /** The whole list on one page, newest first (what the orders are checked against). */
  const whole = async (path: string, key?: string) => {
    const res = await get(`${path}${path.includes('?') ? '&' : '?'}limit=500`, key).expect(200);
    return (Array.isArray(res.body) ? res.body : res.body.payload) as Listed[];
  };
  const problemOf = async (path: string, key: string | undefined, status: number) => {
    const res = await get(path, key).expect(status);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status, type: expect.any(String), title: expect.any(String) });
    return res.body as { detail: string; code: string; errors?: Array<{ field: string; message: string }> };
  };

  beforeAll(async () => {
    store = await openTierStore(tier);
    const config = store.config();
    timeZone = config.timeZone;
    running = await startTestApp(config);
    f = await loadApiFixture(running.database);
    l = await loadListFixture(running.database, f, new Date(), timeZone);
  });
  afterAll(async () => {
    await running?.close();
    await store?.dispose();
  });

  it('walks every vehicle order to the end: the whole list in order, each vehicle once, for each kind of caller', async () => {
    for (const key of [f.keys.admin, f.keys.assembly, f.keys.otherAssembly, undefined]) {
      const all = await whole('/vehicles/all', key);
      expect(all.length).toBeGreaterThan(key === f.keys.otherAssembly ? 2 : 60);
      for (const sort of [undefined, '-createdAt', 'createdAt', 'registrationNumber', '-registrationNumber']) {
        const { ids, cursors } = await walk(`/vehicles/all${sort ? `?sort=${sort}` : ''}`, key);
        expect({ key, sort, ids }).toEqual({ key, sort, ids: sortedAs(all, sort ?? '-createdAt') });
        expect(new Set(ids).size).toBe(all.length);
        // Newest first, the cursors are the plain `_id`s every client knows; any other order names itself.
        const shape = !sort || sort === '-createdAt' ? /^[0-9a-f]{24}$/ : new RegExp(`^${sort}\\.[0-9a-f]{24}$`);
        expect(cursors.every((c) => shape.test(c))).toBe(true);
      }
    }
    // Vehicles without a plate come last from A to Z, first from Z to A; by plate, the edges of the alphabet.
    const byPlate = (await walk('/vehicles/all?sort=registrationNumber', f.keys.assembly)).records;
    expect(byPlate.slice(-3).map((v) => v.registrationNumber)).toEqual([undefined, undefined, undefined]);
    expect(byPlate.slice(0, 2).map((v) => v.registrationNumber)).toEqual(['EX 1-26', 'EX 2-26']);
    const backwards = (await walk('/vehicles/all?sort=-registrationNumber', f.keys.admin)).records;
    expect(backwards.slice(3, 6).map((v) => v.registrationNumber)).toEqual([undefined, 'TM 1-26', 'GS 2001-26']);
  });

  it('walks every driver order to the end, namesakes and drivers of one instant in _id order', async () => {
    for (const key of [f.keys.admin, f.keys.assembly, f.keys.otherAssembly, undefined]) {
      const all = await whole('/drivers/all', key);
      for (const sort of [undefined, 'createdAt', 'name', '-name']) {
        const { ids } = await walk(`/drivers/all${sort ? `?sort=${sort}` : ''}`, key, 3);
        expect({ key, sort, ids }).toEqual({ key, sort, ids: sortedAs(all, sort ?? '-createdAt') });
        expect(new Set(ids).size).toBe(all.length);
      }
    }
    const names = (await walk('/drivers/all?sort=name', f.keys.assembly, 2)).records.map((d) => d.name);
    expect(names).toEqual([
      'Abena Owusu',
      'Ama Serwaa',
      'Driver 1',
      'Driver 2',
      'Driver 3',
      'Efua Mensah',
      'Esi Arthur',
      'Kofi Annan',
      'Kofi Annan',
      'Kofi Annan',
      'Yaw Darko',
    ]);
  });

  it("never shows another assembly's records, in any order or window", async () => {
    const tema = [...l.tema.vehicles, ...l.tema.drivers];
    for (const sort of ['createdAt', 'registrationNumber', '-registrationNumber']) {
      for (const extra of ['', '&expiring=30']) {
        const accra = await walk(`/vehicles/all?sort=${sort}${extra}`, f.keys.assembly);
        expect(accra.records.every((v) => v.assembly === f.ids.assembly)).toBe(true);
        expect(accra.ids.filter((id) => tema.includes(id))).toEqual([]);
        const own = await walk(`/vehicles/all?sort=${sort}${extra}`, f.keys.otherAssembly);
        expect(own.records.every((v) => v.assembly === f.ids.otherAssembly)).toBe(true);
      }
    }
    for (const query of ['sort=name', 'sort=-name&state=revoked', 'sort=createdAt&expiring=30']) {
      const accra = await walk(`/drivers/all?${query}`, f.keys.assembly);
      expect(accra.records.every((d) => d.assembly === f.ids.assembly)).toBe(true);
      expect(accra.ids.filter((id) => tema.includes(id))).toEqual([]);
      const own = await walk(`/drivers/all?${query}`, f.keys.otherAssembly);
      expect(own.records.every((d) => d.assembly === f.ids.otherAssembly)).toBe(true);
    }
    expect((await walk('/drivers/all?state=revoked', f.keys.otherAssembly)).ids).toEqual([l.tema.drivers[0]]);
  });

  it('narrows vehicles to documents ending within the window (expired ones included), in any order', async () => {
    const all = await whole('/vehicles/all', f.keys.assembly);
    for (const days of [0, 10, 11, 30, 366]) {
      const { last } = expiryWindow(new Date(), days, timeZone);
      const ends = (date?: string) => date !== undefined && new Date(date) <= last;
      const inWindow = all.filter((v) => ends(v.roadWorthyExpiryDate) || ends(v.insuranceExpiryDate));
      for (const sort of ['-createdAt', 'registrationNumber', '-registrationNumber']) {
        const { ids } = await walk(`/vehicles/all?expiring=${days}&sort=${sort}`, f.keys.assembly, 3);
        expect({ days, sort, ids }).toEqual({ days, sort, ids: sortedAs(inWindow, sort) });
      }
    }
    const plates = async (days: number) =>
      (await walk(`/vehicles/all?expiring=${days}&sort=registrationNumber`, f.keys.assembly)).records
        .map((v) => v.registrationNumber)
        .filter((p) => p?.startsWith('EX'));
    expect(await plates(0)).toEqual(['EX 1-26', 'EX 4-26']);
    expect(await plates(10)).toEqual(['EX 1-26', 'EX 2-26', 'EX 4-26']);
    expect(await plates(11)).toEqual(['EX 1-26', 'EX 2-26', 'EX 3-26', 'EX 4-26']);
    // With the other filters, and counted.
    const linked = await get(`/vehicles/all?station=${f.ids.station}&sort=-registrationNumber`, f.keys.admin);
    expect(linked.body.map((v: Listed) => v._id)).toEqual([f.ids.linkedVehicle]);
    const counted = await get('/vehicles/all?expiring=10&count=true&limit=1&sort=createdAt', f.keys.assembly);
    expect(counted.headers['x-total-count']).toBe('3');
  });

  it('narrows drivers by where they stand and by licence end, in any order', async () => {
    const all = await whole('/drivers/all', f.keys.assembly);
    const named = async (query: string) =>
      (await walk(`/drivers/all?${query}`, f.keys.assembly, 2)).records.map((d) => d.name);
    expect(await named('state=revoked&sort=name')).toEqual(['Efua Mensah']);
    expect(await named('state=approved&sort=name')).toEqual(['Abena Owusu', 'Ama Serwaa', 'Driver 1', 'Kofi Annan']);
    expect(await named('state=awaiting_approval&sort=-name')).toEqual([
      'Yaw Darko',
      'Kofi Annan',
      'Kofi Annan',
      'Esi Arthur',
      'Driver 3',
      'Driver 2',
    ]);
    for (const days of [0, 5, 30]) {
      const { last } = expiryWindow(new Date(), days, timeZone);
      const inWindow = all.filter((d) => new Date(d.licenseExpiry ?? '') <= last);
      expect((await walk(`/drivers/all?expiring=${days}&sort=name`, f.keys.assembly, 1)).ids).toEqual(
        sortedAs(inWindow, 'name'),
      );
    }
    expect(await named('expiring=5&sort=name')).toEqual(['Ama Serwaa', 'Esi Arthur']);
    expect(await named('expiring=5&state=approved')).toEqual(['Ama Serwaa']);
    // The platform's view shows licence expiry: so may an admin's, whose list is nationwide.
    expect((await walk('/drivers/all?expiring=5&sort=name', f.keys.admin)).ids).toContain(l.tema.drivers[0]);
    expect((await walk('/drivers/all?expiring=5', f.keys.admin)).ids).toContain(l.drivers.licenceEnded);
  });

  it('exports the whole list as CSV in the order asked for', async () => {
    const res = await get('/vehicles/all?sort=-registrationNumber&expiring=366', f.keys.admin)
      .set('Accept', 'text/csv')
      .buffer(true)
      .parse((r, done) => {
        let text = '';
        r.setEncoding('utf8');
        r.on('data', (chunk: string) => (text += chunk));
        r.on('end', () => done(null, text));
      })
      .expect(200);
    const rows = parse(res.body as string, { columns: true }) as Array<{ _id: string }>;
    const json = await walk('/vehicles/all?sort=-registrationNumber&expiring=366', f.keys.admin, 50);
    expect(rows.map((r) => r._id)).toEqual(json.ids);
  });

  it('refuses an unknown order, a window out of range, an unknown state and a cursor of another order (400)', async () => {
    const sortProblem = await problemOf('/vehicles/all?sort=plate', undefined, 400);
    expect(sortProblem).toMatchObject({
      code: 'VALIDATION_FAILED',
      detail: 'sort: sort must be one of createdAt, -createdAt, registrationNumber, -registrationNumber',
    });
    expect((await problemOf('/drivers/all?sort=registrationNumber', undefined, 400)).detail).toBe(
      'sort: sort must be one of createdAt, -createdAt, name, -name',
    );
    for (const bad of ['-1', '367', 'soon', '1.5', '7days'])
      expect((await problemOf(`/vehicles/all?expiring=${bad}`, f.keys.admin, 400)).detail).toBe(
        'expiring: expiring must be an integer from 0 to 366',
      );
    await problemOf('/drivers/all?expiring=400', f.keys.admin, 400);
    expect((await problemOf('/drivers/all?state=suspended', f.keys.admin, 400)).detail).toBe(
      'state: state must be one of approved, revoked, awaiting_approval',
    );

    const byPlate = (await walk('/vehicles/all?sort=registrationNumber', f.keys.admin, 5)).cursors[0];
    const newest = (await walk('/vehicles/all', f.keys.admin, 5)).cursors[0];
    for (const [path, made, asked] of [
      [`/vehicles/all?sort=-registrationNumber&after=${byPlate}`, 'registrationNumber', '-registrationNumber'],
      [`/vehicles/all?after=${byPlate}`, 'registrationNumber', '-createdAt'],
      [`/vehicles/all?sort=createdAt&after=${byPlate}`, 'registrationNumber', 'createdAt'],
      [`/vehicles/all?sort=registrationNumber&after=${newest}`, '-createdAt', 'registrationNumber'],
      [`/drivers/all?sort=name&after=${newest}`, '-createdAt', 'name'],
    ]) {
      const problem = await problemOf(path, f.keys.admin, 400);
      expect(problem.code).toBe('VALIDATION_FAILED');
      expect(problem.detail).toBe(
        `after: after continues the list in sort=${made} order, not sort=${asked}: send the sort it was made with, or start again without after`,
      );
      expect(problem.errors?.map((e) => e.field)).toEqual(['after']);
    }
    for (const cursor of ['registrationNumber.xyz', 'name.' + 'A'.repeat(24), '..', `a b.${newest}`])
      expect((await problemOf(`/vehicles/all?after=${encodeURIComponent(cursor)}`, undefined, 400)).detail).toMatch(
        /^after: after must be a cursor from the Link header/,
      );
    // The cursor of the order asked for is taken, explicitly newest first too.
    await get(`/vehicles/all?sort=registrationNumber&after=${byPlate}`, f.keys.admin).expect(200);
    await get(`/vehicles/all?sort=-createdAt&after=${newest}`, f.keys.admin).expect(200);
  });

  it('lets anyone sort, but keeps windows and standings to the keys whose view shows them (401, 403)', async () => {
    const anonymous = await walk('/vehicles/all?sort=-registrationNumber');
    expect(anonymous.ids).toEqual((await walk('/vehicles/all?sort=-registrationNumber', f.keys.admin)).ids);
    expect(Object.keys(anonymous.records[0]).sort()).not.toContain('roadWorthyExpiryDate');
    expect((await walk('/drivers/all?sort=name')).ids).toEqual(
      (await walk('/drivers/all?sort=name', f.keys.admin)).ids,
    );
    for (const path of ['/vehicles/all?expiring=30', '/drivers/all?expiring=30', '/drivers/all?state=revoked']) {
      expect((await problemOf(path, undefined, 401)).code).toBe('UNAUTHORIZED');
      expect((await problemOf(path, f.keys.merchantA, 403)).code).toBe('FORBIDDEN');
    }
  });
});
