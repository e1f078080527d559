import type { Browser } from 'playwright-core';
import { expectAccessible, hasText, launch, signIn, startDemo, visible, type Running } from './support/demo';

// Issue 47, item 7: the roadside office of an assembly's supervisors, at phone size. An owner's contest awaits a
// decision; the supervisor reads it, reduces the fine with a reason, and reads the day's report (a table, and a chart
// drawn from it). One flow, one service, one browser.

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true };

describe('the roadside office (issue 47)', () => {
  let browser: Browser;
  let running: Running;
  let noticeId = '';

  beforeAll(async () => {
    running = await startDemo('dashboard_roadside_office');
    browser = await launch();
    const { url, keys } = running;
    const call = async (path: string, key: string, body: object) => {
      const answer = await fetch(new URL(path, url), {
        method: 'POST',
        headers: { Authorization: key, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!answer.ok) throw new Error(`${path}: ${answer.status} ${await answer.text()}`);
      return (await answer.json()) as Record<string, unknown>;
    };
    const [{ assemblyId }] = await running.query('SELECT "assemblyId" FROM assembly_users WHERE email = $1', [
      running.demo.approver,
    ]);
    const [{ id: vehicle }] = await running.query(
      'SELECT id FROM vehicles WHERE "assemblyId" = $1 ORDER BY id LIMIT 1',
      [assemblyId],
    );
    const [{ id: driver }] = await running.query('SELECT id FROM drivers ORDER BY id LIMIT 1');
    const officer = await call('/assembly/users/add', keys.admin, {
      assembly: assemblyId,
      name: 'Kojo Office',
      email: 'kojo.office@ama.gov.gh',
      phone: '0244999701',
      role: 'enforcer',
    });
    const officerKey = (await call('/admin/keys', keys.admin, { role: 'assembly', principal: officer._id }))
      .key as string;
    await call('/enforcement/catalogue', keys.admin, {
      assembly: assemblyId,
      offences: [
        {
          code: 'TF-01',
          description: 'No valid sticker',
          bylaw: 's. 12',
          fine: 20_000,
          daysToPay: 14,
          surcharge: 5_000,
          daysToContest: 10,
        },
      ],
    });
    noticeId = (await call('/enforcement/offences', officerKey, { vehicle, driver, codes: ['TF-01'] }))._id as string;
    const [{ text }] = await running.query('SELECT text FROM outbox_messages WHERE text LIKE $1', [`%${noticeId}%`]);
    const page = /https?:\/\/[^/]+(\/n\/\S+)$/.exec(String(text))?.[1];
    const form = new FormData();
    form.set('text', 'The sticker was renewed on Monday');
    const contested = await fetch(new URL(`${page}/contest`, url), { method: 'POST', body: form });
    expect(contested.status).toBe(201);
    // The demo's approver stands in for the assembly's admin, who also reads the reports.
    await running.query(`UPDATE assembly_users SET role = 'admin' WHERE email = $1`, [running.demo.approver]);
  });
  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });

  it('shows a supervisor the contest to decide, records the decision, and the report as a table and a chart', async () => {
    const context = await browser.newContext(PHONE);
    const problems: string[] = [];
    try {
      const page = await context.newPage();
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(running.url);
      await signIn(page, running.demo.approver, running.demo.password);
      await page.getByRole('link', { name: 'Roadside office' }).click();
      await page.getByRole('heading', { level: 1, name: 'Roadside office' }).waitFor();
      await visible(page.getByText('The sticker was renewed on Monday'));
      await visible(page.getByRole('table', { name: 'By day' }));
      await expectAccessible(page, 'roadside office');

      await page.getByLabel('Decision').selectOption('reduced');
      await page.getByLabel('Reduced fine in GHS (only for a reduction)').fill('50');
      await page.getByLabel('Reason (the owner reads it)').fill('First offence');
      await page.getByRole('button', { name: 'Record the decision' }).click();
      await hasText(page.locator('main'), 'Decision recorded; the owner is told by SMS.');
      await visible(page.getByText('No contest awaits a decision.'));
      const [row] = await running.query('SELECT status, decision FROM notices WHERE id = $1', [noticeId]);
      expect(row).toMatchObject({ status: 'decided', decision: { outcome: 'reduced', amount: 5_000 } });

      const byCode = page.getByRole('table', { name: 'By offence' });
      await hasText(byCode, 'TF-01');
      await hasText(byCode, 'GHS 200.00');
      expect(
        await page
          .getByRole('img', { name: /Notices per day/ })
          .locator('rect')
          .count(),
      ).toBe(1);
      await hasText(page.getByRole('table', { name: 'By officer' }), 'Kojo Office');
      await expectAccessible(page, 'roadside office, decided');
      // Nothing wider than the phone: no sideways scrolling.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
