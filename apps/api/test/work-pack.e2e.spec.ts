import type request from 'supertest';
import { allPassed } from '@transport/domain/testing';
import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

// Issue 43, item 8: an inspector without a signal could not open a vehicle they had not opened before. The phone keeps
// a work pack of the inspector's assembly, read from GET /vehicles/work-pack: their assembly's vehicles only, to
// inspectors only, paged, and cheap to refresh (an unchanged page answers 304 to its ETag).

interface PackVehicle {
  _id: string;
  __v: number;
  registrationNumber?: string;
  make?: string;
  model?: string;
  color?: string;
  type?: string;
  state: string;
  failed?: string[];
}

describeOnEachTier("an inspector's work pack", (tier) => {
  const { http, fixture: f } = appOnTier(tier, { fixture: true });
  // The fixture's other assembly (Tema) has an inspector (keys.otherAssembly); its first assembly (Accra) an approver.
  const pack = (key: string | undefined, query = '') => {
    const req = http().get(`/vehicles/work-pack${query}`);
    return key ? req.set('Authorization', key) : req;
  };
  const tema: string[] = [];

  beforeAll(async () => {
    for (const [plate, make] of [
      ['AS 6001-26', 'Nissan'],
      ['AS 6002-26', 'Toyota'],
      ['AS 6003-26', 'Kia'],
    ])
      tema.push(
        (
          await http()
            .post('/vehicles/add')
            .set('Authorization', f.keys.admin)
            .send({
              ownerID: f.ids.owners[0],
              assembly: f.ids.otherAssembly,
              registrationNumber: plate,
              make,
              model: 'Urvan',
              color: '#FFFFFF',
              type: 'bus',
              capacity: 15,
            })
            .expect(201)
        ).body._id,
      );
  });

  it("answers the inspector's own assembly's vehicles, each with what an inspection needs, and nothing of another assembly", async () => {
    const res = await pack(f.keys.otherAssembly).expect(200);
    const body = res.body as PackVehicle[];
    expect(body.map((v) => v._id)).toEqual(tema);
    expect(body[0]).toEqual({
      _id: tema[0],
      __v: 0,
      registrationNumber: 'AS 6001-26',
      make: 'Nissan',
      model: 'Urvan',
      color: '#FFFFFF',
      type: 'bus',
      state: 'awaiting_inspection',
    });
    // Accra's vehicles (the fixture's) are not in Tema's pack.
    const accra = (await http().get('/vehicles/all?limit=500').set('Authorization', f.keys.admin)).body as Array<{
      _id: string;
      assembly?: string;
    }>;
    const accraIds = accra.filter((v) => v.assembly === f.ids.assembly).map((v) => v._id);
    expect(accraIds.length).toBeGreaterThan(0);
    expect(body.filter((v) => accraIds.includes(v._id))).toEqual([]);
    expect(res.headers['cache-control']).toContain('no-store');
  });

  it('refuses an approver (403 DUTY_NOT_ALLOWED), an admin key (403) and an anonymous caller (401)', async () => {
    expect((await pack(f.keys.assembly).expect(403)).body.code).toBe('DUTY_NOT_ALLOWED');
    await pack(f.keys.admin).expect(403);
    await pack(f.keys.merchantA).expect(403);
    expect((await pack(undefined).expect(401)).headers['content-type']).toContain('application/problem+json');
  });

  it('pages with a Link header, oldest first, and every page together is the whole pack', async () => {
    const seen: string[] = [];
    let next: string | undefined = '/vehicles/work-pack?limit=2';
    let pages = 0;
    while (next) {
      const res: request.Response = await http().get(next).set('Authorization', f.keys.otherAssembly).expect(200);
      seen.push(...(res.body as PackVehicle[]).map((v) => v._id));
      next = /<([^>]+)>; rel="next"/.exec(res.headers.link ?? '')?.[1];
      pages++;
    }
    expect(pages).toBe(2);
    expect(seen).toEqual(tema);
  });

  it('answers 304 to an unchanged page, and the page again once a vehicle on it changed', async () => {
    const first = await pack(f.keys.otherAssembly, '?limit=2').expect(200);
    const etag = first.headers.etag;
    expect(etag).toBeDefined();
    const same = await pack(f.keys.otherAssembly, '?limit=2').set('If-None-Match', etag).expect(304);
    expect(same.text ?? '').toBe('');
    const checklist = { ...allPassed(), brakes: false };
    await http()
      .post(`/vehicles/${tema[1]}/inspect`)
      .set('Authorization', f.keys.otherAssembly)
      .send({ inspectionChecklist: checklist })
      .expect(200);
    const changed = await pack(f.keys.otherAssembly, '?limit=2').set('If-None-Match', etag).expect(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect((changed.body as PackVehicle[])[1]).toMatchObject({
      _id: tema[1],
      __v: 1,
      state: 'inspection_failed',
      failed: ['brakes'],
    });
  });

  it('sends the pack gzip-encoded when the caller accepts it, and plain JSON otherwise (the same vehicles)', async () => {
    const zipped = await pack(f.keys.otherAssembly).set('Accept-Encoding', 'gzip').expect(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['content-type']).toContain('application/json');
    expect(zipped.headers.vary).toContain('Accept-Encoding');
    const plain = await pack(f.keys.otherAssembly).set('Accept-Encoding', 'identity').expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(zipped.body).toEqual(plain.body);
    await pack(f.keys.otherAssembly)
      .set('Accept-Encoding', 'gzip')
      .set('If-None-Match', zipped.headers.etag)
      .expect(304);
  });

  it('refuses a limit or cursor that is not one (400, problem+json), changing nothing', async () => {
    for (const query of ['?limit=0', '?limit=2001', '?limit=x', '?after=nope', '?other=1']) {
      const res = await pack(f.keys.otherAssembly, query).expect(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
    }
  });
});
