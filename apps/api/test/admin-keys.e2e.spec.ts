import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

describeOnEachTier('the list of API keys', (tier) => {
  const { running, fixture: f, http } = appOnTier(tier, { fixture: true });
  const asAdmin = (path: string) => http().get(path).set('Authorization', f.keys.admin);

  beforeAll(async () => {
    for (const label of ['till 1', 'till 2', 'till 3']) {
      await http()
        .post('/admin/keys')
        .set('Authorization', f.keys.admin)
        .send({ role: 'platform', principal: f.ids.merchantA, label })
        .expect(201);
    }
  });

  it('is paged newest first with a Link to the next page, like every other list', async () => {
    const total = await running.database.prisma.apiKey.count();
    expect(total).toBeGreaterThan(4);
    const first = await asAdmin('/admin/keys?limit=4&count=true').expect(200);
    expect(first.body).toHaveLength(4);
    expect(first.headers['x-total-count']).toBe(String(total));
    expect(first.body.slice(0, 3).map((k: { label: string }) => k.label)).toEqual(['till 3', 'till 2', 'till 1']);
    const link = /^<([^>]+)>; rel="next"$/.exec(first.headers.link as string)?.[1];
    expect(link).toBe(`/admin/keys?limit=4&count=true&after=${first.body[3]._id}`);

    const seen: string[] = first.body.map((k: { _id: string }) => k._id);
    let next: string | undefined = link;
    while (next) {
      const page = await asAdmin(next).expect(200);
      seen.push(...page.body.map((k: { _id: string }) => k._id));
      next = /^<([^>]+)>; rel="next"$/.exec((page.headers.link as string | undefined) ?? '')?.[1];
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    // Without a limit, a page of the default size (every key here).
    expect((await asAdmin('/admin/keys').expect(200)).body).toHaveLength(total);
  });

  it('refuses a bad page request with a 400 problem', async () => {
    for (const query of ['limit=0', 'limit=501', 'after=not-an-id']) {
      const res = await asAdmin(`/admin/keys?${query}`).expect(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
    }
    await http().get('/admin/keys?limit=2').set('Authorization', f.keys.assembly).expect(403);
  });
});
