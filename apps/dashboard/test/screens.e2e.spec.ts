import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  expectAccessible,
  hasText,
  launch,
  SHOTS,
  signIn,
  SIZES,
  startDemo,
  visible,
  type Running,
} from './support/demo';

// The screens for what the API could do but the dashboard could not (issue 29): registering an owner, a vehicle and a
// driver; sending a driver a new activation key; an assembly admin's staff (add, invite, disable, enable); a person's
// own password link. In Chromium against the built service with the demo data, at a desk and on a phone.

describe.each(SIZES)(
  'registering records, activation keys, staff and passwords in the dashboard at $name size',
  (size) => {
    let browser: Browser;
    let running: Running;
    let page: Page;
    let url: string;
    const heading = (name: string | RegExp) => page.getByRole('heading', { level: 1, name });
    /** The last message the service texted to a phone (the outbox: no SMS gateway in tests). */
    const lastText = async (to: string) =>
      String(
        (await running.query('SELECT text FROM outbox_messages WHERE "to" = $1 ORDER BY id DESC LIMIT 1', [to]))[0]
          ?.text ?? '',
      );
    const shot = async (screen: string) => {
      // Nothing wider than the screen: no sideways scrolling on a phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.viewport.width);
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: join(SHOTS, `${size.name}-${screen}.png`), fullPage: size.name === 'desktop' });
    };
    const texts = async () => Number((await running.query('SELECT count(*)::int AS n FROM outbox_messages'))[0].n);

    beforeAll(async () => {
      running = await startDemo(`dashboard_screens_${size.name}`);
      url = running.url;
      browser = await launch();
      page = await (await browser.newContext({ viewport: size.viewport, isMobile: size.isMobile })).newPage();
    });
    afterAll(async () => {
      await browser?.close();
      await running?.stop();
    });

    it('registers an owner, their vehicle (colour by name) and a driver, each opened from the answer', async () => {
      await page.goto(url);
      await signIn(page, running.demo.approver, running.demo.password);
      await page.getByRole('link', { name: 'Register', exact: true }).click();
      await heading('Register').waitFor();
      await page.getByRole('link', { name: 'A vehicle owner' }).click();
      await heading('Register a vehicle owner').waitFor();
      await page.getByLabel('Name').fill('Ama Owusu');
      await page.getByLabel('Phone').fill('0244777888');
      await page.getByLabel('Email address').fill('ama.owusu@example.com');
      await page.getByLabel('Identity document', { exact: true }).selectOption({ label: 'Ghana Card' });
      await page.getByLabel('Identity document number').fill('GHA-712345670-1');
      await page.getByRole('button', { name: 'Register a vehicle owner' }).click();
      await hasText(page.getByRole('status'), 'Ama Owusu is registered.');
      await expectAccessible(page, 'owner registered');
      await shot('register-owner');

      await page.getByRole('link', { name: 'Register their vehicle' }).click();
      await heading('Register a vehicle').waitFor();
      await expectAccessible(page, 'register a vehicle');
      await page.getByLabel('Owner').selectOption({ label: 'Ama Owusu (+233244777888)' });
      await page.getByLabel('Registration number').fill('gr 7007-26');
      await page.getByLabel('Make (optional)').fill('Toyota');
      await page.getByLabel('Colour (optional)').fill('Navy blue');
      await page.getByRole('button', { name: 'Register a vehicle' }).click();
      await hasText(page.getByRole('status'), 'Vehicle GR 7007-26 is registered, awaiting inspection.');
      await page.getByRole('link', { name: 'Open it' }).click();
      await heading('Vehicle GR 7007-26').waitFor();
      await hasText(page.locator('.facts'), 'Navy blue');
      await visible(page.getByText('Not inspected', { exact: true }));

      await page.getByRole('link', { name: 'Register', exact: true }).click();
      await page.getByRole('link', { name: 'A driver' }).click();
      await heading('Register a driver').waitFor();
      await expectAccessible(page, 'register a driver');
      for (const [label, value] of [
        ['Name', 'Yaw Darko'],
        ['Phone', '0244999000'],
        ['Email address', 'yaw.darko@example.com'],
        ['Licence', 'DL-0099-2022'],
        ['Licence issued', '2022-03-01'],
        ['Licence ends', '2029-03-01'],
        ['Identity document number', 'GHA-712345671-2'],
      ] as const)
        await page.getByLabel(label, { exact: true }).fill(value);
      await page.getByRole('button', { name: 'Register a driver' }).click();
      await hasText(
        page.getByRole('status'),
        'Yaw Darko is registered; an activation key is on its way to their phone.',
      );
      expect(await lastText('+233244999000')).toMatch(/activation/i);
      await page.getByRole('link', { name: 'Open it' }).click();
      await heading('Driver Yaw Darko').waitFor();
      await expectAccessible(page, 'driver registered');
      await shot('driver-registered');
    });

    it("sends a driver who has not activated a new key, from the driver's page", async () => {
      // One activation key per number per ACTIVATION_SMS_WINDOW_MINUTES: the registration's key just took the window;
      // it is opened again here, as the time would.
      await running.query(`DELETE FROM rate_limits WHERE key LIKE 'activation-sms-phone:%'`);
      const before = await texts();
      await page.getByRole('button', { name: 'Send a new activation key' }).click();
      await hasText(page.getByRole('status'), "A new activation key is on its way to the driver's phone.");
      expect(await texts()).toBe(before + 1);
      await hasText(page.locator('.history'), 'New activation key sent');
      await expectAccessible(page, 'activation key sent');
    });

    it('sends a person the link to change their own password, from their account', async () => {
      await page.getByRole('link', { name: /Kwame Boateng · Approver/ }).click();
      await heading('Your account').waitFor();
      await hasText(page.locator('.facts'), 'kwame.boateng@ama.gov.gh');
      await page.getByRole('button', { name: 'Send me the link' }).click();
      await hasText(page.getByRole('status'), 'The link is on its way to your phone.');
      // The reset link goes out after the answer (the API answers the same whether the account exists or not).
      let text = '';
      for (let i = 0; i < 50 && !/set-password\?token=/.test(text); i++) {
        text = await lastText('+233244000222');
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(text).toMatch(/set-password\?token=/);
      // No staff list for an approver.
      expect(await page.getByRole('heading', { name: 'Staff of the assembly' }).count()).toBe(0);
      await expectAccessible(page, 'account');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await heading('Sign in').waitFor();
    });

    it('lets an assembly admin add staff, send the password link, and disable and enable them', async () => {
      // An assembly admin, added and invited with the demo admin key; they set their password from the texted link.
      const api = (path: string, body: unknown) =>
        fetch(new URL(path, url), {
          method: 'POST',
          headers: { Authorization: running.keys.admin, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
      const [assembly] = await running.query(
        `SELECT "assemblyId" FROM assembly_users WHERE email = 'kwame.boateng@ama.gov.gh'`,
      );
      const added = await api('/assembly/users/add', {
        assembly: assembly.assemblyId,
        name: 'Efua Addo',
        email: 'efua.addo@ama.gov.gh',
        phone: '0244000333',
        role: 'admin',
      });
      expect(added.status).toBe(201);
      expect((await api('/auth/invitations', { user: ((await added.json()) as { _id: string })._id })).status).toBe(
        202,
      );
      const token = /token=([A-Za-z0-9_-]{43})/.exec(await lastText('+233244000333'))?.[1];
      await page.goto(`${url}#/set-password?token=${token}`);
      await page.getByLabel('New password').fill('a quiet road to tamale');
      await page.getByLabel('The same password again').fill('a quiet road to tamale');
      await page.getByRole('button', { name: 'Set the password' }).click();
      await page.getByRole('link', { name: 'Sign in' }).click();
      await signIn(page, 'efua.addo@ama.gov.gh', 'a quiet road to tamale');

      await page.getByRole('link', { name: /Efua Addo · Assembly admin/ }).click();
      await page.getByRole('heading', { level: 2, name: 'Staff of the assembly' }).waitFor();
      const abena = page.locator('.cards > li', { hasText: 'Abena Mensah' });
      await hasText(abena, 'Active');
      await page.getByRole('button', { name: 'Disable Abena Mensah' }).click();
      await hasText(page.getByRole('status'), 'Abena Mensah is disabled and signed out everywhere.');
      await hasText(abena, 'Disabled: cannot sign in');
      await page.getByRole('button', { name: 'Enable again: Abena Mensah' }).click();
      await hasText(abena, 'Active');
      // Never their own account.
      expect(await page.getByRole('button', { name: 'Disable Efua Addo' }).count()).toBe(0);

      await page.getByLabel('Name', { exact: true }).fill('Kojo Mensah');
      await page.getByLabel('Email address', { exact: true }).fill('kojo.mensah@ama.gov.gh');
      await page.getByLabel('Phone', { exact: true }).fill('0244000444');
      await page.getByLabel('Role').selectOption({ label: 'Inspector' });
      await page.getByRole('button', { name: 'Add them' }).click();
      await visible(page.locator('.cards > li', { hasText: 'Kojo Mensah' }));
      await page.getByRole('button', { name: 'Send the password link to Kojo Mensah' }).click();
      await hasText(page.getByRole('status'), "A link to set a password is on its way to Kojo Mensah's phone.");
      expect(await lastText('+233244000444')).toMatch(/token=/);

      // An approver she adds waits for a second admin: she cannot confirm her own making; the national admin does.
      await page.getByLabel('Name', { exact: true }).fill('Ama Owusu');
      await page.getByLabel('Email address', { exact: true }).fill('ama.owusu@ama.gov.gh');
      await page.getByLabel('Phone', { exact: true }).fill('0244000555');
      await page.getByLabel('Role').selectOption({ label: 'Approver' });
      await page.getByRole('button', { name: 'Add them' }).click();
      const ama = page.locator('.cards > li', { hasText: 'Ama Owusu' });
      await hasText(ama, 'Awaiting confirmation by a second admin');
      await page.getByRole('button', { name: 'Confirm Ama Owusu' }).click();
      await hasText(page.getByRole('alert'), 'confirmed by someone other than the admin who created it');
      const [{ id }] = await running.query(`SELECT id FROM assembly_users WHERE email = 'ama.owusu@ama.gov.gh'`);
      expect((await api(`/assembly/users/${String(id)}/confirm`, {})).status).toBe(200);
      await expectAccessible(page, 'staff');
      await shot('staff');
    });
  },
);
