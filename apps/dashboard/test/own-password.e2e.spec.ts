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

// A person changes their own password from "Your account" (POST /auth/password/change): with the current one, which a
// wrong guess makes clear; then signs out and in with the new one. The forgotten-password link stays on the screen. In
// Chromium against the built service on a scratch database with the demo data, at a desk and on a phone. The person is
// made here (the demo's own people and their printed password are left as they are).

const EMAIL = 'esi.quaye@ama.gov.gh';
const PHONE = '+233244000555';
const FIRST = 'a-quiet-road-to-tamale';
const SECOND = 'the-ferry-at-yeji-leaves-at-dawn';

describe.each(SIZES)("a person's own password change at $name size", (size) => {
  let browser: Browser;
  let running: Running;
  let page: Page;
  let url: string;
  let userId: string;
  const problems: string[] = [];
  const heading = (name: string | RegExp) => page.getByRole('heading', { level: 1, name });
  const shot = async (screen: string) => {
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.viewport.width);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `${size.name}-${screen}.png`), fullPage: size.name === 'desktop' });
  };
  const api = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(new URL(path, url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const sessions = async () =>
    Number((await running.query('SELECT count(*)::int AS n FROM person_sessions WHERE "userId" = $1', [userId]))[0].n);

  beforeAll(async () => {
    running = await startDemo(`dashboard_password_${size.name}`);
    url = running.url;
    // Esi, an inspector of the demo assembly, added and invited with the demo admin key; she sets her first password
    // from the texted link.
    const [assembly] = await running.query(
      `SELECT "assemblyId" FROM assembly_users WHERE email = 'kwame.boateng@ama.gov.gh'`,
    );
    const admin = { Authorization: running.keys.admin };
    const added = await api(
      '/assembly/users/add',
      { assembly: assembly.assemblyId, name: 'Esi Quaye', email: EMAIL, phone: PHONE, role: 'inspector' },
      admin,
    );
    expect(added.status).toBe(201);
    userId = ((await added.json()) as { _id: string })._id;
    expect((await api('/auth/invitations', { user: userId }, admin)).status).toBe(202);
    const [message] = await running.query('SELECT text FROM outbox_messages WHERE "to" = $1 ORDER BY id DESC', [PHONE]);
    const token = /token=([A-Za-z0-9_-]{43})/.exec(String(message?.text))?.[1];
    expect((await api('/auth/password', { token, password: FIRST })).status).toBe(204);

    browser = await launch();
    page = await (await browser.newContext({ viewport: size.viewport, isMobile: size.isMobile })).newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' && !/^Failed to load resource: .* status of 4\d\d/.test(message.text()))
        problems.push(message.text());
    });
  });
  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });

  it('says clearly when the current password is wrong, or the new one is not typed the same twice', async () => {
    await page.goto(url);
    await signIn(page, EMAIL, FIRST);
    await page.getByRole('link', { name: /Esi Quaye · Inspector/ }).click();
    await heading('Your account').waitFor();
    const form = page.getByRole('region', { name: 'Change your password' });
    await expectAccessible(page, 'account with the password form');
    for (const [label, autocomplete] of [
      ['Current password', 'current-password'],
      ['New password', 'new-password'],
      ['The same new password again', 'new-password'],
    ] as const) {
      const field = form.getByLabel(label, { exact: true });
      expect([label, await field.getAttribute('type'), await field.getAttribute('autocomplete')]).toEqual([
        label,
        'password',
        autocomplete,
      ]);
    }

    await form.getByLabel('Current password').fill('not-my-password-at-all');
    await form.getByLabel('New password', { exact: true }).fill(SECOND);
    await form.getByLabel('The same new password again').fill(SECOND);
    await form.getByRole('button', { name: 'Change the password' }).click();
    await hasText(
      form.getByRole('alert'),
      'That is not your current password. Type the password you signed in with, or use “Forgot your password?” below.',
    );
    // What was typed stays, to be corrected.
    expect(await form.getByLabel('New password', { exact: true }).inputValue()).toBe(SECOND);
    await expectAccessible(page, 'wrong current password');
    await shot('password-wrong');

    await form.getByLabel('Current password').fill(FIRST);
    await form.getByLabel('The same new password again').fill(`${SECOND}!`);
    await form.getByRole('button', { name: 'Change the password' }).click();
    await hasText(form.getByRole('alert'), 'The two new passwords are not the same.');
    // Nothing was sent: the first password still signs in.
    expect((await api('/auth/sign-in', { email: EMAIL, password: FIRST })).status).toBe(200);
  });

  it('changes the password, ending her other sessions; she signs out and in with the new one', async () => {
    // Her session on another device (a sign-in by the API), which the change ends.
    const elsewhere = await api('/auth/sign-in', { email: EMAIL, password: FIRST });
    const cookie = String(elsewhere.headers.get('set-cookie')).split(';')[0];
    const form = page.getByRole('region', { name: 'Change your password' });
    await form.getByLabel('Current password').fill(FIRST);
    await form.getByLabel('New password', { exact: true }).fill(SECOND);
    await form.getByLabel('The same new password again').fill(SECOND);
    await form.getByRole('button', { name: 'Change the password' }).click();
    await hasText(
      form.getByRole('status'),
      'Your password is changed. You stay signed in here; everywhere else you are signed out.',
    );
    expect(await form.getByLabel('Current password').inputValue()).toBe('');
    expect((await fetch(new URL('/auth/session', url), { headers: { Cookie: cookie } })).status).toBe(401);
    expect(await sessions()).toBe(1);
    await expectAccessible(page, 'password changed');
    await shot('password-changed');

    // Still signed in here, with the renewed session: the queues load, and signing out ends it on the server (its
    // CSRF token is the renewed one).
    await page.getByRole('link', { name: 'Work queues' }).click();
    await heading('Work queues').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await heading('Sign in').waitFor();
    expect(await sessions()).toBe(0);

    await page.getByLabel('Email address').fill(EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(FIRST);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await visible(page.getByRole('alert'));
    await signIn(page, EMAIL, SECOND);
    expect(problems).toEqual([]);
  });

  it('keeps "Forgot your password?", which sends the link to her phone', async () => {
    await page.getByRole('link', { name: /Esi Quaye · Inspector/ }).click();
    const forgot = page.getByRole('region', { name: 'Forgot your password?' });
    await forgot.getByRole('button', { name: 'Send me the link' }).click();
    await hasText(forgot.getByRole('status'), 'The link is on its way to your phone.');
    await expectAccessible(page, 'reset link sent');
  });
});
