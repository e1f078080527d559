import { allPassed } from '@transport/domain/testing';
import { PrismaIdempotencyRecords } from '../src/persistence/prisma-idempotency.store';
import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

// Issue 43: a phone's queued inspection reaches the service, the answer is lost, and the phone sends it again later with
// its old If-Match. Without an idempotency key that replay is a 409 (the first send moved the revision) or, recorded
// again, a second inspection. With the Idempotency-Key the phone made once, the replay gets the first answer.

const PASSED = allPassed();

describeOnEachTier('Idempotency-Key on the state changes a phone queues', (tier) => {
  const { running, http, fixture } = appOnTier(tier, { fixture: true });
  let vehicle: { _id: string; __v: number };
  let secondInspector: string;

  const inspect = (key: string, idempotencyKey: string | undefined, body: object, ifMatch: number) => {
    const req = http()
      .post(`/vehicles/${vehicle._id}/inspect`)
      .set('Authorization', key)
      .set('If-Match', String(ifMatch));
    if (idempotencyKey !== undefined) req.set('Idempotency-Key', idempotencyKey);
    return req.send(body);
  };
  const inspections = async () =>
    running.database.prisma.auditEntry.count({ where: { entityId: vehicle._id, action: 'VehicleInspected' } });
  const current = async () =>
    (await http().get(`/vehicles/${vehicle._id}`).set('Authorization', fixture.keys.admin).expect(200)).body as {
      _id: string;
      __v: number;
    };

  beforeAll(async () => {
    const admin = (path: string, body: object) =>
      http().post(path).set('Authorization', fixture.keys.admin).send(body).expect(201);
    // A vehicle in the assembly of the fixture's inspector (otherAssembly), and a second inspector there.
    vehicle = (
      await admin('/vehicles/add', {
        ownerID: fixture.ids.owners[0],
        assembly: fixture.ids.otherAssembly,
        registrationNumber: 'AS 4343-26',
        make: 'Toyota',
        model: 'HiAce',
        color: '#FFFFFF',
        type: 'bus',
        capacity: 15,
      })
    ).body;
    const user = (
      await admin('/assembly/users/add', {
        assembly: fixture.ids.otherAssembly,
        name: 'Yaw Owusu',
        email: 'yaw.idempotency@ejisu.gov.gh',
        phone: '0244999301',
        role: 'inspector',
      })
    ).body;
    secondInspector = (await admin('/admin/keys', { role: 'assembly', principal: user._id })).body.key;
  });

  it('answers a replay (same key, same body, the old If-Match) with the first answer, recording it once', async () => {
    const before = await inspections();
    const body = { inspectionChecklist: { ...PASSED, brakes: false }, defects: { brakes: 'pads worn' } };
    const first = await inspect(fixture.keys.otherAssembly, 'phone-key-0001', body, vehicle.__v).expect(200);
    // The answer was lost: the phone sends the same again, with the revision it saw before.
    const replay = await inspect(fixture.keys.otherAssembly, 'phone-key-0001', body, vehicle.__v).expect(200);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await inspections()).toBe(before + 1);
    expect((await current()).__v).toBe(first.body.__v);
    // Without a key the same replay is what the phone got before: a conflict (nothing written).
    expect((await inspect(fixture.keys.otherAssembly, undefined, body, vehicle.__v).expect(409)).body.code).toBe(
      'CONCURRENT_UPDATE',
    );
    vehicle = await current();
  });

  it('answers two sends of one key that arrive together with one change: the second waits for the first', async () => {
    // The phone gave up waiting on a slow signal and sent again while the first try was still being recorded.
    vehicle = await current();
    const before = await inspections();
    const body = { inspectionChecklist: { ...PASSED, headlights: false }, defects: { headlights: 'left one out' } };
    const answers = await Promise.all(
      [0, 1, 2].map(() => inspect(fixture.keys.otherAssembly, 'phone-key-0005', body, vehicle.__v)),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(2);
    expect(answers[1].body).toEqual(answers[0].body);
    expect(answers[2].body).toEqual(answers[0].body);
    expect(await inspections()).toBe(before + 1);
    vehicle = await current();
  });

  it('forgets the key of a refused change, so a corrected retry under it is judged anew', async () => {
    vehicle = await current();
    const body = { inspectionChecklist: PASSED };
    // A stale revision: refused (409), and nothing kept under the key.
    await inspect(fixture.keys.otherAssembly, 'phone-key-0006', body, vehicle.__v - 1).expect(409);
    expect(await running.database.prisma.idempotencyKey.count({ where: { key: 'phone-key-0006' } })).toBe(0);
    await inspect(fixture.keys.otherAssembly, 'phone-key-0006', body, vehicle.__v).expect(200);
    vehicle = await current();
  });

  it('answers 409 IDEMPOTENCY_KEY_IN_PROGRESS with Retry-After while a first try is still unfinished', async () => {
    vehicle = await current();
    const body = { inspectionChecklist: PASSED };
    const hash = (await import('node:crypto')).createHash('sha256').update(JSON.stringify(body)).digest('hex');
    const actor = await running.database.prisma.idempotencyKey.findFirstOrThrow({ where: { key: 'phone-key-0001' } });
    // A try whose answer is not kept yet (the claim a first try makes before it records the change).
    await running.database.prisma.idempotencyKey.create({
      data: {
        actorId: actor.actorId,
        key: 'phone-key-0007',
        route: `POST /vehicles/${vehicle._id}/inspect`,
        bodyHash: hash,
        status: null,
        createdAt: new Date(),
        expiresAt: new Date(Date.now() + 3_600_000),
      },
    });
    const before = await inspections();
    const res = await inspect(fixture.keys.otherAssembly, 'phone-key-0007', body, vehicle.__v).expect(409);
    expect(res.body.code).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(await inspections()).toBe(before);
    // A claim older than the lease was left by a try that died (a restart): the key is taken over, the change judged.
    await running.database.prisma.idempotencyKey.updateMany({
      where: { key: 'phone-key-0007' },
      data: { createdAt: new Date(Date.now() - 10 * 60_000) },
    });
    await inspect(fixture.keys.otherAssembly, 'phone-key-0007', body, vehicle.__v).expect(200);
    expect(await inspections()).toBe(before + 1);
    vehicle = await current();
  });

  it('refuses the same key with another body (422 IDEMPOTENCY_KEY_REUSED), writing nothing', async () => {
    const body = { inspectionChecklist: PASSED };
    await inspect(fixture.keys.otherAssembly, 'phone-key-0002', body, vehicle.__v).expect(200);
    vehicle = await current();
    const before = await inspections();
    const other = await inspect(
      fixture.keys.otherAssembly,
      'phone-key-0002',
      { inspectionChecklist: { ...PASSED, wipers: false } },
      vehicle.__v,
    ).expect(422);
    expect(other.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(other.body).toMatchObject({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await inspections()).toBe(before);
    expect((await current()).__v).toBe(vehicle.__v);
  });

  it('refuses a malformed key with 400, before anything is written', async () => {
    const res = await inspect(
      fixture.keys.otherAssembly,
      'x'.repeat(256),
      { inspectionChecklist: PASSED },
      vehicle.__v,
    );
    expect([res.status, res.body.code]).toEqual([400, 'INVALID_VALUE']);
  });

  it("never answers another caller's request from a key it did not send: theirs is a new request", async () => {
    const body = { inspectionChecklist: PASSED };
    vehicle = await current();
    const mine = await inspect(fixture.keys.otherAssembly, 'shared-key-0003', body, vehicle.__v).expect(200);
    const before = await inspections();
    // Another inspector with the same key and body: not the first answer (that revision is gone: a real conflict).
    const theirs = await inspect(secondInspector, 'shared-key-0003', body, vehicle.__v).expect(409);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.body).not.toEqual(mine.body);
    expect(await inspections()).toBe(before);
  });

  it('treats an expired key as new, and the scheduled purge deletes expired keys', async () => {
    const body = { inspectionChecklist: PASSED };
    vehicle = await current();
    await inspect(fixture.keys.otherAssembly, 'phone-key-0004', body, vehicle.__v).expect(200);
    // IDEMPOTENCY_KEY_HOURS later (the row's expiry moved into the past).
    const past = new Date(Date.now() - 1000);
    await running.database.prisma.idempotencyKey.updateMany({
      where: { key: 'phone-key-0004' },
      data: { expiresAt: past },
    });
    const before = await inspections();
    const fresh = await current();
    const again = await inspect(fixture.keys.otherAssembly, 'phone-key-0004', body, fresh.__v).expect(200);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await inspections()).toBe(before + 1);
    const kept = await running.database.prisma.idempotencyKey.findMany({ where: { key: 'phone-key-0004' } });
    expect(kept).toHaveLength(1);
    expect(kept[0].expiresAt.getTime()).toBeGreaterThan(Date.now() + 167 * 3_600_000);

    await running.database.prisma.idempotencyKey.updateMany({
      where: { key: { in: ['phone-key-0001', 'phone-key-0002'] } },
      data: { expiresAt: past },
    });
    const purged = await new PrismaIdempotencyRecords(running.database.prisma).purge(new Date());
    expect(purged).toBe(2);
    expect(
      (await running.database.prisma.idempotencyKey.findMany({ orderBy: { key: 'asc' } })).map((r) => r.key),
    ).toEqual(['phone-key-0004', 'phone-key-0005', 'phone-key-0006', 'phone-key-0007', 'shared-key-0003']);
  });
});
