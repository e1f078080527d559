import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

const body = (reference: string, amount: unknown) => ({
  amount,
  description: 'Trip payment',
  reference,
  callBackUrl: 'https://merchant.example.com/payments/callback',
  customerPhone: '0244987654',
  requestType: 'mobile_money',
});

// Issue 44, item 9: money is kept exactly, to the millionth of a cedi (a 1.95% fee of 10.00 is 0.195), and shown with
// every decimal it carries; nothing is rounded on the way in or out (docs/payments.md: amounts).
describeOnEachTier('exact amounts of money', (tier) => {
  const { running, fixture: f, http } = appOnTier(tier, { fixture: true });
  const merchant = (key = f.keys.merchantA) => ({
    get: (path: string) => http().get(path).set('Authorization', key),
    post: (path: string, b: object) => http().post(path).set('Authorization', key).send(b),
  });

  /** A transaction as the importer writes one from the original service: amount and fee with a third decimal. */
  const stored = async (id: string, reference: string, amount: string, fees: string | null) =>
    running.database.prisma.$executeRawUnsafe(
      `INSERT INTO transactions (id, "merchantId", amount, fees, status, "requestType", description, reference,
         "providerReference", "callBackUrl", "customerPhone", "createdAt", "updatedAt")
       VALUES ($1, $2, $3::numeric, $4::numeric, 'success', 'mobile_money', 'Imported', $5, $6,
         'https://merchant.example.com/payments/callback', '+233244987654', now(), now())`,
      id,
      f.ids.merchantA,
      amount,
      fees,
      reference,
      id,
    );

  it('answers an amount and a fee with a third decimal exactly in check_transaction, the list and the CSV export', async () => {
    await stored('ee0000000000000000000001', 'IMPORTED-FEE', '10.125', '0.195');
    const checked = await merchant().get('/payment/check_transaction?reference=IMPORTED-FEE').expect(200);
    // The JSON text itself: numbers with every decimal they carry, no rounding to two.
    expect(checked.text).toContain('"amount":10.125,"fees":0.195,');
    const listed = (await merchant().get('/payment/transactions').expect(200)).body as Record<string, unknown>[];
    expect(listed.find((t) => t.reference === 'IMPORTED-FEE')).toEqual(checked.body);
    const csv = (await merchant().get('/payment/transactions').set('Accept', 'text/csv').expect(200)).text;
    const [header, ...rows] = csv.trim().split('\r\n');
    const columns = header.split(',');
    const row = rows.find((r) => r.includes('IMPORTED-FEE'))!.split(',');
    expect(row[columns.indexOf('amount')]).toBe('10.125');
    expect(row[columns.indexOf('fees')]).toBe('0.195');
  });

  it('answers a transaction whose fee was not kept without one (never a made-up 0)', async () => {
    await stored('ee0000000000000000000002', 'IMPORTED-NO-FEE', '7.5', null);
    const checked = (await merchant().get('/payment/check_transaction?reference=IMPORTED-NO-FEE').expect(200)).body;
    expect(checked.amount).toBe(7.5);
    expect(checked).not.toHaveProperty('fees');
  });

  it('takes a new payment of at most two decimals exactly, and refuses more (400, problem+json), storing nothing', async () => {
    const paid = (await merchant().post('/payment/request', body('EXACT-1', 0.1)).expect(201)).body;
    expect(paid.amount).toBe(0.1);
    const row = await running.database.prisma.$queryRawUnsafe<{ amount: string }[]>(
      'SELECT amount::text AS amount FROM transactions WHERE id = $1',
      paid._id,
    );
    expect(row).toEqual([{ amount: '0.100000' }]);
    for (const amount of [10.125, 0.001, '10.10', 1e-7, -1, 0, 20_000_000.01]) {
      // 1e-7: class-validator's maxDecimalPlaces threw on a number written with an exponent (a 500).
      const refused = await merchant().post('/payment/request', body('EXACT-2', amount)).expect(400);
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(JSON.stringify(refused.body)).toMatch(/amount/);
    }
    expect(await running.database.prisma.transaction.count({ where: { reference: 'EXACT-2' } })).toBe(0);
  });

  it('refuses an amount written with an exponent on the trip routes too (400, not 500)', async () => {
    const trip = 'ee00000000000000000000ff';
    for (const [path, b] of [
      [`/trips/${trip}/refund`, { amount: 1e-7 }],
      [`/trips/${trip}/settle`, { amount: 1e-7, paymentMethod: 'momo' }],
    ] as const) {
      const refused = await http().post(path).set('Authorization', f.keys.admin).send(b).expect(400);
      expect(JSON.stringify(refused.body)).toMatch(/amount must be an amount in cedis/);
    }
  });
  /** A trip as the importer writes one from the original service: a price and a charge (1.95% of 10.00) with a third decimal. */
  const storedTrip = async (id: string, ticket: string) => {
    const prisma = running.database.prisma;
    await prisma.$executeRawUnsafe(
      `INSERT INTO trips (id, "ticketNumber", "estimatedPrice", "estimatedDistance", "finalPrice", charges, discount,
         "settledAmount", settled, "user", "pickupLocation", "serviceDestination", "createdAt", "updatedAt")
       VALUES ($1, $2, 12.345, 8.2, 27, 0.195, 0, 0, false, 'rider-1', '{"type":"Point","coordinates":[-0.187,5.6037]}',
         '{"type":"Point","coordinates":[-0.2,5.61]}', now(), now())`,
      id,
      ticket,
    );
    await prisma.$executeRawUnsafe(
      `INSERT INTO trip_services (id, "tripId", "serviceID", type, driver, vehicle, pricing, passengers, amount, ended)
       VALUES ($1, $2, 'SRV-IMPORTED', 'taxi', '{"id":"65a0000000000000000000d1","name":"Kojo","phone":"+233244555666","email":"kojo@example.com"}',
         '{"id":"65a0000000000000000000e1"}', '{"id":"65a0000000000000000000c1","type":"standard","pricePerKm":2345000,"pricePerMinute":300000}',
         1, 27, true)`,
      `${id.slice(0, 23)}f`,
      id,
    );
  };

  it("answers a trip's price and charge with a third decimal exactly, and settles and refunds it exactly", async () => {
    const id = 'ee0000000000000000000a01';
    await storedTrip(id, 'TKT-EXACT');
    const admin = (path: string) => http().get(path).set('Authorization', f.keys.admin);
    const post = (path: string, b: object) => http().post(path).set('Authorization', f.keys.admin).send(b);
    const read = await admin(`/trips/${id}`).expect(200);
    // The JSON text itself: numbers with every decimal they carry.
    expect(read.text).toContain('"pricePerKm":2.345,"pricePerMinute":0.3}');
    expect(read.text).toContain('"estimatedPrice":12.345,');
    expect(read.body).toMatchObject({
      estimatedPrice: 12.345,
      finalPrice: 27,
      charges: 0.195,
      service: { amount: 27 },
    });
    // What is due has the third decimal: 27 + 0.195. A new amount has at most two decimals, so it cannot be settled
    // through the API (422 says the amount due exactly; 400 for the third decimal), and nothing changes.
    const mismatch = await post(`/trips/${id}/settle`, { amount: 27.2, paymentMethod: 'cash' }).expect(422);
    expect(mismatch.body.detail).toContain('27.195');
    const refused = await post(`/trips/${id}/settle`, { amount: 27.195, paymentMethod: 'cash' }).expect(400);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect((await admin(`/trips/${id}`).expect(200)).body).toEqual(read.body);
    const row = await running.database.prisma.$queryRawUnsafe<Record<string, string>[]>(
      'SELECT "estimatedPrice"::text AS p, charges::text AS c FROM trips WHERE id = $1',
      id,
    );
    expect(row).toEqual([{ p: '12.345000', c: '0.195000' }]);
  });

  it("takes a new trip's prices of at most two decimals exactly, and refuses more (400), storing nothing", async () => {
    for (const [path, b] of [
      ['/trips/ee0000000000000000000a02/end', { finalDistance: 1, durationMinutes: 1, charges: 0.195 }],
      ['/trips/ee0000000000000000000a02/end', { finalDistance: 1, durationMinutes: 1, discount: 1e-7 }],
      ['/trips/ee0000000000000000000a02/refund', { amount: 0.001 }],
    ] as const) {
      const refused = await http().post(path).set('Authorization', f.keys.admin).send(b).expect(400);
      expect(JSON.stringify(refused.body)).toMatch(/must be an amount in cedis/);
    }
  });
});
