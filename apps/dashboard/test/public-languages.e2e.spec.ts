import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_FLAGS, expectAccessible, startDemo, type Running } from './support/demo';

// The public check page a certificate's QR code opens, in a real browser at a phone's size, in two languages other
// than English (issue 48, item 3): the language from the phone's own (Accept-Language), then chosen with the page's
// switch; <html lang> follows; axe finds nothing in either; no script, and nothing the CSP refused.

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

describe('the public check page in Twi and Ewe, in a browser', () => {
  let running: Running;
  let browser: Browser;
  let checkUrl = '';
  const problems: string[] = [];

  const watch = (page: Page) => {
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      // The browser asks for /favicon.ico, which the API does not serve (404): not the page's fault.
      if (message.type() === 'error' && !/^Failed to load resource: .* status of 404/.test(message.text()))
        problems.push(message.text());
    });
    return page;
  };

  beforeAll(async () => {
    running = await startDemo('public_languages_e2e');
    const base = new URL('/', running.url).toString();
    const staff = (path: string, method = 'GET') =>
      fetch(new URL(path, base), { method, headers: { Authorization: running.keys.assembly } }).then((r) => {
        if (!r.ok) throw new Error(`${path}: ${r.status}`);
        return r;
      });
    const [vehicle] = (await (await staff('/vehicles/all?registrationNumber=GE%205505-20')).json()) as Array<{
      _id: string;
    }>;
    const printed = await (await staff(`/vehicles/${vehicle._id}/certificate`, 'POST')).text();
    const link = /href="([^"]+\/v\/[^"]+)"/.exec(printed)?.[1];
    if (!link) throw new Error('no check link in the certificate');
    checkUrl = new URL(new URL(link).pathname, base).toString();
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
  });

  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });

  afterEach(() => {
    expect(problems.splice(0)).toEqual([]);
  });

  it('opens in Twi on a phone set to Twi (ak), accessible, and switches to Ewe with its own link', async () => {
    const context = await browser.newContext({ ...PHONE, locale: 'ak-GH' });
    try {
      const page = watch(await context.newPage());
      await page.goto(checkUrl);
      expect(await page.getAttribute('html', 'lang')).toBe('tw');
      await page.getByRole('heading', { level: 1, name: /^(Ɛyɛ|Ne bere atwam|Wɔagye asan|Ɛnyɛ nokware)$/ }).waitFor();
      await page.getByRole('heading', { level: 2, name: 'Nkrataa' }).waitFor();
      const languages = page.getByRole('navigation', { name: 'Kasa' });
      expect(await languages.getByRole('link').allTextContents()).toEqual([
        'English',
        'Twi',
        'Ga',
        'Eʋegbe',
        'Hausa',
        'Dagbanli',
      ]);
      expect(await languages.getByRole('link', { name: 'Twi' }).getAttribute('aria-current')).toBe('page');
      await expectAccessible(page, 'check page in Twi');

      await languages.getByRole('link', { name: 'Eʋegbe' }).click();
      await page.waitForURL(/\?lang=ee$/);
      expect(await page.getAttribute('html', 'lang')).toBe('ee');
      await page.getByRole('heading', { level: 1, name: /^(Esɔ|Eƒe ɣeyiɣi wu enu|Woxɔe|Menye nyateƒe o)$/ }).waitFor();
      await page.getByRole('heading', { level: 2, name: 'Agbalẽwo' }).waitFor();
      expect(
        await page
          .getByRole('navigation', { name: 'Gbe' })
          .getByRole('link', { name: 'Eʋegbe' })
          .getAttribute('aria-current'),
      ).toBe('page');
      await expectAccessible(page, 'check page in Ewe');
      expect(await page.locator('script').count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
