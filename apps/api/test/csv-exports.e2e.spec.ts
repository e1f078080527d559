import { parse } from 'csv-parse/sync';
import { INSPECTION_ITEMS } from '@transport/domain';
import request from 'supertest';
import { TRIP_CSV } from '../src/trips/trips.dto';
import { DRIVER_CSV } from '../src/drivers/drivers.dto';
import { TRANSACTION_CSV } from '../src/payments/payments.dto';
import { COMPLIANCE_CSV, VEHICLE_CSV } from '../src/vehicles/vehicle-responses.dto';
import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

type Row = Record<string, string>;
type Json = Record<string, unknown>;

/** The value at a dotted path of a JSON record; through a list, the first element that has it. */
function valueAt(record: unknown, path: string): unknown {
  let values: unknown[] = [record];
  for (const key of path.split('.')) {
    values = values
      .flatMap((v) => (Array.isArray(v) ? v : [v]))
      .map((v) => (v !== null && typeof v === 'object' ? (v as Json)[key] : undefined))
      .filter((v) => v !== undefined && v !== null);
  }
  return values[0];
}

// Accept: text/csv on the lists people take to spreadsheets: the whole filtered list, streamed, in the caller's view.
describeOnEachTier('CSV exports', (tier) => {
  const { running, fixture: f, http } = appOnTier(tier, { fixture: true });

  /** A CSV download: checks the headers every export sends, and parses it with a CSV library. */
  async function csv(path: string, key?: string): Promise<Row[]> {
    const req = http().get(path).set('Accept', 'text/csv');
    const res: request.Response = await (key ? req.set('Authorization', key) : req).buffer(true).parse((r, done) => {
      let text = '';
      r.setEncoding('utf8');
      r.on('data', (chunk: string) => (text += chunk));
      r.on('end', () => done(null, text));
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="[a-z]+\.csv"$/);
    return parse(res.body as string, { columns: true }) as Row[];
  }

  /** Every record of a JSON list, page by page (500 at a time, following the Link header). */
  async function allPages(path: string, key: string): Promise<Array<{ _id: string }>> {
    const out = [];
    let next: string | undefined = `${path}${path.includes('?') ? '&' : '?'}limit=500`;
    while (next) {
      const res: request.Response = await http().get(next).set('Authorization', key).expect(200);
      out.push(...(Array.isArray(res.body) ? res.body : res.body.payload));
      next = /<([^>]+)>; rel="next"/.exec(res.headers.link ?? '')?.[1];
    }
    return out;
  }

  it('exports every trip of the range, in the JSON order, with the documented columns', async () => {
    const path = '/trips/intracity/date?startDate=2026-06-01&endDate=2027-05-31';
    const rows = await csv(`${path}&limit=1`, f.keys.admin); // limit does not apply to an export
    const json = await allPages(path, f.keys.admin);
    expect(json.length).toBeGreaterThan(1);
    expect(rows.map((r) => r._id)).toEqual(json.map((t) => t._id));
    expect(Object.keys(rows[0])).toEqual([...TRIP_CSV.columns]);
    expect(rows[0]['service.type']).toBeTruthy();
    // An assembly key exports its own assembly's trips only, as its JSON list shows them.
    const own = await csv(path, f.keys.otherAssembly);
    expect(own.map((r) => r._id)).toEqual((await allPages(path, f.keys.otherAssembly)).map((t) => t._id));
  });

  it("exports vehicles and drivers in the caller's view: public rows carry no owner, contact or document", async () => {
    // A merchant sees the public's view; an export of a whole list needs a key (below).
    const publicVehicles = await csv('/vehicles/all', f.keys.merchantA);
    const adminVehicles = await csv('/vehicles/all', f.keys.admin);
    expect(publicVehicles).toHaveLength(adminVehicles.length);
    expect(adminVehicles.length).toBeGreaterThanOrEqual(60);
    expect(adminVehicles.every((r) => /^[0-9a-f]{24}$/.test(r.ownerID))).toBe(true);
    expect(publicVehicles.every((r) => r.ownerID === '' && r.vin === '')).toBe(true);
    expect(publicVehicles.every((r) => r.registrationNumber !== '')).toBe(true);

    const publicDrivers = await csv('/drivers/all', f.keys.merchantA);
    const adminDrivers = await csv('/drivers/all', f.keys.admin);
    expect(adminDrivers.map((r) => r._id)).toEqual(publicDrivers.map((r) => r._id));
    // Phones start with "+", so they carry the quote that keeps a spreadsheet from reading a formula (or a number).
    expect(
      adminDrivers.filter((r) => !(r.phone.startsWith("'+233") && r.idNumber !== '')).map((r) => [r.phone, r.idNumber]),
    ).toEqual([]);
    expect(publicDrivers.every((r) => r.phone === '' && r.idNumber === '' && r.email === '')).toBe(true);
    // Filters apply to exports as to pages.
    const approved = await csv('/drivers/all?approved=true', f.keys.admin);
    expect(approved.every((r) => r.approved === 'true')).toBe(true);
    expect(approved.length).toBeLessThan(adminDrivers.length);
  });

  it('exports the compliance list with the reasons, and a merchant its own transactions only', async () => {
    const compliance = await csv('/vehicles/compliance?within=366', f.keys.admin);
    const json = await allPages('/vehicles/compliance?within=366', f.keys.admin);
    expect(compliance.map((r) => r['vehicle._id'])).toEqual(
      json.map((e) => (e as unknown as { vehicle: { _id: string } }).vehicle._id),
    );
    expect(compliance.every((r) => /^[A-Z_]+(; [A-Z_]+)*$/.test(r['reasons.code']))).toBe(true);

    const transactions = await csv('/payment/transactions', f.keys.merchantA);
    expect(transactions.map((r) => r.reference).sort()).toEqual(['REF-PAID', 'REF-PENDING']);
    expect(transactions.find((r) => r.reference === 'REF-PAID')).toMatchObject({ status: 'success', amount: '25.5' });
  });

  it('exports a whole list only to a caller with an API key: without one, 401 before any download starts', async () => {
    for (const path of ['/vehicles/all', '/drivers/all', '/drivers/all?approved=true']) {
      const res = await http().get(path).set('Accept', 'text/csv').expect(401);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.detail).toMatch(/CSV export .* needs an API key/);
      // The page itself stays open to passengers.
      await http().get(path).expect(200);
    }
  });

  it('reads every column of every export back: each names a field its records have, filled as the JSON shows it', async () => {
    // One vehicle with the optional fields the fixture leaves out, so every vehicle column has a value to read back: a
    // make year and a VIN, a roadworthy certificate ending soon (on the compliance list), and a failed inspection item.
    const full = await http()
      .post('/vehicles/add')
      .set('Authorization', f.keys.admin)
      .send({
        ownerID: f.ids.owners[0],
        registrationNumber: 'GX 2-26',
        make: 'Toyota',
        makeYear: '2019-01-01',
        vin: '1HGCM82633A004352',
        roadWorthyExpiryDate: new Date(Date.now() + 10 * 86_400_000).toISOString(),
      });
    expect([full.status, full.body.detail]).toEqual([201, undefined]);
    const checklist = Object.fromEntries(INSPECTION_ITEMS.map((item) => [item, item !== 'brakes']));
    await running.database.prisma.vehicle.update({
      where: { id: full.body._id },
      data: {
        inspected: true,
        inspectionChecklist: checklist,
        inspectedBy: f.ids.assemblyUser,
        dateInspected: new Date(),
      },
    });
    // The widest view of each list (an admin's; a merchant's own transactions), so no column is empty by the view.
    const exports = [
      ['/vehicles/all', f.keys.admin, VEHICLE_CSV],
      ['/drivers/all', f.keys.admin, DRIVER_CSV],
      ['/vehicles/compliance?within=366', f.keys.admin, COMPLIANCE_CSV],
      ['/trips/intracity/date?startDate=2026-06-01&endDate=2027-05-31', f.keys.admin, TRIP_CSV],
      ['/payment/transactions', f.keys.merchantA, TRANSACTION_CSV],
    ] as const;
    for (const [path, key, spec] of exports) {
      const rows = await csv(path, key);
      const json = (await allPages(path, key)) as unknown as Json[];
      expect({ path, rows: rows.length }).toEqual({ path, rows: json.length });
      expect(Object.keys(rows[0])).toEqual([...spec.columns]);
      // A column names a field the records have, and where the JSON has a value the file has one too.
      const absent = spec.columns.filter((column) => !json.some((r) => valueAt(r, column) !== undefined));
      const lost = spec.columns.filter(
        (column) =>
          json.some((r) => ![undefined, ''].includes(valueAt(r, column) as string)) &&
          rows.every((r) => r[column] === ''),
      );
      expect({ path, absent, lost }).toEqual({ path, absent: [], lost: [] });
    }
  });

  it('keeps a spreadsheet from running a cell as a formula', async () => {
    const owner = f.ids.owners[0];
    const added = await http()
      .post('/vehicles/add')
      .set('Authorization', f.keys.admin)
      .send({ ownerID: owner, registrationNumber: 'GX 1-26', make: '@SUM(1+1)' });
    expect([added.status, added.body.detail]).toEqual([201, undefined]);
    const rows = await csv('/vehicles/all?registrationNumber=GX%201-26', f.keys.admin);
    // The domain's text rules already refuse "=" in a make; "@", "+" and "-" are allowed, and a cell starting with
    // one is exactly what a spreadsheet would evaluate.
    expect(rows.map((r) => r.make)).toEqual([`'@SUM(1+1)`]);
  });

  it('answers JSON unless CSV is preferred, and refuses a bad filter before any download starts', async () => {
    const json = await http()
      .get('/vehicles/all?limit=1')
      .set('Accept', 'application/json, text/csv;q=0.5')
      .expect(200);
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    const bad = await http().get('/vehicles/all?inspected=maybe').set('Accept', 'text/csv').expect(400);
    expect(bad.headers['content-type']).toMatch(/^application\/problem\+json/);
    await http()
      .get('/trips/intracity/date?startDate=2026-06-01&endDate=2027-05-31')
      .set('Accept', 'text/csv')
      .expect(401);
  });
});
