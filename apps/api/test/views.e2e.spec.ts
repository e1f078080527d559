import request from 'supertest';
import { routeTable, type RouteAccess } from '../src/core/auth/access-rules';
import { seesSummaryOnly, VIEWERS, VIEWS, viewOf, type ViewedResource, type Viewer } from '../src/core/auth/views';
import { VIEW_KEY, type ViewPlace } from '../src/core/http/view.interceptor';
import { controllersOfApp } from './access-rules.support';
import { describeOnPostgres } from './support/postgres-only';
import { appOnTier } from './support/app-on-tier';

/** Fields that identify a record of each viewed kind, wherever it appears in a body. */
// A search hit (GET /search) is a record's name and phone, not the record: its route is staff-only and declares its view.
const SIGNATURES: Record<Exclude<ViewedResource, 'registeredDriver' | 'trip' | 'searchHit'>, string> = {
  vehicle: 'registrationNumber',
  driver: 'licenseClass',
  owner: 'idNumber',
  auditEntry: 'entityId',
};

/** The keys of every object in a body, recursively, with the path that led there. */
function* objects(value: unknown, path = '$'): Generator<[string, Record<string, unknown>]> {
  if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* objects(v, `${path}[${i}]`);
  else if (value !== null && typeof value === 'object') {
    yield [path, value as Record<string, unknown>];
    for (const [k, v] of Object.entries(value)) yield* objects(v, `${path}.${k}`);
  }
}

/** Every field of a record that is outside the viewer's view of it (nested records checked in their own view). */
function outsidePolicy(
  resource: ViewedResource,
  viewer: Viewer,
  record: Record<string, unknown>,
  path: string,
): string[] {
  const view = VIEWS[resource][viewer];
  if (view === 'all') return [];
  return Object.entries(record).flatMap(([key, value]) => {
    const rule = view[key];
    if (rule === undefined) return [`${path}.${key}`];
    if (rule === true || value === null || typeof value !== 'object') return [];
    return outsidePolicy(rule, viewer, value as Record<string, unknown>, `${path}.${key}`);
  });
}

function recordsAt(body: unknown, place: ViewPlace): Array<[string, Record<string, unknown>]> {
  const list = (v: unknown, path: string) =>
    (Array.isArray(v) ? v : [v]).map(
      (r, i) => [Array.isArray(v) ? `${path}[${i}]` : path, r] as [string, Record<string, unknown>],
    );
  if (place === 'body') return list(body, '$');
  if (place === 'payload') return list((body as { payload: unknown }).payload, '$.payload');
  return (body as Array<{ vehicle: Record<string, unknown> }>).map((e, i) => [`$[${i}].vehicle`, e.vehicle]);
}

// The role x endpoint matrix: every GET route (and driver registration) called by every viewer its rule lets in, on
// the interface's data set; each answer is walked against the one policy of core/auth/views.ts.
describeOnPostgres('who sees which fields: every role on every route', () => {
  const { running, fixture: f } = appOnTier('postgresql', { fixture: true });
  const keys: Partial<Record<Viewer, string>> = {};

  beforeAll(async () => {
    const platform = await request(running.app.getHttpServer())
      .post('/admin/keys')
      .set('Authorization', f.keys.admin)
      .send({ role: 'platform', principal: '65a0000000000000000000c1' })
      .expect(201);
    Object.assign(keys, {
      admin: f.keys.admin,
      assembly: f.keys.assembly,
      merchant: f.keys.merchantA,
      platform: platform.body.key,
    });
  });

  const urlFor = (route: RouteAccess): string | undefined => {
    const ids: Record<string, string> = {
      '/vehicles/:id': f.ids.linkedVehicle,
      '/drivers/:id': f.ids.workingDriver,
      '/assembly/users/:id': f.ids.assemblyUser,
      '/stations/:id': f.ids.station,
      '/unions/:id': f.ids.union,
    };
    const queries: Record<string, string> = {
      '/vehicles/owner/search': '?query=kofi',
      '/search': '?query=kofi',
      '/trips/intracity/date': '?startDate=2026-10-01&endDate=2026-10-31',
      '/payment/check_transaction': '?reference=REF-PAID',
      '/payment/deliveries': '?reference=REF-PAID',
      '/audit': `?entity=vehicle&id=${f.ids.linkedVehicle}`,
    };
    if (route.path.includes(':') && !ids[route.path]) return undefined;
    // Answered to dashboard sessions only (a key gets 403), with the signed-in person's own details and no record:
    // people.e2e.spec.ts checks what it shows.
    if (route.path === '/auth/session') return undefined;
    // Hubtel's inbound SMS push (a GET with the message in its query): no record, only an SMS reply; ussd-sms.e2e.
    if (route.path === '/sms/hubtel') return undefined;
    // The roadside's check log and offence catalogue are an assembly admin's and an enforcer's, per assembly: they hold
    // no registry record (a check names its vehicle by id), and enforcement.e2e holds who may read them.
    if (route.path === '/enforcement/checks' || route.path === '/enforcement/catalogue') return undefined;
    // The signs of fraud are an assembly admin's (the fixture's assembly key is an approver's: 403) and the national
    // admin's; a flag names its vehicle by id and plate only, and fraud-flags.e2e holds who may read them.
    if (route.path === '/assembly/fraud-flags') return undefined;
    // Everything else under /enforcement/ (contests, reports, an officer's day and work pack, notice photos) is too:
    // notice-contests.e2e, enforcement-reports.e2e and offence-photos.e2e hold who may read them.
    if (route.path.startsWith('/enforcement/')) return undefined;
    return `${ids[route.path] ? route.path.replace(':id', ids[route.path]) : route.path}${queries[route.path] ?? ''}`;
  };

  const viewersOf = (route: RouteAccess): Viewer[] =>
    route.rule.kind === 'roles' ? [...route.rule.roles] : route.rule.kind === 'undeclared' ? [] : [...VIEWERS];

  it('answers every viewer only fields inside the policy, and every route answering records declares its view', async () => {
    const checked: string[] = [];
    const problems: string[] = [];
    const routes = routeTable(controllersOfApp()).filter(
      (r) => r.method === 'GET' || (r.method === 'POST' && r.path === '/drivers/add'),
    );
    for (const route of routes) {
      const url = urlFor(route);
      if (!url) continue;
      const controller = controllersOfApp().find((c) => c.name === route.controller)!;
      const handler = (controller.prototype as Record<string, object>)[route.handler];
      const declared = Reflect.getMetadata(VIEW_KEY, handler) as
        { resource: ViewedResource; place: ViewPlace } | undefined;
      for (const viewer of viewersOf(route)) {
        const http = request(running.app.getHttpServer());
        let call =
          route.method === 'GET'
            ? http.get(url)
            : http.post(url).send({
                name: 'Ama Serwaa',
                phone: '0209876501',
                email: `ama.${viewer}@example.com`,
                license: `DL-77-${viewer}`,
                licenseClass: 'B',
                licenseExpiry: '2028-01-10',
                licenseIssueDate: '2021-01-10',
                idType: 'ghana_card',
                idNumber: `GHA-7000000${VIEWERS.indexOf(viewer)}-2`,
                gender: 'female',
                // An owner of the assembly the driver chooses (a driver names only an owner of its own assembly).
                ownerID: f.ids.owners[1],
                assembly: f.ids.assembly,
              });
        // The work pack is an inspector's (the assembly key above is an approver's): the fixture's inspector asks.
        const key =
          route.path === '/vehicles/work-pack' && viewer === 'assembly'
            ? f.keys.otherAssembly
            : keys[viewer as keyof typeof keys];
        if (key) call = call.set('Authorization', key);
        const res = await call;
        if (res.status >= 300) {
          problems.push(`${viewer} ${route.method} ${url}: HTTP ${res.status}`);
          continue;
        }
        checked.push(`${viewer} ${route.method} ${route.path}`);
        if (declared) {
          for (const [path, record] of recordsAt(res.body, declared.place))
            problems.push(
              ...outsidePolicy(declared.resource, viewer, record, path).map((p) => `${viewer} ${url}: ${p}`),
            );
        } else {
          for (const [path, object] of objects(res.body))
            for (const [resource, field] of Object.entries(SIGNATURES))
              if (field in object) problems.push(`${viewer} ${url}: a ${resource} at ${path} without a declared view`);
        }
      }
    }
    expect(problems).toEqual([]);
    // The matrix really ran: every viewer on the interface's open operations, and the staff on theirs.
    expect(checked).toEqual(
      expect.arrayContaining([
        'anonymous GET /vehicles/all',
        'merchant GET /vehicles/all',
        'platform GET /vehicles/all',
        'anonymous GET /drivers/all',
        'merchant GET /drivers/all',
        'anonymous POST /drivers/add',
        'platform GET /drivers/:id',
        'assembly GET /vehicles/compliance',
        'merchant GET /payment/check_transaction',
      ]),
    );
  });

  it("reads the public's lists as summaries that are exactly its view of the whole records", async () => {
    const lists = [
      { resource: 'vehicle' as const, url: '/vehicles/all', records: (body: unknown) => body as object[] },
      {
        resource: 'driver' as const,
        url: '/drivers/all',
        records: (body: unknown) => (body as { payload: object[] }).payload,
      },
    ];
    // One vehicle with its station unlinked (shown as `station: null`), beside the one linked to everything.
    const [unlinked] = (
      await request(running.app.getHttpServer()).get('/vehicles/all?limit=1').set('Authorization', f.keys.admin)
    ).body;
    await request(running.app.getHttpServer())
      .post(`/vehicles/${unlinked._id}/link`)
      .set('Authorization', f.keys.admin)
      .send({ station: null })
      .expect(200);
    const queries = ['?limit=500', '?limit=3', '?limit=2&approved=true', '?inspected=false', '?limit=2&count=true'];
    const viewers = VIEWERS.filter((v) => seesSummaryOnly('vehicle', v));
    expect(viewers).toEqual(['anonymous', 'merchant']);
    expect(VIEWERS.filter((v) => seesSummaryOnly('driver', v))).toEqual(viewers);
    let compared = 0;
    for (const list of lists)
      for (const query of queries) {
        if (list.resource === 'driver' && query.includes('inspected')) continue;
        const whole = await request(running.app.getHttpServer())
          .get(list.url + query)
          .set('Authorization', f.keys.admin)
          .expect(200);
        for (const viewer of viewers) {
          let call = request(running.app.getHttpServer()).get(list.url + query);
          if (keys[viewer as keyof typeof keys]) call = call.set('Authorization', keys[viewer as keyof typeof keys]!);
          const seen = await call.expect(200);
          const expected = list.records(whole.body).map((r) => viewOf(list.resource, viewer, r));
          expect(JSON.stringify(list.records(seen.body))).toBe(JSON.stringify(expected));
          expect(seen.headers.link).toBe(whole.headers.link);
          expect(seen.headers['x-total-count']).toBe(whole.headers['x-total-count']);
          compared += expected.length;
        }
      }
    // The fixture's lists are not empty, and some vehicle shows its station, union and an unlinked station as null.
    expect(compared).toBeGreaterThan(40);
    const vehicles = (await request(running.app.getHttpServer()).get('/vehicles/all?limit=500').expect(200)).body;
    expect(vehicles.some((v: { station?: unknown }) => v.station === null)).toBe(true);
    expect(vehicles.some((v: { station?: unknown; transportUnion?: unknown }) => v.station && v.transportUnion)).toBe(
      true,
    );
    const drivers = (await request(running.app.getHttpServer()).get('/drivers/all?limit=500').expect(200)).body.payload;
    expect(drivers.some((d: { rating?: number }) => d.rating !== undefined)).toBe(true);
  });

  it('walks a plate seen on the street to no personal data', async () => {
    const http = () => request(running.app.getHttpServer());
    const [vehicle] = (await http().get('/vehicles/all?registrationNumber=GR%201059-24').expect(200)).body;
    expect(vehicle.registrationNumber).toBe('GR 1059-24');
    expect(vehicle).not.toHaveProperty('ownerID');
    // Even knowing an owner's id, anonymous registration names a driver's own record only.
    const registered = await http()
      .post('/drivers/add')
      .send({
        name: 'Yaw Boateng',
        phone: '0209876599',
        email: 'yaw.boateng@example.com',
        license: 'DL-99-2021',
        licenseClass: 'B',
        licenseExpiry: '2028-01-10',
        licenseIssueDate: '2021-01-10',
        idType: 'ghana_card',
        idNumber: 'GHA-799999999-2',
        gender: 'male',
        ownerID: f.ids.owners[0],
        assembly: f.ids.assembly,
      })
      .expect(201);
    const body = JSON.stringify(registered.body);
    const owner = await running.database.prisma.vehicleOwner.findUniqueOrThrow({ where: { id: f.ids.owners[0] } });
    for (const personal of [owner.phone, owner.email, owner.idNumber]) expect(body).not.toContain(personal);
  });
});
