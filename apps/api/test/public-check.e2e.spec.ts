import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

// What a passenger sees on the public check of a certificate (GET /v/{token}) once the records behind it change:
// a driver whose approval was revoked is never shown under the verdict, nor is a station the vehicle left.

describeOnEachTier('the public check of a certificate, as its records change', (tier) => {
  const { fixture: f, http } = appOnTier(tier, { fixture: true });
  let addresses = 0;
  /** A fresh client address for each check: the limit counts per address. */
  const check = (token: string, json = true) =>
    http()
      .get(`/v/${token}`)
      .set('X-Forwarded-For', `198.51.100.${++addresses}`)
      .set('Accept', json ? 'application/json' : 'text/html');
  const printedToken = async (id: string) => {
    const page = await http().post(`/vehicles/${id}/certificate`).set('Authorization', f.keys.assembly).expect(200);
    const match = /href="https?:\/\/[^"]+\/v\/([A-Za-z0-9_.-]+)"/.exec(page.text);
    if (!match) throw new Error('no check link in the certificate page');
    return match[1];
  };
  const versionOf = async (path: string) =>
    String((await http().get(path).set('Authorization', f.keys.admin).expect(200)).body.__v);

  it('shows no driver, and no driver licence, once the linked driver is revoked; the page says so plainly', async () => {
    const token = await printedToken(f.ids.linkedVehicle);
    const before = await check(token).expect(200);
    expect(before.body).toMatchObject({ state: 'valid', driver: { firstName: 'Driver', rating: 4 } });
    expect(before.body.documents.map((d: { document: string }) => d.document)).toContain('driverLicense');

    await http()
      .post(`/drivers/${f.ids.workingDriver}/revoke`)
      .set('Authorization', f.keys.assembly)
      .set('If-Match', await versionOf(`/drivers/${f.ids.workingDriver}`))
      .send({ reason: 'Repeated passenger complaints' })
      .expect(200);

    const after = await check(token).expect(200);
    expect(after.body.state).toBe('valid');
    expect(after.body.driver).toBeNull();
    expect(after.body.documents.map((d: { document: string }) => d.document)).not.toContain('driverLicense');
    const page = (await check(token, false).expect(200)).text;
    expect(page).toContain('Valid');
    expect(page).toContain('No approved driver is linked to this vehicle');
    expect(page).not.toContain('4 of 5');
    expect(page).not.toContain('<dt>First name</dt>');
    expect(page).not.toContain('Driver&#39;s licence');
  });

  it('shows no station once the vehicle is unlinked from it', async () => {
    const token = await printedToken(f.ids.linkedVehicle);
    expect((await check(token).expect(200)).body.vehicle.station).toBe('Kaneshie');
    await http()
      .post(`/vehicles/${f.ids.linkedVehicle}/link`)
      .set('Authorization', f.keys.assembly)
      .set('If-Match', await versionOf(`/vehicles/${f.ids.linkedVehicle}`))
      .send({ station: null })
      .expect(200);
    const after = await check(token).expect(200);
    expect(after.body.vehicle).not.toHaveProperty('station');
    expect((await check(token, false).expect(200)).text).not.toContain('Kaneshie');
  });
});
