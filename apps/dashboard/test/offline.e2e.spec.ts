import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  eventually,
  expectAccessible,
  hasText,
  launch,
  ROOT,
  signIn,
  startDemo,
  tickEveryItem,
  vehicleId,
  visible,
  type Running,
} from './support/demo';

// At the roadside without a signal (issue 29): the app shell kept by the service worker, inspections kept on the phone
// and sent when the connection returns (a conflict shown, never overwritten), sign-out deleting what is kept, and a
// checklist in progress surviving the end of a session. A phone (390x844) in Chromium, set offline and back online.

const PLATE = 'GR 1001-24';

describe('the dashboard without a signal (issue 29, at the roadside)', () => {
  let browser: Browser;
  let running: Running;
  let context: BrowserContext;
  let page: Page;
  let url: string;
  let id: string;
  const problems: string[] = [];

  const heading = (name: string | RegExp) => page.getByRole('heading', { level: 1, name });
  /** The vehicle as the service has it, read with the assembly's API key (not through the page). */
  const recorded = async () =>
    (await (
      await fetch(new URL(`/vehicles/${id}`, url), { headers: { Authorization: running.keys.assembly } })
    ).json()) as {
      __v: number;
      model: string;
      inspectionChecklist?: Record<string, boolean>;
      inspectionDefects?: Record<string, string>;
    };
  const inspectTask = async () => {
    await page.goto(`${url}#/vehicles/${id}/inspect`);
    await heading(`Vehicle ${PLATE} · Record an inspection`).waitFor();
  };
  /** The outbox in the header (a live region: it says how many inspections wait or need the inspector). */
  const outbox = () => page.locator('header .outbox');

  beforeAll(async () => {
    running = await startDemo('dashboard_offline');
    url = running.url;
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  });
  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });

  it('serves its service worker uncached, with a new cache for each release', async () => {
    const worker = await fetch(new URL('sw.js', url));
    expect([worker.status, worker.headers.get('cache-control')]).toEqual([200, 'no-cache']);
    const body = await worker.text();
    const html = await (await fetch(url)).text();
    // The page carries its script and stylesheet inline; the chunks it loads are the release's hashed files, which
    // the worker keeps: another release (another page, other names) is another list and cache.
    expect(html).toMatch(/<script type="module">[\s\S]+<\/script>/);
    const chunk = /href="(chunks\/chunk-[A-Z0-9]{8}\.js)"/.exec(html)?.[1];
    expect(chunk).toBeDefined();
    expect(body).toContain(`"${chunk}"`);
    expect(body).toMatch(/const RELEASE = "[A-Za-z0-9_-]{12}"/);
  });

  it('opens after one online visit with the connection gone (the shell, the session and the vehicle kept)', async () => {
    await page.goto(url);
    await signIn(page, running.demo.inspector, running.demo.password);
    id = await vehicleId(page, url, PLATE);
    await page.goto(`${url}#/vehicles/${id}`);
    await heading(`Vehicle ${PLATE}`).waitFor();
    expect(await page.evaluate(() => navigator.serviceWorker.ready.then((r) => r.active?.state))).toBe('activated');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    // One cache, this release's, holding its hashed files (the worker deletes any other of ours when it takes over).
    const release = /const RELEASE = "([A-Za-z0-9_-]{12})"/.exec(
      await (await fetch(new URL('sw.js', url))).text(),
    )?.[1];
    const chunk = /href="(chunks\/chunk-[A-Z0-9]{8}\.js)"/.exec(await (await fetch(url)).text())?.[1];
    const kept = await page.evaluate(async () => {
      const names = await caches.keys();
      const files = await Promise.all(
        names.map(async (name) => (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname)),
      );
      return { names, files: files.flat() };
    });
    expect(kept.names).toEqual([`dashboard-shell-${release}`]);
    expect(kept.files).toEqual(expect.arrayContaining(['/dashboard/', `/dashboard/${chunk}`]));
    await context.setOffline(true);
    await page.reload();
    await heading(`Vehicle ${PLATE}`).waitFor();
    expect(await page.evaluate(() => navigator.onLine)).toBe(false);
  });

  it('keeps an inspection made offline as "waiting to send", and sends it when the connection returns', async () => {
    const before = await recorded();
    await inspectTask();
    await tickEveryItem(page);
    await page.getByLabel('Brakes', { exact: true }).uncheck();
    await page.getByText('Notes on failed items').click();
    await page.getByLabel('What is wrong: Brakes').fill('front pads worn');
    await page.getByRole('button', { name: 'Record the inspection' }).click();
    await hasText(page.locator('.alert.info[role=status]'), 'saved on this phone, waiting to send');
    await hasText(outbox(), '1 inspection waiting to send');
    await visible(page.locator('.waiting', { hasText: 'Inspection waiting to send' }));
    await expectAccessible(page, 'inspection waiting to send');
    // Nothing reached the service yet.
    expect((await recorded()).__v).toBe(before.__v);

    await context.setOffline(false);
    await hasText(page.locator('.alert.done'), 'sent and recorded');
    expect(await outbox().textContent()).toBe('');
    const after = await recorded();
    expect(after.inspectionChecklist).toMatchObject({ brakes: false, headlights: true });
    expect(after.inspectionDefects).toEqual({ brakes: 'front pads worn' });
    await visible(page.locator('.badge.bad', { hasText: 'Failed inspection' }));
  });

  it('shows a conflict with what was entered when the vehicle changed meanwhile, and overwrites nothing', async () => {
    await inspectTask();
    await context.setOffline(true);
    await tickEveryItem(page);
    await page.getByRole('button', { name: 'Record the inspection' }).click();
    await hasText(outbox(), '1 inspection waiting to send');
    // Someone else changes the vehicle while the phone has no signal.
    const current = await recorded();
    const other = await fetch(new URL(`/vehicles/${id}/correct`, url), {
      method: 'POST',
      headers: {
        Authorization: running.keys.assembly,
        'Content-Type': 'application/json',
        'If-Match': String(current.__v),
      },
      body: JSON.stringify({ model: 'Sprinter' }),
    });
    expect(other.status).toBe(200);
    const changed = (await other.json()) as { __v: number };

    await context.setOffline(false);
    const conflict = page.getByRole('region', { name: 'The inspection was not sent: the vehicle changed meanwhile' });
    await visible(conflict);
    await hasText(conflict, 'Passed: Spare tyre');
    await hasText(outbox(), '1 inspection needs you');
    await expectAccessible(page, 'inspection in conflict');
    // The vehicle is as the other change left it: the inspection made against the older revision was not applied.
    const after = await recorded();
    expect([after.__v, after.model]).toEqual([changed.__v, 'Sprinter']);
    expect(after.inspectionChecklist?.brakes).not.toBe(true);

    // Reviewed against the vehicle as it is now and recorded again, knowingly.
    await conflict.getByRole('button', { name: 'Review and record again' }).click();
    await visible(page.getByText('The checklist you had started on this phone is filled in again.'));
    await page.reload();
    await heading(`Vehicle ${PLATE} · Record an inspection`).waitFor();
    expect(await page.getByLabel('Brakes', { exact: true }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Record the inspection' }).click();
    await hasText(page.locator('.alert.done[role=status]'), 'The inspection is recorded');
    expect((await recorded()).inspectionChecklist?.brakes).toBe(true);
    expect(await outbox().textContent()).toBe('');
  });

  it('keeps a checklist in progress through the end of a session, and restores it after signing in again', async () => {
    await inspectTask();
    await page.getByLabel('Brakes', { exact: true }).uncheck();
    await page.getByLabel('Headlights', { exact: true }).uncheck();
    await page.getByText('Notes on failed items').click();
    await page.getByLabel('What is wrong: Brakes').fill('handbrake loose');
    // The session ends (signed out through the API, as another device would).
    const session = (await (await page.request.get(new URL('/auth/session', url).toString())).json()) as {
      csrfToken: string;
    };
    const out = await page.request.post(new URL('/auth/sign-out', url).toString(), {
      headers: { 'X-CSRF-Token': session.csrfToken },
    });
    expect(out.status()).toBeLessThan(300);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await page.getByLabel('Email address').fill(running.demo.inspector);
    await page.getByLabel('Password', { exact: true }).fill(running.demo.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await heading(`Vehicle ${PLATE} · Record an inspection`).waitFor();
    await visible(page.getByText('The checklist you had started on this phone is filled in again.'));
    expect(await page.getByLabel('Brakes', { exact: true }).isChecked()).toBe(false);
    expect(await page.getByLabel('Headlights', { exact: true }).isChecked()).toBe(false);
    expect(await page.getByLabel('Spare tyre', { exact: true }).isChecked()).toBe(true);
    expect(await page.getByLabel('What is wrong: Brakes').inputValue()).toBe('handbrake loose');
    await expectAccessible(page, 'checklist restored');
  });

  it('replaces the kept shell when a new release comes: a new worker, its cache, the old cache deleted', async () => {
    // A new release as the browser sees it: another sw.js (another file list, so another release name) behind the
    // same address. The built file is put back afterwards.
    const dir = join(ROOT, 'dist', 'apps', 'dashboard');
    const saved = new Map(['sw.js', 'sw.js.br', 'sw.js.gz'].map((name) => [name, readFileSync(join(dir, name))]));
    const keys = () => page.evaluate(() => caches.keys());
    try {
      const before = await keys();
      expect(before).toEqual([expect.stringMatching(/^dashboard-shell-/)]);
      const next = String(saved.get('sw.js')).replace(/const RELEASE = "[^"]+"/, 'const RELEASE = "NEXT-RELEASE"');
      writeFileSync(join(dir, 'sw.js'), next);
      rmSync(join(dir, 'sw.js.br'));
      rmSync(join(dir, 'sw.js.gz'));
      await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.update()));
      await eventually(async () => {
        const now = await keys();
        return now.length === 1 && now[0] === 'dashboard-shell-NEXT-RELEASE';
      }, "only the new release's cache");
    } finally {
      for (const [name, body] of saved) writeFileSync(join(dir, name), body);
    }
  });

  it('sends what waits when the dashboard is opened again with a signal (not only on the online event)', async () => {
    await inspectTask();
    await context.setOffline(true);
    await tickEveryItem(page);
    await page.getByLabel('Seat belts', { exact: true }).uncheck();
    await page.getByRole('button', { name: 'Record the inspection' }).click();
    await hasText(outbox(), '1 inspection waiting to send');
    // The page goes away offline (the phone closed the tab); the signal returns while no page is open.
    await page.close();
    await context.setOffline(false);
    page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.goto(`${url}#/vehicles/${id}`);
    await heading(`Vehicle ${PLATE}`).waitFor();
    await eventually(
      async () => (await recorded()).inspectionChecklist?.seatBelts === false,
      'the kept inspection recorded by the service',
    );
    await eventually(async () => (await outbox().textContent()) === '', 'an empty outbox');
  });

  it('discards a conflicting inspection only when the inspector confirms it, leaving the vehicle as it is', async () => {
    await inspectTask();
    await context.setOffline(true);
    await tickEveryItem(page);
    await page.getByRole('button', { name: 'Record the inspection' }).click();
    await hasText(outbox(), '1 inspection waiting to send');
    const current = await recorded();
    const other = await fetch(new URL(`/vehicles/${id}/correct`, url), {
      method: 'POST',
      headers: {
        Authorization: running.keys.assembly,
        'Content-Type': 'application/json',
        'If-Match': String(current.__v),
      },
      body: JSON.stringify({ model: 'Coaster' }),
    });
    expect(other.status).toBe(200);
    const changed = await recorded();
    await context.setOffline(false);
    const conflict = page.getByRole('region', { name: 'The inspection was not sent: the vehicle changed meanwhile' });
    await visible(conflict);
    // Asked first: dismissed, it stays.
    page.once('dialog', (dialog) => void dialog.dismiss());
    await conflict.getByRole('button', { name: 'Discard what I entered' }).click();
    await hasText(outbox(), '1 inspection needs you');
    page.once('dialog', (dialog) => void dialog.accept());
    await conflict.getByRole('button', { name: 'Discard what I entered' }).click();
    await eventually(async () => (await outbox().textContent()) === '', 'an empty outbox');
    expect(await conflict.count()).toBe(0);
    // Nothing was sent: the vehicle is exactly as the other change left it.
    expect(await recorded()).toEqual(changed);
    expect(changed.model).toBe('Coaster');
  });

  it("deletes the person's drafts and copies when signing out, keeping their queued inspection for their next sign-in", async () => {
    await inspectTask();
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Record the inspection' }).click();
    await hasText(outbox(), '1 inspection waiting to send');
    let asked = '';
    page.once('dialog', (dialog) => {
      asked = dialog.message();
      void dialog.accept();
    });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect(asked).toContain('1 inspection of yours is still waiting to send. It stays on this phone');
    const kept = await page.evaluate(
      () =>
        new Promise<number[]>((resolve, reject) => {
          const open = indexedDB.open('dashboard-offline');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const tx = open.result.transaction(['outbox', 'drafts', 'copies']);
            const counts = ['outbox', 'drafts', 'copies'].map((name) => tx.objectStore(name).count());
            tx.oncomplete = () => resolve(counts.map((c) => c.result as number));
          };
        }),
    );
    // The inspection waits for its inspector's next sign-in here (offline/store.ts); nothing else of theirs is kept.
    expect(kept).toEqual([1, 0, 0]);
    await context.setOffline(false);
    expect(problems).toEqual([]);
  });
});
