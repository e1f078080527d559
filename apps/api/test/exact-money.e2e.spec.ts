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
});
