import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventually, expectAccessible, hasText, launch, startDemo, visible, type Running } from './support/demo';

// Issue 47 at the roadside, on a phone (390x844) in Chromium: an enforcement officer checks a vehicle by plate with a
// signal and without one (the work pack's answer, with its age), records an offence offline with a photo, and when the
// signal returns the first send's answer is lost: the Idempotency-Key makes the second send the same notice, once.
// The officer's own day lists it. axe on every screen.

const EMAIL = 'abena.roadside@ama.gov.gh';
const PHONE = '+233244000447';
const PASSWORD = 'a long road to bolgatanga';
const PLATE = 'GE 5505-20';
const ADMIN_EMAIL = 'efua.supervisor@ama.gov.gh';
/** The smallest PNG (1x1), a photo the phone can decode and draw. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

describe('the enforcement officer on the phone (issue 47)', () => {
  let browser: Browser;
  let running: Running;
  let context: BrowserContext;
  let page: Page;
  let url: string;
  let officer = '';
  const problems: string[] = [];
  const heading = (name: string) => page.getByRole('heading', { level: 1, name });
  const answer = () => page.getByRole('status').filter({ has: page.locator('#answer-title') });
  const notices = async () =>
    Number((await running.query('SELECT count(*)::int AS n FROM notices WHERE "officerId" = $1', [officer]))[0].n);
  const photos = async () =>
    Number(
      (
        await running.query(
          'SELECT count(*)::int AS n FROM notice_photos p JOIN notices n ON n.id = p."noticeId" WHERE n."officerId" = $1',
          [officer],
        )
      )[0].n,
    );
  /** The password link's token in the last SMS to a phone. */
  const linkTo = async (phone: string) => {
    const [message] = await running.query('SELECT text FROM outbox_messages WHERE "to" = $1 ORDER BY id DESC', [phone]);
    return /token=([A-Za-z0-9_-]{43})/.exec(String(message?.text))?.[1];
  };
  const signIn = async (email: string, landing: string) => {
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await heading(landing).waitFor();
  };
  const checks = async () =>
    Number(
      (await running.query('SELECT count(*)::int AS n FROM roadside_checks WHERE "officerId" = $1', [officer]))[0].n,
    );
  /** How many records a store of the phone's roadside database holds. */
  const kept = (store: 'pack' | 'offences' | 'checks') =>
    page.evaluate(
      (name) =>
        new Promise<number>((resolve) => {
          const open = indexedDB.open('dashboard-roadside');
          open.onsuccess = () => {
            const count = open.result.transaction(name).objectStore(name).count();
            count.onsuccess = () => {
              open.result.close();
              resolve(count.result);
            };
          };
        }),
      store,
    );
  const check = async (plate: string, licence = '') => {
    await page.getByLabel('Plate').fill(plate);
    await page.getByLabel("Driver's licence number").fill(licence);
    await page.getByRole('button', { name: 'Check', exact: true }).click();
  };

  beforeAll(async () => {
    running = await startDemo('dashboard_enforcement');
    url = running.url;
    const api = (path: string, body: unknown) =>
      fetch(new URL(path, url), {
        method: 'POST',
        headers: { Authorization: running.keys.admin, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const [assembly] = await running.query(`SELECT "assemblyId" FROM assembly_users WHERE email = $1`, [
      running.demo.inspector,
    ]);
    // An assembly admin (added and given a password with the demo admin key) adds the officer from the staff form.
    const added = await api('/assembly/users/add', {
      assembly: assembly.assemblyId,
      name: 'Efua Supervisor',
      email: ADMIN_EMAIL,
      phone: '+233244000448',
      role: 'admin',
    });
    expect(added.status).toBe(201);
    const adminId = ((await added.json()) as { _id: string })._id;
    expect((await api('/auth/invitations', { user: adminId })).status).toBe(202);
    expect((await api('/auth/password', { token: await linkTo('+233244000448'), password: PASSWORD })).status).toBe(
      204,
    );
    const catalogue = await api('/enforcement/catalogue', {
      assembly: assembly.assemblyId,
      offences: [
        {
          code: 'TF-01',
          description: 'Loading outside a station',
          bylaw: 's. 15',
          fine: 10_000,
          daysToPay: 14,
          surcharge: 2_500,
        },
      ],
    });
    expect(catalogue.status).toBe(201);

    browser = await launch();
    context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  });
  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });

  it('lets an assembly admin add an enforcement officer from the staff form', async () => {
    await page.goto(url);
    await signIn(ADMIN_EMAIL, 'Work queues');
    await page.goto(`${url}#/account`);
    await page.getByRole('heading', { level: 2, name: 'Staff of the assembly' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Abena Roadside');
    await page.getByLabel('Email address', { exact: true }).fill(EMAIL);
    await page.getByLabel('Phone', { exact: true }).fill(PHONE);
    await page.getByLabel('Role').selectOption({ label: 'Enforcement officer' });
    await page.getByRole('button', { name: 'Add them' }).click();
    const abena = page.locator('.cards > li', { hasText: 'Abena Roadside' });
    await hasText(abena, 'Enforcement officer');
    await hasText(abena, 'Active');
    await expectAccessible(page, 'staff with an enforcement officer');
    await page.getByRole('button', { name: 'Send the password link to Abena Roadside' }).click();
    await hasText(page.getByRole('status'), "A link to set a password is on its way to Abena Roadside's phone.");
    [{ id: officer }] = (await running.query('SELECT id FROM assembly_users WHERE email = $1', [EMAIL])) as Array<{
      id: string;
    }>;
    const set = await fetch(new URL('/auth/password', url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: await linkTo(PHONE), password: PASSWORD }),
    });
    expect(set.status).toBe(204);
    await page.getByRole('button', { name: 'Sign out' }).click();
  });

  it('checks a vehicle by a plate in any spelling with a signal: sticker, documents, driver, notices', async () => {
    await signIn(EMAIL, 'Check a vehicle');
    await check('ge-55O5 20', 'dl 0001 2020');
    await hasText(answer(), 'Sticker genuine and current');
    await hasText(answer(), PLATE);
    await hasText(answer(), 'The person driving is an approved driver of this vehicle.');
    await hasText(answer(), 'Answered by the service');
    await expectAccessible(page, 'roadside check answered online');
    expect(
      Number(
        (await running.query('SELECT count(*)::int AS n FROM roadside_checks WHERE "officerId" = $1', [officer]))[0].n,
      ),
    ).toBe(1);
  });

  it('answers from the sealed work pack without a signal, saying how old it is', async () => {
    // The pack (vehicles, the catalogue) reached the phone at sign-in.
    await eventually(
      () =>
        page.evaluate(
          () =>
            new Promise<boolean>((resolve) => {
              const open = indexedDB.open('dashboard-roadside');
              open.onsuccess = () => {
                const all = open.result.transaction('pack').objectStore('pack').getAll();
                all.onsuccess = () => resolve(all.result.length === 1);
                all.onerror = () => resolve(false);
              };
              open.onerror = () => resolve(false);
            }),
        ),
      'the work pack on the phone',
    );
    // Sealed: no plate lies in clear in the browser's files.
    const stored = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const open = indexedDB.open('dashboard-roadside');
          open.onsuccess = () => {
            const all = open.result.transaction('pack').objectStore('pack').getAll();
            all.onsuccess = () =>
              resolve(
                JSON.stringify(all.result.map((p: { sealed: ArrayBuffer }) => new TextDecoder().decode(p.sealed))),
              );
          };
        }),
    );
    expect(stored).not.toContain('5505');
    await context.setOffline(true);
    await check('GE 5505 20', 'DL-0001-2020');
    await hasText(answer(), 'No signal: from the work pack of');
    await hasText(answer(), PLATE);
    await hasText(answer(), 'The person driving is an approved driver of this vehicle.');
    await check('GE 5505 20', 'DL-9999');
    await hasText(answer(), 'Not an approved driver of this vehicle');
    await expectAccessible(page, 'roadside check answered from the work pack');
  });

  it('records an offence offline with a photo, and makes one notice when the first answer is lost', async () => {
    await page.getByLabel(/TF-01 Loading outside a station/).check();
    await page.getByLabel('Notes').fill('Loading passengers at the junction');
    await page
      .getByLabel('Photos (evidence)')
      .setInputFiles({ name: 'plate.png', mimeType: 'image/png', buffer: PIXEL });
    await page.getByRole('button', { name: 'Record the offence' }).click();
    await hasText(page.locator('.alert.info[role=status]'), 'saved on this phone, waiting to send');
    await hasText(page.locator('header nav'), '1 offence waiting to send');
    await expectAccessible(page, 'offence waiting to send');
    expect(await notices()).toBe(0);

    // The signal returns, but the answer to the first send is lost on the way back: the service recorded it.
    let lost = 0;
    await page.route('**/enforcement/offences', async (route) => {
      await route.fetch();
      lost += 1;
      await route.abort('connectionreset');
    });
    await context.setOffline(false);
    await eventually(async () => lost === 1, 'the first send reached the service');
    expect(await notices()).toBe(1);
    await page.unroute('**/enforcement/offences');
    // The offline checks' log entries follow the offence: the answer to the first is lost too, after it was logged.
    let lostCheck = 0;
    await page.route('**/enforcement/checks', async (route) => {
      if (lostCheck > 0) return route.continue();
      await route.fetch();
      lostCheck += 1;
      await route.abort('connectionreset');
    });
    // The next chance (the phone's "online" again): the same key, the first answer, then the photo.
    await page.evaluate(() => dispatchEvent(new Event('online')));
    await eventually(async () => (await photos()) === 1, 'the photo sent after the notice');
    await eventually(
      async () => !(await page.locator('header nav').textContent())?.includes('waiting'),
      'nothing waits',
    );
    expect(await notices()).toBe(1);
    await eventually(async () => lostCheck === 1, 'the first check log entry reached the service');
    await page.unroute('**/enforcement/checks');
    await page.evaluate(() => dispatchEvent(new Event('online')));
    await eventually(async () => (await kept('checks')) === 0, 'the offline checks sent');
    // The two checks made offline reached the log, once each (their Idempotency-Key).
    expect(await checks()).toBe(3);
  });

  it("shows the officer's own day: the notice and the checks", async () => {
    await page.getByRole('link', { name: 'My day' }).click();
    await heading('My day').waitFor();
    await visible(page.getByRole('heading', { level: 2, name: '1 notice today' }));
    await visible(page.getByRole('heading', { level: 2, name: '3 checks today' }));
    await hasText(page.locator('.cards').first(), PLATE);
    await expectAccessible(page, "the officer's day");
    expect(problems).toEqual([]);
  });

  it('shows an offence the service refused with its reason, and lets the officer discard it', async () => {
    await page.getByRole('link', { name: 'Roadside check' }).click();
    await heading('Check a vehicle').waitFor();
    await context.setOffline(true);
    await check(PLATE);
    await hasText(answer(), 'No signal: from the work pack of');
    await page.getByLabel(/TF-01 Loading outside a station/).check();
    await page.getByRole('button', { name: 'Record the offence' }).click();
    await hasText(page.locator('.alert.info[role=status]'), 'saved on this phone, waiting to send');
    // Meanwhile the assembly took TF-01 out of its catalogue: the service refuses the offence (422 OFFENCE_NOT_FOUND).
    const [assembly] = await running.query('SELECT "assemblyId" FROM assembly_users WHERE id = $1', [officer]);
    const published = await fetch(new URL('/enforcement/catalogue', url), {
      method: 'POST',
      headers: { Authorization: running.keys.admin, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        assembly: assembly.assemblyId,
        offences: [{ code: 'TF-02', description: 'Touting', bylaw: 's. 16', fine: 5_000, daysToPay: 14, surcharge: 0 }],
      }),
    });
    expect(published.status).toBe(201);
    // First the service fails (503): not a refusal, the offence keeps waiting for the next chance.
    let failed = 0;
    await page.route('**/enforcement/offences', async (route) => {
      failed += 1;
      await route.fulfill({
        status: 503,
        contentType: 'application/problem+json',
        body: JSON.stringify({ status: 503, code: 'UNAVAILABLE', detail: 'Try again later' }),
      });
    });
    await context.setOffline(false);
    await eventually(async () => failed > 0, 'the send answered 503');
    await page.unroute('**/enforcement/offences');
    await hasText(page.locator('header nav'), '1 offence waiting to send');
    expect(await page.locator('header nav').textContent()).not.toContain('refused');
    await page.evaluate(() => dispatchEvent(new Event('online')));
    await hasText(page.locator('header nav'), '1 offence refused: see My day');
    expect(await page.locator('header nav').textContent()).not.toContain('waiting');
    await page.getByRole('link', { name: '1 offence refused: see My day' }).click();
    const refused = page.locator('.refused');
    await hasText(
      refused,
      `The service refused the offence against ${PLATE}: an offence ticked is no longer in the assembly's catalogue`,
    );
    await expectAccessible(page, 'an offence the service refused');
    // Discarding asks first: dismissed, it stays.
    page.once('dialog', (dialog) => void dialog.dismiss());
    await page.getByRole('button', { name: 'Discard this offence' }).click();
    await visible(refused);
    page.once('dialog', (dialog) => {
      expect(dialog.message()).toContain(PLATE);
      void dialog.accept();
    });
    await page.getByRole('button', { name: 'Discard this offence' }).click();
    await eventually(async () => (await refused.count()) === 0, 'the refused offence discarded');
    expect(await kept('offences')).toBe(0);
    expect(await notices()).toBe(1);
  });

  it('asks before signing out while a check waits to be sent, and stays signed in when told so', async () => {
    await page.getByRole('link', { name: 'Roadside check' }).click();
    await context.setOffline(true);
    await check(PLATE);
    await hasText(answer(), 'No signal: from the work pack of');
    let asked = '';
    page.once('dialog', (dialog) => {
      asked = dialog.message();
      void dialog.dismiss();
    });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await eventually(async () => asked !== '', 'the sign-out asks');
    expect(asked).toContain('1 offence or check of yours is still waiting to send');
    await visible(page.getByRole('button', { name: 'Sign out' }));
    expect(await kept('checks')).toBe(1);
    await context.setOffline(false);
    await page.evaluate(() => dispatchEvent(new Event('online')));
    await eventually(async () => (await kept('checks')) === 0, 'the check sent');
  });

  it('deletes the pack at load when the session ended while the phone was offline', async () => {
    await eventually(async () => (await kept('pack')) === 1, 'the pack on the phone');
    // The reload below is offline: the service worker must be serving the page by then, or there is nothing to load.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await context.setOffline(true);
    // The service last answered this phone two hours ago: past the demo session's idle end (30 minutes). Written by a
    // script that runs before the page's own at the reload (an answer still on its way to the old page cannot
    // overwrite it).
    await page.addInitScript(() => {
      if (sessionStorage.getItem('expired-once')) return;
      sessionStorage.setItem('expired-once', '1');
      localStorage.setItem('transport.pack-touched', String(Date.now() - 2 * 3_600_000));
    });
    await page.reload();
    await eventually(async () => (await kept('pack')) === 0, 'the pack deleted at load');
    await check(PLATE);
    await hasText(page.getByRole('alert'), 'work pack');
    await context.setOffline(false);
  });

  it('lets a police officer (nationwide) record an offence under the catalogue of the assembly where it was made', async () => {
    const asAdmin = (path: string, body: unknown) =>
      fetch(new URL(path, url), {
        method: 'POST',
        headers: { Authorization: running.keys.admin, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const [tema] = await running.query(`SELECT id FROM assemblies WHERE name = 'Tema Metropolitan Assembly'`);
    const catalogue = await asAdmin('/enforcement/catalogue', {
      assembly: tema.id,
      offences: [
        { code: 'TM-09', description: 'Obstructing traffic', bylaw: 's. 9', fine: 5_000, daysToPay: 7, surcharge: 0 },
      ],
    });
    expect(catalogue.status).toBe(201);
    const added = await asAdmin('/assembly/users/add', {
      assembly: tema.id,
      name: 'Insp. Adjei',
      email: 'adjei@police.gov.gh',
      phone: '+233244000449',
      role: 'enforcer',
      nationwide: true,
    });
    expect(added.status).toBe(201);
    const police = ((await added.json()) as { _id: string })._id;
    expect((await asAdmin('/auth/invitations', { user: police })).status).toBe(202);
    expect((await asAdmin('/auth/password', { token: await linkTo('+233244000449'), password: PASSWORD })).status).toBe(
      204,
    );
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn('adjei@police.gov.gh', 'Check a vehicle');
    await check(PLATE);
    await hasText(answer(), PLATE);
    const where = page.getByLabel('Where the offence was made (assembly)');
    await eventually(async () => (await where.locator('option').count()) > 1, 'the assemblies to choose from');
    await where.selectOption({ label: 'Tema Metropolitan Assembly' });
    await page.getByLabel(/TM-09 Obstructing traffic/).check();
    await expectAccessible(page, "a police officer's offence form");
    await page.getByRole('button', { name: 'Record the offence' }).click();
    await hasText(page.locator('.alert.done[role=status]'), `Notice recorded for ${PLATE}`);
    const [notice] = await running.query('SELECT "assemblyId" FROM notices WHERE "officerId" = $1', [police]);
    expect(notice.assemblyId).toBe(tema.id);
    expect(problems).toEqual([]);
  });
});
