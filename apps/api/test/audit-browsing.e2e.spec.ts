import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

interface Entry {
  _id: string;
  entity: string;
  action: string;
  actor: { role: string; id: string };
  at: string;
}

// GET /audit/entries: the whole log, newest first, by actor, kind of actor, kind of record and time range, paged.
describeOnEachTier('browsing the audit log', (tier) => {
  const { fixture: f, http } = appOnTier(tier, { fixture: true });
  let middle: string;
  const asAdmin = (path: string) => http().get(path).set('Authorization', f.keys.admin);

  beforeAll(async () => {
    // Changes by two actors, with an instant between them.
    for (const name of ['Volta', 'Oti'])
      await http()
        .post('/assembly/regions/add')
        .set('Authorization', f.keys.admin)
        .send({ name, country: '65a000000000000000000c01' })
        .expect(201);
    await new Promise((resolve) => setTimeout(resolve, 20));
    middle = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20));
    for (const owner of f.ids.owners.slice(0, 3))
      await http().post(`/vehicles/owner/${owner}/verify`).set('Authorization', f.keys.assembly).expect(200);
  });

  it('pages through every entry newest first with the Link header', async () => {
    const first = await asAdmin('/audit/entries?limit=2').expect(200);
    const entries: Entry[] = first.body;
    expect(entries.map((e) => e.action)).toEqual(['OwnerVerified', 'OwnerVerified']);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.link)?.[1];
    expect(next).toBe(`/audit/entries?limit=2&after=${entries[1]._id}`);
    const second: Entry[] = (await asAdmin(next!).expect(200)).body;
    expect(second[0].action).toBe('OwnerVerified');
    expect(second[1]).toMatchObject({ entity: 'region', action: 'regionCreated', actor: { role: 'admin' } });
    expect(new Set([...entries, ...second].map((e) => e._id)).size).toBe(4);
  });

  it('narrows by actor, kind of actor, kind of record and time range, combined', async () => {
    const byApprover: Entry[] = (await asAdmin(`/audit/entries?actor=${f.ids.assemblyUser}`).expect(200)).body;
    expect(byApprover.map((e) => [e.entity, e.actor.id])).toEqual(Array(3).fill(['owner', f.ids.assemblyUser]));
    const regions: Entry[] = (await asAdmin('/audit/entries?entity=region&actorRole=admin').expect(200)).body;
    expect(regions.map((e) => e.action)).toEqual(['regionCreated', 'regionCreated']);
    const later: Entry[] = (await asAdmin(`/audit/entries?from=${encodeURIComponent(middle)}`).expect(200)).body;
    expect(later).toHaveLength(3);
    expect(later.every((e) => e.at >= middle)).toBe(true);
    const earlier: Entry[] = (
      await asAdmin(`/audit/entries?to=${encodeURIComponent(middle)}&entity=region`).expect(200)
    ).body;
    expect(earlier).toHaveLength(2);
    expect(
      (await asAdmin(`/audit/entries?actorRole=platform&from=${encodeURIComponent(middle)}`).expect(200)).body,
    ).toEqual([]);
  });

  it('refuses malformed filters (400) and every role but admin (403)', async () => {
    for (const query of ['after=abc', 'from=yesterday', 'entity=bogus', 'actorRole=root', 'limit=0', 'actor=a%20b'])
      await asAdmin(`/audit/entries?${query}`).expect(400);
    await http().get('/audit/entries').set('Authorization', f.keys.assembly).expect(403);
    await http().get('/audit/entries').expect(401);
  });
});
