import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SAMPLE_100K, SAMPLE_MERCHANT, sampleId, writeSample } from '../src/sample';
import {
  admin,
  dbUrl,
  fingerprint,
  IMPORT,
  migratedDatabase,
  query,
  reportLines,
  runImport,
  startApi,
} from './support';

const ADMIN_KEY = 'import-e2e-admin-key-0123456789abcdef0123456789';

// Records the original could hold that our domain refuses, and fields we do not know: reported, never written.
const BROKEN = {
  vehicles: [
    {
      _id: { $oid: 'bad000000000000000000001' },
      ownerID: { $oid: sampleId(6, 1) },
      approved: true,
      inspected: false,
      registrationNumber: 'GX 9-99',
    },
    // Valid alone, but its plate is another vehicle's: the database refuses it, and only it, in its batch.
    { _id: { $oid: 'bad000000000000000000005' }, ownerID: { $oid: sampleId(6, 2) }, registrationNumber: 'GR 1001-24' },
  ],
  vehicleowners: [
    {
      _id: { $oid: 'bad000000000000000000002' },
      name: 'No Phone',
      phone: '12',
      email: 'x@example.com',
      idType: 'ghana_card',
      idNumber: 'GHA-1',
    },
    {
      _id: { $oid: 'bad000000000000000000003' },
      name: 'Has Extras',
      phone: '0244000003',
      email: 'extras@example.com',
      idType: 'ghana_card',
      idNumber: 'GHA-X3',
      favouriteColour: 'blue',
    },
  ],
  trips: [
    {
      _id: { $oid: 'bad000000000000000000004' },
      ticketNumber: 'TKT-BROKEN',
      service: { driver: { nickname: 'Kojo' } },
    },
  ],
};

describe('importing the original service’s MongoDB export (100,000 records)', () => {
  jest.setTimeout(600_000);
  const name = `import_e2e_${process.pid}`;
  const url = dbUrl(name);
  const folder = mkdtempSync(join(tmpdir(), 'transport-export-'));
  const reports = mkdtempSync(join(tmpdir(), 'transport-import-reports-'));
  const report = join(reports, 'report.jsonl');
  let api: { child: ChildProcess; base: string };
  let merchantKey: string;
  let merchantId: string;
  let total: number;

  /** A GET; lists come bare or in the interface's `{ status, payload }` envelope (drivers, trips). */
  const get = async (path: string, key?: string) => {
    const res = await fetch(`${api.base}${path}`, { headers: key ? { authorization: key } : {} });
    const body = (await res.json()) as { payload?: unknown };
    return { status: res.status, headers: res.headers, body: body.payload ?? body };
  };

  beforeAll(async () => {
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin(`CREATE DATABASE ${name}`);
    api = await startApi({ DATABASE_URL: url, ADMIN_API_KEY: ADMIN_KEY });
    const post = async (path: string, body: object) => {
      const res = await fetch(`${api.base}${path}`, {
        method: 'POST',
        headers: { authorization: ADMIN_KEY, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(201);
      return (await res.json()) as Record<string, string>;
    };
    merchantId = (await post('/admin/merchants/add', { name: 'Imported Rides' }))._id;
    merchantKey = (await post('/admin/keys', { role: 'merchant', principal: merchantId })).key;
    total = await writeSample(folder, SAMPLE_100K, BROKEN);
  });

  afterAll(async () => {
    api?.child.kill('SIGKILL');
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    rmSync(folder, { recursive: true, force: true });
    rmSync(reports, { recursive: true, force: true });
  });

  it('imports every valid record, and reports each refused one with its id and reason', () => {
    expect(total).toBeGreaterThanOrEqual(100_000);
    const out = runImport(['--report', report, '--merchant', `${SAMPLE_MERCHANT}=${merchantId}`, folder], url);
    const lines = reportLines(report);
    const summary = (lines.at(-1) as { summary: { collections: Record<string, Record<string, number>> } }).summary;
    for (const [collection, size] of Object.entries(SAMPLE_100K)) {
      const broken = BROKEN[collection as keyof typeof BROKEN]?.length ?? 0;
      // One of the extra owners is valid (it only has an unknown field); every other extra record is refused.
      const valid = collection === 'vehicleowners' ? 1 : 0;
      expect([collection, summary.collections[collection].read]).toEqual([collection, size + broken]);
      expect([collection, summary.collections[collection].imported]).toEqual([collection, size + valid]);
      const { skipped, refused } = summary.collections[collection];
      expect([collection, skipped + refused]).toEqual([collection, broken - valid]);
    }
    const skipped = lines.filter((l) => l.code).map((l) => [l.collection, l.id, l.code]);
    expect(skipped).toEqual(
      expect.arrayContaining([
        ['vehicleowners', 'bad000000000000000000002', 'INVALID_PHONE'],
        ['vehicles', 'bad000000000000000000001', 'VEHICLE_NOT_INSPECTED'],
        ['trips', 'bad000000000000000000004', 'INVALID_ID'],
        ['vehicles', 'bad000000000000000000005', 'DUPLICATE_VALUE'],
      ]),
    );
    // The record with an unknown field is imported, and the field is listed, not dropped in silence.
    expect(lines).toContainEqual({
      collection: 'vehicleowners',
      unknownField: 'favouriteColour',
      records: 1,
      example: 'bad000000000000000000003',
    });
    expect(lines).toContainEqual(expect.objectContaining({ collection: 'drivers', notCarried: 'activationKey' }));
    // Inside a trip's service too: the broken trip below carries one.
    expect(lines).toContainEqual(
      expect.objectContaining({ collection: 'trips', unknownField: 'service.driver.nickname', records: 1 }),
    );
    expect(out).toMatch(/records imported in/);
  });

  it('serves the imported records through the API with their ids and values', async () => {
    // Operation 9: a transaction exactly as the original held it, its values as the original spelled them
    // (`Successful`, `Direct`), though the domain keeps its own (`success`, `mobile_money`) beside them.
    const n = 5;
    const original = readFileSync(join(folder, 'transactions.json'), 'utf8').split('\n')[n];
    const doc = JSON.parse(original);
    const check = await get(`/payment/check_transaction?reference=ORD-${n}`, merchantKey);
    expect(check.status).toBe(200);
    const tx = check.body as Record<string, unknown>;
    expect(tx).toMatchObject({
      _id: doc._id.$oid,
      amount: 25.5,
      fees: 0.5,
      status: 'Successful',
      requestType: 'Direct',
      reference: `ORD-${n}`,
      merchant: merchantId,
      description: doc.description,
      callBackUrl: doc.callBackUrl,
      customerPhone: doc.customerPhone,
      requestInfo: doc.requestInfo,
      callBackInfo: doc.callBackInfo,
      callBackTime: new Date(Number(doc.callBackTime.$date.$numberLong)).toISOString(),
      createdAt: new Date(Number(doc.createdAt.$date.$numberLong)).toISOString(),
      updatedAt: new Date(Number(doc.updatedAt.$date.$numberLong)).toISOString(),
      __v: doc.__v,
    });

    expect([doc.status, doc.requestType]).toEqual(['Successful', 'Direct']);
    expect(await query(url, 'SELECT status, "requestType" FROM transactions WHERE id = $1', [doc._id.$oid])).toEqual([
      { status: 'success', requestType: 'mobile_money' },
    ]);

    const vehicles = await get('/vehicles/all?registrationNumber=GR%201012-24', ADMIN_KEY);
    expect(vehicles.body).toEqual([
      expect.objectContaining({
        _id: sampleId(8, 12),
        approved: true,
        inspected: true,
        ownerID: sampleId(6, 12),
        driver: sampleId(7, 4),
        station: expect.objectContaining({ _id: sampleId(5, 12) }),
        vin: 'JT2BF22K1W0100012',
      }),
    ]);

    const drivers = (await get('/drivers/all?email=driver20@example.com', ADMIN_KEY)).body as Array<
      Record<string, unknown>
    >;
    expect(drivers).toEqual([
      expect.objectContaining({ _id: sampleId(7, 20), walletAccount: 'HA-20', rating: 4.25, approved: true }),
    ]);

    const trips = (await get('/trips/intracity/date?startDate=2024-01-01&endDate=2024-01-01&limit=500', ADMIN_KEY))
      .body as Array<Record<string, unknown>>;
    // Newest first: the day's last trip (one a minute from midnight) leads.
    expect(trips[0]).toMatchObject({
      _id: sampleId(9, 1439),
      ticketNumber: 'TKT-1439',
      estimatedPrice: 25.5,
      paymentMethod: 'momo',
      createdAt: '2024-01-01T23:59:00.000Z',
      service: { type: 'taxi', driver: { walletAccount: 'HA-1439' }, pricing: { pricePerKm: 2.5 } },
    });

    for (const [path, expected] of [
      ['/vehicles/all?count=true&limit=1', SAMPLE_100K.vehicles],
      ['/drivers/all?count=true&limit=1', SAMPLE_100K.drivers],
      ['/vehicles/owner/all?count=true&limit=1', SAMPLE_100K.vehicleowners + 1],
      ['/stations/all?count=true&limit=1', SAMPLE_100K.stations],
      ['/unions/all?count=true&limit=1', SAMPLE_100K.transportunions],
      ['/assembly/regions/all?count=true&limit=1', SAMPLE_100K.regions],
    ] as const) {
      const res = await get(path, ADMIN_KEY);
      expect([path, res.status, Number(res.headers.get('x-total-count'))]).toEqual([path, 200, expected]);
    }
  });

  it('changes nothing when run again, and says so', async () => {
    const before = await fingerprint(url);
    const out = runImport(['--report', report, '--merchant', `${SAMPLE_MERCHANT}=${merchantId}`, folder], url);
    expect(out).toContain('nothing changed');
    expect(await fingerprint(url)).toEqual(before);
  });

  it('completes an import killed half-way when run again, with the same data as one run', async () => {
    const second = `${name}_resumed`;
    const resumed = await migratedDatabase(second);
    try {
      await query(
        resumed,
        `INSERT INTO merchants (id, name, "signingSecret", "updatedAt") VALUES ($1, 'M', 's', now())`,
        [merchantId],
      );
      const args = [IMPORT, '--batch', '200', '--merchant', `${SAMPLE_MERCHANT}=${merchantId}`, folder];
      const child = spawn(process.execPath, args, { env: { PATH: process.env.PATH, DATABASE_URL: resumed } });
      // Killed (no chance to clean up) once some trips, a later collection, are in.
      for (;;) {
        const [{ n }] = await query<{ n: string }>(resumed, 'SELECT count(*) AS n FROM trips');
        if (Number(n) > 0) break;
        if (child.exitCode !== null) throw new Error('the import ended before it could be interrupted');
        await new Promise((r) => setTimeout(r, 50));
      }
      child.kill('SIGKILL');
      await new Promise((r) => child.on('exit', r));
      const [{ n: partial }] = await query<{ n: string }>(resumed, 'SELECT count(*) AS n FROM trips');
      expect(Number(partial)).toBeLessThan(SAMPLE_100K.trips);

      runImport(
        ['--report', join(reports, 'resumed.jsonl'), '--merchant', `${SAMPLE_MERCHANT}=${merchantId}`, folder],
        resumed,
      );
      const one = await fingerprint(url);
      const two = await fingerprint(resumed);
      expect(two).toEqual(one);
    } finally {
      await admin(`DROP DATABASE IF EXISTS ${second} WITH (FORCE)`);
    }
  });

  it('validates without writing in a dry run', async () => {
    const third = `${name}_dry`;
    const dry = await migratedDatabase(third);
    try {
      const out = runImport(['--dry-run', '--report', join(reports, 'dry.jsonl'), folder], dry);
      expect(out).toContain('dry run: nothing written');
      const summary = (
        reportLines(join(reports, 'dry.jsonl')).at(-1) as {
          summary: { collections: Record<string, Record<string, number>> };
        }
      ).summary;
      // References inside the export count (a vehicle's owner is in the export); the merchant is not here. A plate
      // held by another record is found as the import finds it: the dry run writes inside a transaction it rolls back.
      expect(summary.collections.vehicles.imported).toBe(SAMPLE_100K.vehicles);
      expect(summary.collections.vehicles.reasons).toEqual({ VEHICLE_NOT_INSPECTED: 1, DUPLICATE_VALUE: 1 });
      expect(summary.collections.vehicleowners.reasons).toEqual({ INVALID_PHONE: 1 });
      expect(summary.collections.transactions.reasons).toEqual({ REFERENCE_MISSING: SAMPLE_100K.transactions });
      expect((await fingerprint(dry)).trips).toBe(`0:${'d41d8cd98f00b204e9800998ecf8427e'}`);
    } finally {
      await admin(`DROP DATABASE IF EXISTS ${third} WITH (FORCE)`);
    }
  });
});
