import { mkdtemp, rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { allPassed } from '@transport/domain/testing';
import { appOnTier } from './support/app-on-tier';
import { GPS_TEXT, jpeg, png } from './support/images';
import { describeOnEachTier } from './support/test-app';

// Issue 46, item 4: photo evidence of inspections, sent from the phone with the inspection's Idempotency-Key, checked
// by its bytes, kept through the ObjectStorage port, and served only to staff who may read the vehicle, without the
// location unless the reader may see it.

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const hasGps = (bytes: Buffer) => bytes.includes(Buffer.from(GPS_TEXT, 'latin1'));
const binary = (res: NodeJS.EventEmitter, done: (error: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

describeOnEachTier('inspection photos', (tier) => {
  const { running, http, fixture } = appOnTier(tier, { fixture: true });
  let vehicle: string;
  let firstAssemblyVehicle: string;

  const addVehicle = async (assembly: string, plate: string) =>
    (
      await http()
        .post('/vehicles/add')
        .set('Authorization', fixture.keys.admin)
        .send({
          ownerID: fixture.ids.owners[0],
          assembly,
          registrationNumber: plate,
          make: 'Nissan',
          model: 'Urvan',
          color: '#FFFFFF',
          type: 'bus',
          capacity: 15,
        })
        .expect(201)
    ).body._id as string;

  const send = (
    bytes: Buffer,
    query: string,
    key: string | undefined = 'inspection-1',
    as = fixture.keys.otherAssembly,
    id = vehicle,
  ) => {
    const req = http().post(`/vehicles/${id}/inspection-photos?${query}`).set('Content-Type', 'image/jpeg');
    if (as) req.set('Authorization', as);
    if (key) req.set('Idempotency-Key', key);
    return req.send(bytes);
  };

  beforeAll(async () => {
    vehicle = await addVehicle(fixture.ids.otherAssembly, 'AS 4646-26');
    firstAssemblyVehicle = await addVehicle(fixture.ids.assembly, 'GR 4646-26');
  });

  it('keeps a photo of the plate with its inspector, times, place, SHA-256 and size; the same photo again is one photo', async () => {
    await http()
      .post(`/vehicles/${vehicle}/inspect`)
      .set('Authorization', fixture.keys.otherAssembly)
      .set('Idempotency-Key', 'inspection-1')
      .send({ inspectionChecklist: allPassed() })
      .expect(200);
    const bytes = jpeg();
    const first = await send(
      bytes,
      'kind=plate&takenAt=2026-12-07T09:12:00.000Z&longitude=-0.187&latitude=5.6037',
    ).expect(201);
    expect(first.body).toMatchObject({
      vehicle,
      inspectionKey: 'inspection-1',
      kind: 'plate',
      inspectedBy: fixture.ids.otherAssemblyUser,
      contentType: 'image/jpeg',
      sha256: sha(bytes),
      size: bytes.length,
      takenAt: '2026-12-07T09:12:00.000Z',
    });
    // The inspector does not see the place (approvers, assembly admins and national admins do).
    expect(first.body.takenWhere).toBeUndefined();
    const again = await send(
      bytes,
      'kind=plate&takenAt=2026-12-07T09:12:00.000Z&longitude=-0.187&latitude=5.6037',
    ).expect(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body._id).toBe(first.body._id);
    expect(await running.database.prisma.inspectionPhoto.count({ where: { vehicleId: vehicle } })).toBe(1);
    const listed = await http()
      .get(`/vehicles/${vehicle}/inspection-photos`)
      .set('Authorization', fixture.keys.admin)
      .expect(200);
    expect(listed.body).toHaveLength(1);
    expect(listed.body[0].takenWhere).toEqual({ type: 'Point', coordinates: [-0.187, 5.6037] });
  });

  it('tells the type by the bytes, not the Content-Type: a PNG sent as text/plain is a PNG; text sent as a JPEG is a 415', async () => {
    const bytes = png();
    const answer = await http()
      .post(`/vehicles/${vehicle}/inspection-photos?kind=item&item=brakes`)
      .set('Authorization', fixture.keys.otherAssembly)
      .set('Idempotency-Key', 'inspection-1')
      .set('Content-Type', 'text/plain')
      .send(bytes)
      .expect(201);
    expect(answer.body).toMatchObject({ kind: 'item', item: 'brakes', contentType: 'image/png' });
    for (const forged of [
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      Buffer.from('GIF89a\x01\0\x01\0'),
      jpeg().subarray(0, 12),
    ]) {
      const refused = await send(forged, 'kind=vin').expect(415);
      expect(refused.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    expect((await send(Buffer.alloc(0), 'kind=vin').expect(415)).body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('refuses a photo over 5 MB with 413, storing nothing', async () => {
    const large = Buffer.concat([jpeg(), Buffer.alloc(5 * 1024 * 1024)]);
    const answer = await send(large, 'kind=vin', 'inspection-large').expect(413);
    expect(answer.body.code).toBe('BODY_TOO_LARGE');
    expect(await running.database.prisma.inspectionPhoto.count({ where: { inspectionKey: 'inspection-large' } })).toBe(
      0,
    );
  });

  it('refuses bad input with a 400 and stores nothing: no key, an unknown kind, an item that is not on the checklist, a place that is not one', async () => {
    const before = await running.database.prisma.inspectionPhoto.count();
    expect((await send(jpeg({ seed: 9 }), 'kind=plate', '').expect(400)).body.code).toBe('INVALID_VALUE');
    expect((await send(jpeg({ seed: 9 }), 'kind=selfie').expect(400)).body.code).toBe('VALIDATION_FAILED');
    expect((await send(jpeg({ seed: 9 }), 'kind=item&item=engine').expect(400)).body.code).toBe('INVALID_VALUE');
    expect((await send(jpeg({ seed: 9 }), 'kind=item').expect(400)).body.code).toBe('INVALID_VALUE');
    expect((await send(jpeg({ seed: 9 }), 'kind=vin&longitude=-0.18').expect(400)).body.code).toBe('INVALID_LOCATION');
    expect((await send(jpeg({ seed: 9 }), 'kind=vin&takenAt=yesterday').expect(400)).body.code).toBe(
      'VALIDATION_FAILED',
    );
    expect(await running.database.prisma.inspectionPhoto.count()).toBe(before);
  });

  it('takes photos from inspectors of the vehicle’s assembly only: anonymous 401, other roles 403, another assembly 404', async () => {
    const bytes = jpeg({ seed: 7 });
    expect((await send(bytes, 'kind=vin', 'k', '').expect(401)).body.code).toBe('UNAUTHORIZED');
    await send(bytes, 'kind=vin', 'k', fixture.keys.admin).expect(403);
    await send(bytes, 'kind=vin', 'k', fixture.keys.merchantA).expect(403);
    // The first assembly's approver: not an inspector.
    expect(
      (await send(bytes, 'kind=vin', 'k', fixture.keys.assembly, firstAssemblyVehicle).expect(403)).body.code,
    ).toBe('DUTY_NOT_ALLOWED');
    // The other assembly's inspector, on the first assembly's vehicle.
    await send(bytes, 'kind=vin', 'k', fixture.keys.otherAssembly, firstAssemblyVehicle).expect(404);
    expect(await running.database.prisma.inspectionPhoto.count({ where: { inspectionKey: 'k' } })).toBe(0);
  });

  it('serves a photo to staff who may read the vehicle, never publicly, without its location unless the reader may see it', async () => {
    const [photo] = (
      await http()
        .get(`/vehicles/${vehicle}/inspection-photos?inspectionKey=inspection-1`)
        .set('Authorization', fixture.keys.admin)
        .expect(200)
    ).body.filter((p: { kind: string }) => p.kind === 'plate');
    const path = `/vehicles/${vehicle}/inspection-photos/${photo._id}`;
    const asAdmin = await http()
      .get(path)
      .set('Authorization', fixture.keys.admin)
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(asAdmin.headers['content-type']).toBe('image/jpeg');
    expect(asAdmin.headers['cache-control']).toBe('private, no-store');
    expect((asAdmin.body as Buffer).equals(jpeg())).toBe(true);
    const asInspector = await http()
      .get(path)
      .set('Authorization', fixture.keys.otherAssembly)
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(hasGps(asInspector.body as Buffer)).toBe(false);
    expect((asInspector.body as Buffer).subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(true);
    await http().get(path).expect(401);
    await http().get(path).set('Authorization', fixture.keys.merchantA).expect(403);
    await http().get(path).set('Authorization', fixture.keys.assembly).expect(404);
    await http().get(`/vehicles/${vehicle}/inspection-photos`).set('Authorization', fixture.keys.assembly).expect(404);
    await http()
      .get(`/vehicles/${firstAssemblyVehicle}/inspection-photos/${photo._id}`)
      .set('Authorization', fixture.keys.admin)
      .expect(404);
  });
});

describe('inspection photos on S3 storage (s3rver)', () => {
  let server: S3rver;
  let directory: string;
  let endpoint = '';
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 's3rver-photos-'));
    server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory,
      configureBuckets: [{ name: 'photos' }],
    });
    endpoint = `http://127.0.0.1:${(await server.run()).port}`;
  });
  afterAll(async () => {
    await server?.close();
    await rm(directory, { recursive: true, force: true });
  });

  const { http, fixture } = appOnTier('embedded', {
    fixture: true,
    config: (defaults) => ({
      ...defaults,
      objectStorage: {
        kind: 's3',
        urlSeconds: 60,
        endpoint,
        bucket: 'photos',
        region: 'us-east-1',
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
        forcePathStyle: true,
        prefix: 'test/',
      },
    }),
  });

  it('redirects a reader to a short-lived presigned URL of the copy they may see', async () => {
    const vehicle = (
      await http()
        .post('/vehicles/add')
        .set('Authorization', fixture.keys.admin)
        .send({
          ownerID: fixture.ids.owners[0],
          assembly: fixture.ids.otherAssembly,
          registrationNumber: 'AS 4747-26',
          make: 'Nissan',
          model: 'Urvan',
          color: '#FFFFFF',
          type: 'bus',
          capacity: 15,
        })
        .expect(201)
    ).body._id as string;
    const bytes = jpeg();
    const photo = (
      await http()
        .post(`/vehicles/${vehicle}/inspection-photos?kind=vin`)
        .set('Authorization', fixture.keys.otherAssembly)
        .set('Idempotency-Key', 'inspection-s3')
        .set('Content-Type', 'image/jpeg')
        .send(bytes)
        .expect(201)
    ).body;
    const path = `/vehicles/${vehicle}/inspection-photos/${photo._id}`;
    const forAdmin = await http().get(path).set('Authorization', fixture.keys.admin).expect(302);
    const adminUrl = new URL(forAdmin.headers.location);
    expect(adminUrl.searchParams.get('X-Amz-Expires')).toBe('60');
    expect(Buffer.from(await (await fetch(adminUrl)).arrayBuffer()).equals(bytes)).toBe(true);
    const forInspector = await http().get(path).set('Authorization', fixture.keys.otherAssembly).expect(302);
    const served = Buffer.from(await (await fetch(forInspector.headers.location)).arrayBuffer());
    expect(hasGps(served)).toBe(false);
    expect(served.length).toBeGreaterThan(0);
  });
});
