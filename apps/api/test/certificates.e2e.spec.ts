import request from 'supertest';
import type { RunningApp } from '../src/app';
import { newCertificateKey } from '../src/core/platform/server-secrets';
import { loadApiFixture, type ApiFixture } from './support/api-fixtures';
import { describeOnPostgres } from './support/postgres-only';
import { openTierStore, startTestApp, type TierStore } from './support/test-app';

// Vehicle certificates end to end: staff print one (audited), the QR code's URL is checked by anyone, as HTML or JSON,
// through withdrawal, expiry, key rotation and forgery, with the public told nothing personal, and a per-address limit.

const [KEY_A, KEY_B] = [newCertificateKey(), newCertificateKey()];
const CHECK_LIMIT = 5;
let addresses = 0;
/** A fresh client address for each check (X-Forwarded-For, trusted from one proxy): the limit counts per address. */
const nextAddress = () => `198.51.100.${++addresses}`;

describeOnPostgres('vehicle certificates', () => {
  let store: TierStore;
  let running: RunningApp;
  let f: ApiFixture;
  const config = (keys: string[]) =>
    store.config({
      trustProxy: 1,
      certificates: { signingKeys: keys, checksPerAddressPerMinute: CHECK_LIMIT, checkCacheSeconds: 60 },
    });

  beforeAll(async () => {
    store = await openTierStore('postgresql');
    running = await startTestApp(config([KEY_A]));
    f = await loadApiFixture(running.database);
  });
  afterAll(async () => {
    await running?.close();
    await store?.dispose();
  });

  const http = (app: RunningApp = running) => request(app.app.getHttpServer());
  const print = (id: string, key = f.keys.assembly, app?: RunningApp) =>
    http(app).post(`/vehicles/${id}/certificate`).set('Authorization', key);
  /** The check URL a printed certificate's QR code holds (the page links it too, for staff to preview). */
  const tokenOf = (page: string) => {
    const match = /href="https?:\/\/[^"]+\/v\/([A-Za-z0-9_.-]+)"/.exec(page);
    if (!match) throw new Error('no check link in the certificate page');
    return match[1];
  };
  const check = (token: string, json = true, app?: RunningApp) => {
    const req = http(app).get(`/v/${token}`).set('X-Forwarded-For', nextAddress());
    return json ? req.set('Accept', 'application/json') : req.set('Accept', 'text/html,application/xhtml+xml');
  };
  const auditOf = (id: string) =>
    running.database.prisma.auditEntry.findMany({ where: { entityId: id }, orderBy: { id: 'asc' } });

  it('prints an approved vehicle: plate, make, model, colour, union, station, assembly, dates and a QR code', async () => {
    const res = await print(f.ids.linkedVehicle).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-store');
    for (const text of [
      'GR 1000-24',
      'Toyota',
      'Corolla',
      'Gold',
      'Kaneshie',
      'Accra Metropolitan Assembly',
      'Approved',
      'Roadworthy certificate until',
      'Insurance until',
      'Driver&#39;s licence until',
      '<svg',
      '@page{size:105mm 148mm',
    ])
      expect(res.text).toContain(text);
    const a4 = await print(f.ids.linkedVehicle).query({ size: 'a4' }).expect(200);
    expect(a4.text).toContain('@page{size:210mm 297mm');
  });

  it('audits the first print as issued and every later one as reprinted, and refuses what it cannot print', async () => {
    const id = (await approvedVehicles())[1];
    await print(id).expect(200);
    await print(id).expect(200);
    const entries = (await auditOf(id)).filter((e) => e.action.startsWith('Certificate'));
    expect(entries.map((e) => e.action)).toEqual(['CertificateIssued', 'CertificateReprinted']);
    expect(entries[0]).toMatchObject({ entity: 'vehicle', actorRole: 'assembly' });
    expect(entries[0].after).toMatchObject({ registrationNumber: expect.any(String), keyId: expect.any(String) });

    const refused = await print(f.ids.freshVehicle).expect(422);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.body.code).toBe('VEHICLE_NOT_APPROVED');
    await print(f.ids.linkedVehicle, f.keys.otherAssembly).expect(404);
    await print(f.ids.linkedVehicle, f.keys.merchantA).expect(403);
    await http().post(`/vehicles/${f.ids.linkedVehicle}/certificate`).expect(401);
    await print(f.ids.linkedVehicle).query({ size: 'letter' }).expect(400);
    await print('not-an-id').expect(400);
  });

  it("checks a printed certificate as valid, with public fields and the driver's first name and rating only", async () => {
    const token = tokenOf((await print(f.ids.linkedVehicle).expect(200)).text);
    const res = await check(token).expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    expect(res.headers.vary).toMatch(/Accept/);
    expect(res.body).toMatchObject({
      state: 'valid',
      vehicle: {
        registrationNumber: 'GR 1000-24',
        make: 'Toyota',
        model: 'Corolla',
        color: '#FFD700',
        station: 'Kaneshie',
      },
      driver: { firstName: 'Driver', rating: 4 },
      documents: expect.arrayContaining([expect.objectContaining({ document: 'insurance', expired: false })]),
    });
    expect(Object.keys(res.body).sort()).toEqual([
      'certificate',
      'checkedAt',
      'documents',
      'driver',
      'state',
      'vehicle',
    ]);
    expect(Object.keys(res.body.driver).sort()).toEqual(['firstName', 'rating']);

    const html = await check(token, false).expect(200);
    expect(html.headers['content-type']).toMatch(/^text\/html/);
    expect(html.text).toContain('Valid');
    expect(html.text).toContain('name="viewport"');
    expect(html.text).toContain('GR 1000-24');
    // Without an Accept header (a phone's camera app opening the link): the page.
    const bare = await http().get(`/v/${token}`).set('X-Forwarded-For', nextAddress()).expect(200);
    expect(bare.headers['content-type']).toMatch(/^text\/html/);
  });

  it('tells the public nothing personal: no phone, email, ID or licence number, full name, or owner', async () => {
    const token = tokenOf((await print(f.ids.linkedVehicle).expect(200)).text);
    const { prisma } = running.database;
    const vehicle = await prisma.vehicle.findUniqueOrThrow({ where: { id: f.ids.linkedVehicle } });
    const driver = await prisma.driver.findUniqueOrThrow({ where: { id: f.ids.workingDriver } });
    const owner = await prisma.vehicleOwner.findUniqueOrThrow({ where: { id: vehicle.ownerId } });
    const secrets = [
      driver.phone,
      driver.phone.replace('+233', '0'),
      driver.email,
      driver.idNumber,
      driver.license,
      driver.name,
      driver.id,
      owner.id,
      owner.name,
      owner.phone,
      owner.email,
      owner.idNumber,
      vehicle.ownerId,
    ].filter((s): s is string => typeof s === 'string' && s.length > 0);
    for (const body of [JSON.stringify((await check(token).expect(200)).body), (await check(token, false)).text])
      for (const secret of secrets) expect({ secret, found: body.includes(secret) }).toEqual({ secret, found: false });
  });

  it('finds a changed, foreign or unreadable token not genuine, as a 200 verdict', async () => {
    const token = tokenOf((await print(f.ids.linkedVehicle).expect(200)).text);
    const [header, payload, signature] = token.split('.');
    const forgedPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), reg: 'GR 9999-99' }),
    ).toString('base64url');
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    const cases: Array<[string, string]> = [
      [`${header}.${forgedPayload}.${signature}`, 'bad_signature'],
      [`${header}.${payload}.${flipped}`, 'bad_signature'],
      ['not-a-token', 'malformed'],
    ];
    for (const [bad, reason] of cases) {
      const res = await check(bad).expect(200);
      expect(res.body).toEqual({ state: 'not_genuine', reason, checkedAt: expect.any(String) });
    }
    const page = await check(`${header}.${forgedPayload}.${signature}`, false).expect(200);
    expect(page.text).toContain('Not genuine');
    expect(page.text).not.toContain('GR 9999-99');
  });

  it('shows a certificate withdrawn when its approval is, and after the vehicle is approved again', async () => {
    const id = (await approvedVehicles())[2];
    const before = tokenOf((await print(id).expect(200)).text);
    const { prisma } = running.database;
    const { version } = await prisma.vehicle.findUniqueOrThrow({ where: { id } });
    await http()
      .post(`/vehicles/${id}/correct`)
      .set('Authorization', f.keys.admin)
      .set('If-Match', String(version))
      .send({ registrationNumber: 'GW 4321-26' })
      .expect(200);
    expect((await check(before).expect(200)).body).toMatchObject({
      state: 'withdrawn',
      reason: 'approval_withdrawn',
      vehicle: { registrationNumber: expect.not.stringMatching('GW 4321-26') },
    });
    await print(id).expect(422);
    // The withdrawal is in the vehicle's audit trail with the approval the certificate named.
    const withdrawn = (await auditOf(id)).find((e) => e.action === 'VehicleApprovalWithdrawn');
    expect(withdrawn?.before).toMatchObject({ dateApproved: expect.any(String) });

    await http().post(`/vehicles/${id}/approve`).set('Authorization', f.keys.assembly).expect(200);
    const page = await check(before, false).expect(200);
    expect(page.text).toContain('Withdrawn');
    expect((await check(before).expect(200)).body).toMatchObject({ state: 'withdrawn', reason: 'approved_again' });
    const after = tokenOf((await print(id).expect(200)).text);
    expect((await check(after).expect(200)).body).toMatchObject({
      state: 'valid',
      vehicle: { registrationNumber: 'GW 4321-26' },
    });
    const actions = (await auditOf(id)).map((e) => e.action).filter((a) => /Certificate|Withdrawn|Approved/.test(a));
    expect(actions).toEqual(['CertificateIssued', 'VehicleApprovalWithdrawn', 'VehicleApproved', 'CertificateIssued']);
  });

  it('shows a certificate expired, naming the document that ended', async () => {
    const id = (await approvedVehicles())[3];
    const token = tokenOf((await print(id).expect(200)).text);
    // As if the insurance had run out since: its end moved into the past.
    await running.database.prisma.vehicle.update({
      where: { id },
      data: { insuranceExpiryDate: new Date(Date.now() - 86_400_000) },
    });
    const res = await check(token).expect(200);
    expect(res.body).toMatchObject({ state: 'expired', expiredDocuments: ['insurance'] });
    const page = await check(token, false).expect(200);
    expect(page.text).toContain('Expired');
    expect(page.text).toMatch(/its insurance expired on/);
  });

  it('keeps old certificates genuine across a key rotation, until their key is retired', async () => {
    const token = tokenOf((await print(f.ids.linkedVehicle).expect(200)).text);
    const jwksA = (await http().get('/.well-known/jwks.json').expect(200)).body;
    const rotated = await startTestApp(config([KEY_B, KEY_A]));
    try {
      expect((await check(token, true, rotated).expect(200)).body.state).toBe('valid');
      const jwks = await http(rotated).get('/.well-known/jwks.json').expect(200);
      expect(jwks.headers['cache-control']).toBe('public, max-age=3600');
      expect(jwks.body.keys).toHaveLength(2);
      expect(jwks.body.keys[1]).toEqual(jwksA.keys[0]);
      const newer = tokenOf((await print(f.ids.linkedVehicle, f.keys.assembly, rotated).expect(200)).text);
      expect((await check(newer, true, rotated).expect(200)).body.certificate.keyId).toBe(jwks.body.keys[0].kid);
      // The old instance never knew the new key: to it, the new certificate is not genuine.
      expect((await check(newer).expect(200)).body).toMatchObject({ state: 'not_genuine', reason: 'unknown_key' });
    } finally {
      await rotated.close();
    }
    const retired = await startTestApp(config([KEY_B]));
    try {
      expect((await check(token, true, retired).expect(200)).body).toMatchObject({
        state: 'not_genuine',
        reason: 'unknown_key',
      });
    } finally {
      await retired.close();
    }
  });

  it('limits checks per client address (429 with Retry-After), each address on its own', async () => {
    const address = '203.0.113.77';
    const statuses: number[] = [];
    for (let i = 0; i <= CHECK_LIMIT; i++)
      statuses.push((await http().get('/v/x.y.z').set('X-Forwarded-For', address)).status);
    expect(statuses).toEqual([...Array(CHECK_LIMIT).fill(200), 429]);
    const refused = await http().get('/v/x.y.z').set('X-Forwarded-For', address).expect(429);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    await http().get('/v/x.y.z').set('X-Forwarded-For', nextAddress()).expect(200);
  });

  /** The fixture's approved vehicles (the 5 oldest; the first is the linked one), oldest first. */
  async function approvedVehicles(): Promise<string[]> {
    const rows = await running.database.prisma.vehicle.findMany({
      where: { registrationNumber: { in: ['GR 1000-24', 'GR 1001-24', 'GR 1002-24', 'GR 1003-24', 'GR 1004-24'] } },
      orderBy: { registrationNumber: 'asc' },
      select: { id: true },
    });
    return rows.map((r) => r.id);
  }
});
