import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventually, expectAccessible, launch, startDemo, visible, type Running } from './support/demo';
import tw from '../src/messages/tw.json';
import ha from '../src/messages/ha.json';

// The dashboard in two of its languages, Hausa and Twi, in Chromium at phone size against the built service on a
// scratch database with the demo data: the browser's language is the default before sign-in, a switch on the
// sign-in page is kept on the phone (a reload keeps it), a sign-in applies the language stored with the person, a
// switch once signed in is stored with them, and the chosen language still shows offline (its catalogue, a chunk of
// its own, is kept by the service worker). axe on each screen in each language.

const PHONE = { width: 390, height: 844 };

describe('the dashboard in Hausa and Twi, on a phone', () => {
  let browser: Browser;
  let running: Running;
  let context: BrowserContext;
  let page: Page;
  let url: string;
  const problems: string[] = [];
  const heading = (name: string) => page.getByRole('heading', { level: 1, name });
  const lang = () => page.evaluate(() => document.documentElement.lang);
  const stored = async () =>
    String(
      (await running.query('SELECT language FROM assembly_users WHERE email = $1', [running.demo.inspector]))[0]
        .language,
    );

  beforeAll(async () => {
    running = await startDemo('dashboard_languages');
    url = running.url;
    browser = await launch();
    // A phone set to Hausa: navigator.language (what it sends as Accept-Language) is ha-NG.
    context = await browser.newContext({ viewport: PHONE, isMobile: true, locale: 'ha-NG' });
    page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' && !/^Failed to load resource/.test(message.text())) problems.push(message.text());
    });
  });
  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });
  afterEach(() => expect(problems).toEqual([]));

  it("opens in the phone's language before anyone signs in, and keeps a switch across a reload", async () => {
    await page.goto(url);
    await heading(ha['signIn.title'].message).waitFor();
    expect(await lang()).toBe('ha');
    await expectAccessible(page, 'sign-in (ha)');

    await page.getByLabel(ha['language.label'].message).selectOption('tw');
    await heading(tw['signIn.title'].message).waitFor();
    expect(await lang()).toBe('tw');
    await visible(page.getByRole('button', { name: tw['signIn.submit'].message }));
    await expectAccessible(page, 'sign-in (tw)');

    await page.reload();
    await heading(tw['signIn.title'].message).waitFor();
    expect(await lang()).toBe('tw');
  });

  it('applies the language stored with the person at sign-in, and stores a switch made signed in', async () => {
    await running.query('UPDATE assembly_users SET language = $1 WHERE email = $2', ['ha', running.demo.inspector]);
    await page.getByLabel(tw['signIn.email'].message).fill(running.demo.inspector);
    await page.getByLabel(tw['signIn.password'].message, { exact: true }).fill(running.demo.password);
    await page.getByRole('button', { name: tw['signIn.submit'].message }).click();
    await heading(ha['queues.title'].message).waitFor();
    expect(await lang()).toBe('ha');
    await expectAccessible(page, 'work queues (ha)');

    await page.getByLabel(ha['language.label'].message).selectOption('tw');
    await heading(tw['queues.title'].message).waitFor();
    expect(await lang()).toBe('tw');
    await eventually(async () => (await stored()) === 'tw', 'the switch stored with the person');
    await visible(page.getByRole('link', { name: tw['find.nav'].message, exact: true }));
    await expectAccessible(page, 'work queues (tw)');

    await page.reload();
    await heading(tw['queues.title'].message).waitFor();
  });

  it('shows the chosen language offline (its catalogue kept by the service worker)', async () => {
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await context.setOffline(true);
    try {
      await page.reload();
      await heading(tw['queues.title'].message).waitFor();
      expect(await lang()).toBe('tw');
      await page.goto(`${url}#/find`);
      await heading(tw['find.title'].message).waitFor();
      await expectAccessible(page, 'find, offline (tw)');
    } finally {
      await context.setOffline(false);
    }
  });
});
