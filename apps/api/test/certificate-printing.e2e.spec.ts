import request from 'supertest';
import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

// Viewing a certificate is not printing it. GET (and HEAD) /vehicles/{id}/certificate shows a preview and writes
// nothing; POST prints: it signs the QR code's token and audits the print (issued, then reprinted), and a dashboard
// session must send its CSRF token for it, as for every change.

const PASSWORD = 'the-harmattan-is-dry-42';

describeOnEachTier('printing a certificate is an explicit act; viewing one writes nothing', (tier) => {
  const { running, fixture: f, http } = appOnTier(tier, { fixture: true });
  const certificateActions = async (id: string) =>
    (
      await running.database.prisma.auditEntry.findMany({
        where: { entityId: id, action: { startsWith: 'Certificate' } },
        orderBy: { id: 'asc' },
      })
    ).map((e) => e.action);
  const approvedVehicle = async (plate: string) =>
    (await running.database.prisma.vehicle.findFirstOrThrow({ where: { registrationNumber: plate } })).id;
  const path = (id: string) => `/vehicles/${id}/certificate`;

  it('views with GET and HEAD as often as wanted: no audit row, no QR code, and the next print is not a reprint', async () => {
    const id = await approvedVehicle('GR 1001-24');
    const views = [];
    for (let i = 0; i < 3; i++) {
      views.push(await http().get(path(id)).set('Authorization', f.keys.assembly).expect(200));
      await http().head(path(id)).set('Authorization', f.keys.assembly).expect(200);
    }
    expect(await certificateActions(id)).toEqual([]);
    for (const viewed of views) {
      expect(viewed.headers['content-type']).toMatch(/^text\/html/);
      expect(viewed.text).toContain('GR 1001-24');
      expect(viewed.text).toContain('Preview: not a certificate');
      expect(viewed.text).not.toContain('<svg');
      expect(viewed.text).not.toMatch(/\/v\/[\w-]+\.[\w-]+\.[\w-]+/);
    }

    const first = await http().post(path(id)).set('Authorization', f.keys.assembly).expect(200);
    expect(first.headers['content-type']).toMatch(/^text\/html/);
    expect(first.text).toContain('<svg');
    expect(first.text).toMatch(/href="https?:\/\/[^"]+\/v\/[\w-]+\.[\w-]+\.[\w-]+"/);
    expect(first.text).not.toContain('reprint');
    await http().get(path(id)).set('Authorization', f.keys.assembly).expect(200);
    await http().head(path(id)).set('Authorization', f.keys.assembly).expect(200);
    expect(await certificateActions(id)).toEqual(['CertificateIssued']);

    const again = await http().post(path(id)).query({ size: 'a4' }).set('Authorization', f.keys.assembly).expect(200);
    expect(again.text).toContain('reprint');
    expect(again.text).toContain('@page{size:210mm 297mm');
    expect(await certificateActions(id)).toEqual(['CertificateIssued', 'CertificateReprinted']);
  });

  it('refuses to print, or to view, what it must not, as before', async () => {
    await http().post(path(f.ids.freshVehicle)).set('Authorization', f.keys.assembly).expect(422);
    await http().post(path(f.ids.linkedVehicle)).set('Authorization', f.keys.otherAssembly).expect(404);
    await http().post(path(f.ids.linkedVehicle)).set('Authorization', f.keys.merchantA).expect(403);
    await http().post(path(f.ids.linkedVehicle)).expect(401);
    await http().get(path(f.ids.freshVehicle)).set('Authorization', f.keys.assembly).expect(422);
    await http().get(path(f.ids.linkedVehicle)).set('Authorization', f.keys.otherAssembly).expect(404);
  });

  it("prints from a dashboard session only with the session's CSRF token; without it, 403 and nothing audited", async () => {
    // The fixture's approver gets a password through an invitation link, as an admin would give it.
    await http().post('/auth/invitations').set('Authorization', f.keys.admin).send({ user: f.ids.assemblyUser });
    const message = await running.database.prisma.outboxMessage.findFirst({
      where: { to: '+233244000111' },
      orderBy: { id: 'desc' },
    });
    const token = /token=([A-Za-z0-9_-]{43})/.exec(message?.text ?? '')?.[1];
    await http().post('/auth/password').send({ token, password: PASSWORD }).expect(204);
    const signedIn = await http()
      .post('/auth/sign-in')
      .send({ email: 'abena@ama.gov.gh', password: PASSWORD })
      .expect(200);
    const cookie = ((signedIn.headers['set-cookie'] as unknown as string[])[0] ?? '').split(';')[0];
    const csrf: string = signedIn.body.csrfToken;

    const id = await approvedVehicle('GR 1002-24');
    const asSession = (req: request.Test) => req.set('Cookie', cookie);
    await asSession(http().get(path(id))).expect(200);
    const refused = await asSession(http().post(path(id))).expect(403);
    expect(refused.body.code).toBe('CSRF_REJECTED');
    await asSession(http().post(path(id)))
      .set('X-CSRF-Token', 'not-the-token')
      .expect(403);
    expect(await certificateActions(id)).toEqual([]);
    await asSession(http().post(path(id)))
      .set('X-CSRF-Token', csrf)
      .expect(200);
    expect(await certificateActions(id)).toEqual(['CertificateIssued']);
  });
});
