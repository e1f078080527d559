import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

/**
 * Issue 48, item 3: the public check page (GET /v/{token}) in the reader's language: Accept-Language, or the page's
 * own switch (`?lang=`), `<html lang>` and Content-Language set to it, `Vary: Accept-Language` for caches, the words
 * from the check-page catalogue; as small and as strict (CSP) as the English page.
 */
describeOnEachTier("the public check page in the reader's language", (tier) => {
  const { fixture: f, http } = appOnTier(tier, { fixture: true });
  let addresses = 0;
  let token = '';
  const page = (query = '', acceptLanguage?: string) => {
    const req = http()
      .get(`/v/${token}${query}`)
      .set('X-Forwarded-For', `198.51.100.${++addresses}`)
      .set('Accept', 'text/html');
    return acceptLanguage === undefined ? req : req.set('Accept-Language', acceptLanguage);
  };

  beforeAll(async () => {
    const printed = await http()
      .post(`/vehicles/${f.ids.linkedVehicle}/certificate`)
      .set('Authorization', f.keys.assembly)
      .expect(200);
    token = /href="https?:\/\/[^"]+\/v\/([A-Za-z0-9_.-]+)"/.exec(printed.text)?.[1] ?? '';
    expect(token).not.toBe('');
  });

  it('answers in Twi for Accept-Language ak-GH: html lang, Content-Language, Vary, Twi words and dates', async () => {
    const res = await page('', 'fr-FR, ak-GH;q=0.8, en;q=0.5').expect(200);
    expect(res.headers['content-language']).toBe('tw');
    expect(res.headers.vary).toMatch(/Accept-Language/);
    expect(res.text).toContain('<html lang="tw">');
    expect(res.text).toMatch(/<title>Ɛyɛ: kar krataa nhwehwɛmu<\/title>/);
    expect(res.text).toMatch(/<h1 id="verdict"><span class="mark" aria-hidden="true">✓<\/span>Ɛyɛ<\/h1>/);
    expect(res.text).toContain('<h2>Kar</h2>');
    expect(res.text).toContain('<dt>Nɔma</dt><dd>GR 1000-24</dd>');
    // The colour by its Twi name, the documents' dates with Twi month names (ICU's ak).
    expect(res.text).toContain('Sikakɔkɔɔ');
    expect(res.text).toMatch(/ɛyɛ kosi [^<\d]+ \d+, \d{4}/);
    expect(res.text).not.toMatch(/>Valid<|Vehicle<\/h2>/);
  });

  it('answers in Hausa for ?lang=ha, whatever Accept-Language says, with the switch marking Hausa', async () => {
    const res = await page('?lang=HA', 'tw').expect(200);
    expect(res.headers['content-language']).toBe('ha');
    expect(res.text).toContain('<html lang="ha">');
    expect(res.text).toMatch(/Ingantacce<\/h1>/);
    expect(res.text).toContain('<h2>Mota</h2>');
    expect(res.text).toContain('An amince da wannan mota');
    const links = [
      ...res.text.matchAll(/<a href="\?lang=(\w+)" lang="(\w+)" hreflang="\w+"( aria-current="page")?>([^<]+)<\/a>/g),
    ];
    expect(links.map((m) => [m[1], m[4], Boolean(m[3])])).toEqual([
      ['en', 'English', false],
      ['tw', 'Twi', false],
      ['gaa', 'Ga', false],
      ['ee', 'Eʋegbe', false],
      ['ha', 'Hausa', true],
      ['dag', 'Dagbanli', false],
    ]);
    expect(res.text).toMatch(/<nav class="languages" aria-label="Harshe">/);
  });

  it('answers in English for no Accept-Language, an unknown one, or a ?lang= it does not speak', async () => {
    for (const res of [await page(), await page('', 'fr, de;q=0.5'), await page('?lang=xx')]) {
      expect(res.status).toBe(200);
      expect(res.headers['content-language']).toBe('en');
      expect(res.text).toContain('<html lang="en">');
      expect(res.text).toMatch(/Valid<\/h1>/);
    }
  });

  it("keeps the English page's Content-Security-Policy and stays about as small in every language", async () => {
    const en = await page('?lang=en').expect(200);
    for (const lang of ['tw', 'gaa', 'ee', 'ha', 'dag']) {
      const res = await page(`?lang=${lang}`).expect(200);
      expect(res.headers['content-security-policy']).toBe(en.headers['content-security-policy']);
      expect(res.text).not.toContain('<script');
      // One small response for a slow phone: no more than the English page and a quarter again, under 8 KB.
      expect(Buffer.byteLength(res.text)).toBeLessThan(Math.max(8_000, Buffer.byteLength(en.text) * 1.25));
    }
    expect(en.headers['content-security-policy']).toMatch(/script-src 'none'|default-src/);
  });

  it('answers JSON the same whatever the language (the verdict is data)', async () => {
    const res = await http()
      .get(`/v/${token}?lang=tw`)
      .set('X-Forwarded-For', `198.51.100.${++addresses}`)
      .set('Accept', 'application/json')
      .expect(200);
    expect(res.body.state).toBe('valid');
  });

  it("keeps an owner's language from registration (any letter case), refuses one not spoken with a 400, corrects it", async () => {
    const body = {
      name: 'Ama Serwaa',
      email: 'ama.serwaa@example.com',
      idType: 'ghana_card',
      idNumber: 'GHA-700000777-1',
    };
    const refused = await http()
      .post('/vehicles/owner/add')
      .set('Authorization', f.keys.assembly)
      .send({ ...body, phone: '0244777888', language: 'fr' })
      .expect(400);
    expect(refused.body.code).toBe('INVALID_LANGUAGE');
    const created = await http()
      .post('/vehicles/owner/add')
      .set('Authorization', f.keys.assembly)
      .send({ ...body, phone: '0244777889', language: 'TW' })
      .expect(201);
    expect(created.body.language).toBe('tw');
    const corrected = await http()
      .post(`/vehicles/owner/${created.body._id}/correct`)
      .set('Authorization', f.keys.assembly)
      .set('If-Match', String(created.body.__v))
      .send({ language: 'dag' })
      .expect(200);
    expect(corrected.body.language).toBe('dag');
  });
});
