import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

/**
 * The reports the public makes over USSD, listed for the assembly whose vehicle each is about (GET /vehicle-reports):
 * staff read their own assembly's, the national admin every one, nobody the caller's number.
 */
describeOnEachTier('Vehicle reports for assembly staff', (tier) => {
  const { fixture: f, http } = appOnTier(tier, { fixture: true });
  let session = 0;

  /** A report over USSD from loopback (the demo's way in: no Hubtel credentials configured). */
  const report = async (plate: string, reason: string, mobile: string) => {
    const id = `r${tier}${++session}`;
    let state = '';
    let sequence = 0;
    const step = async (type: string, message: string) => {
      const res = await http()
        .post('/ussd/hubtel')
        .send({
          Type: type,
          Message: message,
          ServiceCode: '713*42',
          Operator: 'vodafone',
          ClientState: state,
          Mobile: mobile,
          SessionId: id,
          Sequence: String(++sequence),
        })
        .expect(200);
      state = res.body.ClientState;
      return res.body as { Message: string; Type: string };
    };
    await step('initiation', '*713*42#');
    await step('response', '4');
    await step('response', plate);
    const done = await step('response', reason);
    expect(done.Message).toMatch(/^Thank you/);
  };

  const list = (key: string | undefined, query = '') => {
    const req = http().get(`/vehicle-reports${query}`);
    return key === undefined ? req : req.set('Authorization', key);
  };

  beforeAll(async () => {
    await report('gr 1001 24', '1', '233244100001');
    await report('GX 9999-99', '5', '233244100002');
    await report('GR1001-24', '3', '233244100003');
  });

  it("lists every report for the national admin, newest first, the unknown plate's included, no caller's number", async () => {
    const res = await list(f.keys.admin).expect(200);
    expect(res.body.map((r: { plate: string; reason: string }) => [r.plate, r.reason])).toEqual([
      ['GR 1001-24', 'dangerous_driving'],
      ['GX 9999-99', 'other'],
      ['GR 1001-24', 'no_sticker'],
    ]);
    expect(res.body[1]).toMatchObject({ vehicle: null, assembly: null, channel: 'ussd' });
    expect(res.body[0]).toMatchObject({ assembly: f.ids.assembly, vehicle: expect.stringMatching(/^[0-9a-f]{24}$/) });
    expect(Object.keys(res.body[0]).sort()).toEqual([
      '_id',
      'assembly',
      'channel',
      'createdAt',
      'plate',
      'reason',
      'vehicle',
    ]);
    expect(JSON.stringify(res.body)).not.toMatch(/23324410000/);
  });

  it("shows assembly staff their own assembly's reports only, and refuses another assembly's", async () => {
    const own = await list(f.keys.assembly).expect(200);
    expect(own.body).toHaveLength(2);
    expect(own.body.every((r: { assembly: string }) => r.assembly === f.ids.assembly)).toBe(true);
    expect((await list(f.keys.otherAssembly).expect(200)).body).toEqual([]);
    const refused = await list(f.keys.otherAssembly, `?assembly=${f.ids.assembly}`).expect(403);
    expect(refused.body).toMatchObject({ code: 'FORBIDDEN', status: 403 });
  });

  it('narrows by reason, vehicle and time, and pages with a Link header', async () => {
    const [newest] = (await list(f.keys.admin).expect(200)).body as Array<{ _id: string; vehicle: string }>;
    expect((await list(f.keys.assembly, '?reason=no_sticker').expect(200)).body).toHaveLength(1);
    expect((await list(f.keys.admin, `?vehicle=${newest.vehicle}`).expect(200)).body).toHaveLength(2);
    expect((await list(f.keys.admin, '?from=2099-01-01T00:00:00Z').expect(200)).body).toEqual([]);
    const first = await list(f.keys.admin, '?limit=2&count=true').expect(200);
    expect(first.body).toHaveLength(2);
    expect(first.headers['x-total-count']).toBe('3');
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.link)?.[1];
    expect(next).toContain(`after=${first.body[1]._id}`);
    const second = await http().get(next!).set('Authorization', f.keys.admin).expect(200);
    expect(second.body.map((r: { plate: string }) => r.plate)).toEqual(['GR 1001-24']);
  });

  it('refuses anonymous callers, other roles and bad filters in the problem shape', async () => {
    expect((await list(undefined).expect(401)).body).toMatchObject({ status: 401 });
    expect((await list(f.keys.merchantA).expect(403)).body).toMatchObject({ status: 403 });
    for (const query of ['?reason=speeding', '?assembly=nope', '?from=yesterday', '?limit=0', '?after=x']) {
      const res = await list(f.keys.admin, query).expect(400);
      expect(res.body).toMatchObject({ status: 400, code: expect.any(String), detail: expect.any(String) });
    }
  });
});
