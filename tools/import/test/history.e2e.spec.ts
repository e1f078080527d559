import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SAMPLE_MERCHANT } from '../src/sample';
import {
  CARD,
  ID,
  NOT_ON_OLD_CHECKLIST,
  OLD_CHECKLIST,
  PHONES,
  PLATE,
  RETRIED_REFERENCE,
  SIZES,
  UNKEPT_FEE,
  writeHistoryExport,
} from './fixtures/history';
import { admin, fingerprint, migratedDatabase, query, reportLines, runImport, spawnImport } from './support';

// Issue 44: an export as the original's operators make it, whose values the original kept (dates typed day first,
// records exported twice, soft-deleted records, values Mongoose cast on save, references to deleted records). Each
// must be imported with the value the original meant, or reported; none stored wrong in silence.
interface Summary {
  collections: Record<
    string,
    { read: number; imported: number; replaced: number; skipped: number; reasons: Record<string, number> }
  >;
}
const summaryOf = (report: string) => (reportLines(report).at(-1) as { summary: Summary }).summary;

describe('importing the values the original kept', () => {
  const name = `import_history_${process.pid}`;
  const folder = mkdtempSync(join(tmpdir(), 'transport-history-export-'));
  const work = mkdtempSync(join(tmpdir(), 'transport-history-work-'));
  const merchant = 'abc000000000000000000002';
  const report = join(work, 'import.jsonl');
  let url: string;
  let lines: Record<string, unknown>[];

  const args = (...more: string[]) => ['--merchant', `${SAMPLE_MERCHANT}=${merchant}`, '--batch', '3', ...more, folder];
  const one = async (sql: string, id: string) => (await query<Record<string, unknown>>(url, sql, [id]))[0];

  beforeAll(async () => {
    url = await migratedDatabase(name);
    await query(url, `INSERT INTO merchants (id, name, "signingSecret", "updatedAt") VALUES ($1, 'M', 's', now())`, [
      merchant,
    ]);
    await writeHistoryExport(folder);
    runImport(args('--report', report), url);
    lines = reportLines(report);
  });

  afterAll(async () => {
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    rmSync(folder, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  it('reads dates written with slashes day first, and reports each with the date stored', async () => {
    expect(
      await one('SELECT "roadWorthyExpiryDate", "insuranceExpiryDate" FROM vehicles WHERE id = $1', ID.dayFirst),
    ).toEqual({
      roadWorthyExpiryDate: new Date('2027-03-05T00:00:00Z'),
      insuranceExpiryDate: new Date('2026-12-31T00:00:00Z'),
    });
    expect(lines).toContainEqual(
      expect.objectContaining({
        collection: 'vehicles',
        id: ID.dayFirst,
        field: 'roadWorthyExpiryDate',
        dateRead: '05/03/2027',
        stored: '2027-03-05T00:00:00.000Z',
        dateOrder: 'dmy',
      }),
    );
  });

  it('reads them month first with --date-order mdy, refusing a date impossible that way and saying why', () => {
    const mdy = join(work, 'mdy.jsonl');
    runImport(args('--dry-run', '--date-order', 'mdy', '--report', mdy), url);
    expect(reportLines(mdy)).toContainEqual(
      expect.objectContaining({
        id: ID.dayFirst,
        code: 'INVALID_FIELD',
        reason: expect.stringContaining(
          '"31/12/2026" is not a date month first; day first it would be 31 December 2026',
        ),
      }),
    );
    const wrong = spawnImport(args('--dry-run', '--date-order', 'ymd', '--report', mdy), { DATABASE_URL: url });
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toContain('--date-order ymd: expected dmy');
  });

  it('keeps the newer copy of a record exported twice, and reports the other', async () => {
    for (const id of [ID.twiceNewerLast, ID.twiceNewerFirst])
      expect([id, await one('SELECT phone FROM vehicle_owners WHERE id = $1', id)]).toEqual([
        id,
        { phone: `+233${PHONES.new.slice(1)}` },
      ]);
    const superseded = lines.filter((l) => l.code === 'SUPERSEDED');
    expect(superseded.map((l) => l.id).sort()).toEqual([ID.twiceNewerFirst, ID.twiceNewerLast].sort());
    expect(superseded.find((l) => l.id === ID.twiceNewerLast)?.reason).toMatch(/updatedAt 2024-02-01.*2024-05-01/);
    // With --batch 3 the first pair's copies fall in two batches (the older is written, then replaced), the second
    // pair's in one (the older never written): each record counted once, each older copy listed.
    const owners = summaryOf(report).collections.vehicleowners;
    // (The fifth to seventh extra owners are other classes': a card number, a name and a phone as people wrote them,
    // no e-mail.)
    expect(owners).toMatchObject({ read: SIZES.vehicleowners + 7, imported: SIZES.vehicleowners + 5, replaced: 1 });
    expect(owners.reasons).toEqual({ SUPERSEDED: 1 });
  });

  it('keeps every attempt of a payment retried under one reference', async () => {
    const attempts = await query<{ id: string; status: string }>(
      url,
      'SELECT id, status FROM transactions WHERE reference = $1 ORDER BY "createdAt"',
      [RETRIED_REFERENCE],
    );
    expect(attempts).toEqual([
      { id: ID.failedAttempt, status: 'failed' },
      { id: ID.retry, status: 'success' },
    ]);
    // (The third to fifth extra transactions are money's: two imported, one refused.)
    expect(summaryOf(report).collections.transactions).toMatchObject({
      imported: SIZES.transactions + 4,
      skipped: 0,
      refused: 1,
      reasons: { INVALID_FIELD: 1 },
    });
  });

  it('keeps money with a third decimal exactly (a 1.95% fee of 10.00), and a fee it cannot keep is dropped and named', async () => {
    const money = 'SELECT amount::text AS amount, fees::text AS fees FROM transactions WHERE id = $1';
    expect(await one(money, ID.feeThirdDecimal)).toEqual({ amount: '10.000000', fees: '0.195000' });
    // 1.95% of 10.125 has seven decimals: the payment is kept without its fee (not with a rounded one), and listed.
    expect(await one(money, ID.amountThirdDecimal)).toEqual({ amount: '10.125000', fees: null });
    expect(lines).toContainEqual(
      expect.objectContaining({
        collection: 'transactions',
        id: ID.amountThirdDecimal,
        without: 'fees',
        value: UNKEPT_FEE,
        reason: expect.stringContaining('at most 6 decimals'),
      }),
    );
    // An amount is required: one that is not a number refuses the record, naming the value read.
    expect(await one('SELECT id FROM transactions WHERE id = $1', ID.amountNotANumber)).toBeUndefined();
    expect(lines).toContainEqual(
      expect.objectContaining({ id: ID.amountNotANumber, field: 'amount', value: 'ten cedis' }),
    );
  });

  it('keeps a trip’s money with a third decimal exactly, drops an optional amount it cannot keep and names it', async () => {
    const money =
      'SELECT t."estimatedPrice"::text AS "estimatedPrice", t.charges::text AS charges, t."settledAmount"::text AS ' +
      '"settledAmount", t."cashPrice"::text AS "cashPrice", s.amount::text AS amount FROM trips t ' +
      'JOIN trip_services s ON s."tripId" = t.id WHERE t.id = $1';
    expect(await one(money, ID.tripThirdDecimal)).toEqual({
      estimatedPrice: '12.345000',
      charges: '0.195000',
      settledAmount: '27.195000',
      cashPrice: '0.000000',
      amount: '12.345000',
    });
    // A cash price of seven decimals: the trip is kept without it (not with a rounded one), and listed.
    expect(await one(money, ID.tripUnkeptCash)).toMatchObject({ cashPrice: null });
    expect(lines).toContainEqual(
      expect.objectContaining({
        collection: 'trips',
        id: ID.tripUnkeptCash,
        without: 'cashPrice',
        value: UNKEPT_FEE,
        reason: expect.stringContaining('at most 6 decimals'),
      }),
    );
    // The estimated price is required: one that cannot be kept refuses the trip, naming the value read.
    expect(await one('SELECT id FROM trips WHERE id = $1', ID.tripUnkeptPrice)).toBeUndefined();
    expect(lines).toContainEqual(
      expect.objectContaining({ id: ID.tripUnkeptPrice, field: 'estimatedPrice', value: UNKEPT_FEE }),
    );
    expect(summaryOf(report).collections.trips).toMatchObject({ imported: SIZES.trips + 2, refused: 1 });
  });

  it('skips a soft-deleted record, listing it, and imports the live one that took its plate', async () => {
    expect(await one('SELECT id FROM vehicles WHERE "registrationNumber" = $1', PLATE)).toEqual({
      id: ID.reRegistered,
    });
    expect(await one('SELECT id FROM vehicles WHERE id = $1', ID.deleted)).toBeUndefined();
    expect(lines).toContainEqual(
      expect.objectContaining({
        collection: 'vehicles',
        id: ID.deleted,
        code: 'DELETED',
        reason: expect.stringContaining('2024-04-01T08:00:00.000Z'),
      }),
    );
  });

  it('casts what Mongoose cast on save, and lists each cast', async () => {
    expect(
      await one(
        `SELECT capacity, "grossWeight", "netWeight", "fuelCapacity", inspected, approved, "makeYear",
                "yearOfRegistration", vin FROM vehicles WHERE id = $1`,
        ID.cast,
      ),
    ).toEqual({
      capacity: 14,
      grossWeight: 3500,
      netWeight: null,
      fuelCapacity: null,
      inspected: false,
      approved: false,
      makeYear: new Date('2015-01-01T00:00:00Z'),
      yearOfRegistration: new Date('2016-01-01T00:00:00Z'),
      vin: null,
    });
    expect(await one('SELECT "grossWeight" FROM vehicles WHERE id = $1', ID.bareNaN)).toEqual({ grossWeight: null });
    expect(lines).toContainEqual({
      collection: 'vehicles',
      field: 'capacity',
      cast: '"14"',
      to: '14',
      records: 1,
      example: ID.cast,
    });
    expect(lines).toContainEqual(expect.objectContaining({ field: 'netWeight', cast: 'NaN', to: 'absent' }));
    expect(lines).toContainEqual(
      expect.objectContaining({ field: 'makeYear', cast: '2015', to: '"2015-01-01T00:00:00.000Z"' }),
    );
  });

  it('imports a record whose optional reference names a deleted record unlinked, and lists it', async () => {
    expect(await one('SELECT "ownerId" FROM drivers WHERE id = $1', ID.orphan)).toEqual({ ownerId: null });
    expect(lines).toContainEqual(
      expect.objectContaining({ collection: 'drivers', id: ID.orphan, unlinked: 'ownerID', reference: ID.goneOwner }),
    );
  });

  it('keeps a driver whose licence was renewed after the record was made', async () => {
    expect(await one('SELECT "licenseIssueDate" FROM drivers WHERE id = $1', ID.renewed)).toEqual({
      licenseIssueDate: new Date('2025-06-01T00:00:00Z'),
    });
  });

  it('keeps names and phone numbers as people wrote them, in the form the rules read, listing each change', async () => {
    expect(await one('SELECT name, phone FROM vehicle_owners WHERE id = $1', ID.typedOwner)).toEqual({
      name: "Kwame 'Papa' Mensah",
      phone: '+233244123456',
    });
    expect(await one('SELECT name, phone FROM drivers WHERE id = $1', ID.typedDriver)).toEqual({
      name: "Ama 'Serwaa'",
      phone: '+233244123457',
    });
    // The second number and the emoji cannot be kept: the report shows what was read beside what was stored.
    expect(lines).toContainEqual(
      expect.objectContaining({
        collection: 'drivers',
        field: 'phone',
        cast: '"0244123457 / 020 555 5555"',
        to: '"+233244123457"',
      }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ collection: 'vehicleowners', field: 'name', cast: '"Kwame “Papa” Mensah 🙏"' }),
    );
  });

  it('reads the field names of older schema versions through the field map, and lists each rename', async () => {
    const driver = await one(
      'SELECT "licenseClass", license, "licenseExpiry" FROM drivers WHERE id = $1',
      ID.oldFields,
    );
    expect(driver).toMatchObject({
      licenseClass: expect.stringMatching(/^[BC]$/),
      license: expect.stringMatching(/^DL-/),
    });
    expect(lines).toContainEqual({
      collection: 'drivers',
      renamedField: 'licenceClass',
      to: 'licenseClass',
      records: 1,
    });
    expect(lines).not.toContainEqual(expect.objectContaining({ collection: 'drivers', unknownField: 'licence' }));
  });

  it('takes the operator’s renames from the mapping file’s fields section, refusing one to a field not read', () => {
    const good = join(work, 'fields.yaml');
    writeFileSync(good, 'fields:\n  vehicles.plate: registrationNumber\ndrivers.gender:\n  Fmale: female\n');
    const out = runImport(args('--dry-run', '--map', good, '--report', join(work, 'fields.jsonl')), url);
    expect(out).toContain('dry run: nothing written');
    const bad = join(work, 'bad-fields.yaml');
    writeFileSync(bad, 'fields:\n  vehicles.plate: numberPlate\n');
    const refused = spawnImport(args('--dry-run', '--map', bad, '--report', join(work, 'bad.jsonl')), {
      DATABASE_URL: url,
    });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(
      '"vehicles.plate" -> "numberPlate": the name here must be a field the import reads',
    );
  });

  it("keeps a driver awaiting activation with an activated driver's e-mail, and refuses a second activated one", async () => {
    expect(await one('SELECT email, verified FROM drivers WHERE id = $1', ID.emailTwicePending)).toEqual({
      email: 'driver0@example.com',
      verified: false,
    });
    expect(await one('SELECT id FROM drivers WHERE id = $1', ID.emailTwiceActivated)).toBeUndefined();
    expect(lines).toContainEqual(
      expect.objectContaining({
        collection: 'drivers',
        id: ID.emailTwiceActivated,
        code: 'DUPLICATE_VALUE',
        reason: expect.stringContaining(`held by ${ID.emailHolder}`),
      }),
    );
  });

  it('keeps one record per plate and card number in their canonical form, naming both records of a clash', async () => {
    expect(await one('SELECT id FROM vehicles WHERE id = $1', ID.plateTwice)).toBeUndefined();
    expect(lines).toContainEqual(
      expect.objectContaining({
        collection: 'vehicles',
        id: ID.plateTwice,
        code: 'DUPLICATE_VALUE',
        reason: expect.stringContaining(`held by ${ID.plateFirst}`),
      }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({
        collection: 'vehicles',
        field: 'registrationNumber',
        cast: '"gr-1003-24"',
        to: '"GR 1003-24"',
      }),
    );
    expect(await one('SELECT "idNumber" FROM vehicle_owners WHERE id = $1', ID.cardSpelled)).toEqual({
      idNumber: CARD,
    });
  });

  it('keeps an owner registered by phone only without an e-mail, and lists it', async () => {
    expect(await one('SELECT phone, email FROM vehicle_owners WHERE id = $1', ID.noEmail)).toEqual({
      phone: expect.stringMatching(/^\+233/),
      email: null,
    });
    expect(lines).toContainEqual(
      expect.objectContaining({
        collection: 'vehicleowners',
        id: ID.noEmail,
        without: 'email',
        reason: 'no email in the original: imported without it (a new owner still needs one)',
      }),
    );
  });

  it('keeps a checklist of an older version with its missing items not recorded, and an approval as it was', async () => {
    for (const [id, approved] of [
      [ID.shortChecklist, false],
      [ID.shortChecklistApproved, true],
    ] as const) {
      expect(await one('SELECT inspected, approved, "inspectionChecklist" FROM vehicles WHERE id = $1', id)).toEqual({
        inspected: true,
        approved,
        inspectionChecklist: OLD_CHECKLIST,
      });
      expect(lines).toContainEqual(
        expect.objectContaining({
          collection: 'vehicles',
          id,
          without: NOT_ON_OLD_CHECKLIST.map((item) => `inspectionChecklist.${item}`).join(', '),
          reason: expect.stringContaining(approved ? 'kept approved as the original had it' : 'never a pass'),
        }),
      );
    }
  });

  it('changes nothing when run again', async () => {
    const before = await fingerprint(url);
    const out = runImport(args('--report', join(work, 'again.jsonl')), url);
    expect(out).toContain('nothing changed');
    expect(await fingerprint(url)).toEqual(before);
  });
});
