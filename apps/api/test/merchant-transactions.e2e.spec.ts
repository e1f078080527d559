import request from 'supertest';
import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

interface Listed {
  _id: string;
  reference: string;
  status: string;
  createdAt: string;
}

// GET {pay_url}/payment/transactions: a merchant's own transactions, by state and date, paged; nobody else's.
describeOnEachTier("a merchant's transaction list", (tier) => {
  const { running, fixture: f } = appOnTier(tier, { fixture: true });
  const list = (key: string, query = '') =>
    request(running.app.getHttpServer()).get(`/payment/transactions${query}`).set('Authorization', key);

  it('shows a merchant its own transactions only, as check_transaction shows each', async () => {
    const own: Listed[] = (await list(f.keys.merchantA).expect(200)).body;
    expect(own.map((t) => t.reference).sort()).toEqual(['REF-PAID', 'REF-PENDING']);
    const checked = (
      await request(running.app.getHttpServer())
        .get('/payment/check_transaction?reference=REF-PAID')
        .set('Authorization', f.keys.merchantA)
        .expect(200)
    ).body;
    expect(own.find((t) => t.reference === 'REF-PAID')).toEqual(checked);
    const other: Listed[] = (await list(f.keys.merchantB).expect(200)).body;
    expect(other.map((t) => t.reference)).toEqual(['REF-B-ONLY']);
  });

  it('filters by state and by date, and pages with the Link header', async () => {
    expect((await list(f.keys.merchantA, '?status=success').expect(200)).body.map((t: Listed) => t.reference)).toEqual([
      'REF-PAID',
    ]);
    const all: Listed[] = (await list(f.keys.merchantA).expect(200)).body;
    const day = all[0].createdAt.slice(0, 10);
    expect((await list(f.keys.merchantA, `?startDate=${day}&endDate=${day}`).expect(200)).body).toHaveLength(2);
    expect((await list(f.keys.merchantA, '?startDate=2020-01-01&endDate=2020-01-31').expect(200)).body).toEqual([]);
    const first = await list(f.keys.merchantA, '?limit=1').expect(200);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.link)?.[1];
    expect(next).toBe(`/payment/transactions?limit=1&after=${first.body[0]._id}`);
    const second: Listed[] = (await list(f.keys.merchantA, next!.replace('/payment/transactions', '')).expect(200))
      .body;
    expect(second.map((t) => t._id)).not.toContain(first.body[0]._id);
    expect(second).toHaveLength(1);
  });

  it("refuses bad filters (400) and keys that are not a merchant's (403)", async () => {
    for (const query of [
      '?status=paid',
      '?startDate=2026-11-01',
      '?endDate=2026-11-01',
      '?startDate=2026-12-01&endDate=2026-11-01',
      '?limit=501',
      '?after=x',
    ])
      await list(f.keys.merchantA, query).expect(400);
    await list(f.keys.admin).expect(403);
    await list(f.keys.assembly).expect(403);
    await request(running.app.getHttpServer()).get('/payment/transactions').expect(401);
  });
});
