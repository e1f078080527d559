import type { Browser, Page } from 'playwright-core';
import { expectAccessible, hasText, launch, signIn, startDemo, type Running } from './support/demo';

// Issue 46, item 6: the assembly admin's review of signs of fraud at phone size. Two stickers printed for vehicles
// whose last inspection has no photo raise two flags (by the real flow: the print); the admin reads each one's plain
// explanation, clears one with a reason, and finds it among the cleared. axe on the screen.

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true };
const EMAIL = 'adwoa.admin@ama.gov.gh';
const MOBILE = '+233244000556';
const PASSWORD = 'the-volta-runs-wide-at-akosombo';

describe('signs of fraud, reviewed by the assembly admin on the phone (issue 46)', () => {
  let browser: Browser;
  let running: Running;
  let page: Page;
  const problems: string[] = [];
  const plates: string[] = [];
  const api = (path: string, body: unknown, key?: string) =>
    fetch(new URL(path, running.url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(key && { Authorization: key }) },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    running = await startDemo('dashboard_fraud');
    const [assembly] = await running.query(
      `SELECT "assemblyId" FROM assembly_users WHERE email = 'kwame.boateng@ama.gov.gh'`,
    );
    // Adwoa, the demo assembly's admin, added and invited with the demo admin key; she sets her password.
    const added = await api(
      '/assembly/users/add',
      { assembly: assembly.assemblyId, name: 'Adwoa Admin', email: EMAIL, phone: MOBILE, role: 'admin' },
      running.keys.admin,
    );
    expect(added.status).toBe(201);
    const user = ((await added.json()) as { _id: string })._id;
    expect((await api('/auth/invitations', { user }, running.keys.admin)).status).toBe(202);
    const [message] = await running.query('SELECT text FROM outbox_messages WHERE "to" = $1 ORDER BY id DESC', [
      MOBILE,
    ]);
    const token = /token=([A-Za-z0-9_-]{43})/.exec(String(message?.text))?.[1];
    expect((await api('/auth/password', { token, password: PASSWORD })).status).toBe(204);
    // Two approved vehicles of the assembly, their stickers printed with no photo of their inspection behind them.
    const approved = await running.query(
      `SELECT id, "registrationNumber" FROM vehicles WHERE approved AND "assemblyId" = $1 ORDER BY id LIMIT 2`,
      [assembly.assemblyId],
    );
    expect(approved).toHaveLength(2);
    for (const v of approved) {
      expect((await api(`/vehicles/${String(v.id)}/certificate`, {}, running.keys.assembly)).status).toBe(200);
      plates.push(String(v.registrationNumber));
    }

    browser = await launch();
    page = await (await browser.newContext(PHONE)).newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  });
  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });
  afterEach(() => {
    expect(problems.splice(0)).toEqual([]);
  });

  it('lists open flags with their explanation, clears one with a reason, and shows it among the cleared', async () => {
    await page.goto(running.url);
    await signIn(page, EMAIL, PASSWORD);
    // The admin's menu has the review (the other roles' has not: fraud-flags.e2e of the API holds who may read it).
    expect(await page.getByRole('link', { name: 'Signs of fraud' }).count()).toBe(1);
    await page.goto(`${running.url}#/fraud-flags`);
    await page.getByRole('heading', { level: 1, name: 'Signs of fraud' }).waitFor();
    const cards = page.locator('ul.cards > li');
    await cards.nth(1).waitFor();
    expect(await cards.count()).toBe(2);
    await hasText(cards.first(), 'A sticker was printed, but the last inspection has no photo.');
    await expectAccessible(page, 'fraud flags, open');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    const card = cards.filter({ hasText: `Vehicle ${plates[0]}` });
    // A reason is required: the browser says so before anything is sent.
    await card.getByRole('button', { name: 'Clear the flag: A sticker without photos' }).click();
    expect(
      await card
        .getByLabel('Why clear it? (what you found)')
        .evaluate((i) => (i as HTMLInputElement).validity.valueMissing),
    ).toBe(true);
    await card
      .getByLabel('Why clear it? (what you found)')
      .fill('Photos were taken on a phone that broke, seen on site');
    await card.getByRole('button', { name: 'Clear the flag: A sticker without photos' }).click();
    await page.getByText('Flag cleared.').waitFor();
    await page.locator('ul.cards > li').nth(1).waitFor({ state: 'detached' });
    await hasText(page.locator('ul.cards > li').first(), `Vehicle ${plates[1]}`);

    await page.getByLabel('Show').selectOption('cleared');
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await page.getByRole('heading', { level: 2, name: 'Cleared flags' }).waitFor();
    await hasText(page.locator('ul.cards > li').first(), 'by Adwoa Admin: Photos were taken on a phone that broke');
    await expectAccessible(page, 'fraud flags, cleared');
    const [audit] = await running.query(`SELECT action FROM audit_log WHERE entity = 'fraudFlag'`);
    expect(audit).toEqual({ action: 'FraudFlagCleared' });
  });
});
